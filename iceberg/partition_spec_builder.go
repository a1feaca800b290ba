package iceberg

import (
	"fmt"
	"strconv"
)

// PartitionSpecBuilder builds a validated spec against a schema:
//
//	spec, err := NewPartitionSpecBuilder(schema).Day("ts").Bucket("id", 16).Build()
//
// Field ids continue from WithLastAssignedFieldID (default 999, so the
// first field is 1000). The first error is kept and returned by Build.
type PartitionSpecBuilder struct {
	schema *Schema
	specID int
	lastID int
	fields []PartitionField
	err    error
}

// NewPartitionSpecBuilder starts spec 0 bound to schema.
func NewPartitionSpecBuilder(schema *Schema) *PartitionSpecBuilder {
	return &PartitionSpecBuilder{schema: schema, lastID: PartitionFieldIDStart - 1}
}

// WithSpecID sets the spec id.
func (b *PartitionSpecBuilder) WithSpecID(id int) *PartitionSpecBuilder {
	b.specID = id
	return b
}

// WithLastAssignedFieldID makes new field ids continue after id (a table's
// last-partition-id), keeping them unique across specs.
func (b *PartitionSpecBuilder) WithLastAssignedFieldID(id int) *PartitionSpecBuilder {
	b.lastID = max(id, PartitionFieldIDStart-1)
	return b
}

func (b *PartitionSpecBuilder) Identity(source string) *PartitionSpecBuilder {
	return b.Add(source, IdentityTransform{}, "")
}

func (b *PartitionSpecBuilder) Bucket(source string, n int) *PartitionSpecBuilder {
	return b.Add(source, BucketTransform{N: n}, "")
}

func (b *PartitionSpecBuilder) Truncate(source string, w int) *PartitionSpecBuilder {
	return b.Add(source, TruncateTransform{W: w}, "")
}

func (b *PartitionSpecBuilder) Year(source string) *PartitionSpecBuilder {
	return b.Add(source, YearTransform{}, "")
}

func (b *PartitionSpecBuilder) Month(source string) *PartitionSpecBuilder {
	return b.Add(source, MonthTransform{}, "")
}

func (b *PartitionSpecBuilder) Day(source string) *PartitionSpecBuilder {
	return b.Add(source, DayTransform{}, "")
}

func (b *PartitionSpecBuilder) Hour(source string) *PartitionSpecBuilder {
	return b.Add(source, HourTransform{}, "")
}

func (b *PartitionSpecBuilder) Void(source string) *PartitionSpecBuilder {
	return b.Add(source, VoidTransform{}, "")
}

// Add adds a field on the source column named source (dotted for nested
// struct fields); name "" takes the default name (DefaultPartitionName).
func (b *PartitionSpecBuilder) Add(source string, t Transform, name string) *PartitionSpecBuilder {
	if b.err != nil {
		return b
	}
	f, ok := b.schema.FindFieldByName(source)
	if !ok {
		b.err = fmt.Errorf("%w: partition source column %q: %w", ErrInvalidPartitionSpec, source, ErrNoSuchField)
		return b
	}
	if name == "" && t != nil {
		name = DefaultPartitionName(source, t)
	}
	return b.AddField(f.ID, 0, t, name)
}

// AddField adds a field by source id. fieldID 0 assigns the next id; a
// non-zero id is kept (to reuse the id of an equivalent field of an older
// spec) and advances the last assigned id when it is higher.
func (b *PartitionSpecBuilder) AddField(sourceID, fieldID int, t Transform, name string) *PartitionSpecBuilder {
	if b.err != nil {
		return b
	}
	if fieldID == 0 {
		fieldID = b.lastID + 1
	}
	b.lastID = max(b.lastID, fieldID)
	b.fields = append(b.fields, PartitionField{SourceID: sourceID, FieldID: fieldID, Name: name, Transform: t})
	return b
}

// Build validates and returns the spec.
func (b *PartitionSpecBuilder) Build() (*PartitionSpec, error) {
	if b.err != nil {
		return nil, b.err
	}
	spec := &PartitionSpec{ID: b.specID, Fields: append([]PartitionField{}, b.fields...)}
	if err := spec.Validate(b.schema); err != nil {
		return nil, err
	}
	return spec, nil
}

// DefaultPartitionName is Java's generated name for a partition field:
// ts_day, ts_hour, id_bucket_16, name_trunc_4, x_null, and the source name
// itself for identity.
func DefaultPartitionName(source string, t Transform) string {
	switch tt := t.(type) {
	case IdentityTransform:
		return source
	case BucketTransform:
		return source + "_bucket_" + strconv.Itoa(tt.N)
	case TruncateTransform:
		return source + "_trunc_" + strconv.Itoa(tt.W)
	case VoidTransform:
		return source + "_null"
	}
	return source + "_" + t.String()
}

// Validate checks a spec for writing data under schema: every source is a
// primitive column not inside a list or map and its transform applies to
// it (void may outlive its source), names are non-empty and unique and do
// not shadow another schema column, field ids are unique and at least 1000,
// no source has the same transform twice (or two of year/month/day/hour),
// and no transform is unknown.
func (p *PartitionSpec) Validate(schema *Schema) error {
	names := map[string]bool{}
	ids := map[int]bool{}
	dedup := map[string]string{}
	for _, f := range p.Fields {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: field %q: %s", ErrInvalidPartitionSpec, f.Name, fmt.Sprintf(format, args...))
		}
		if f.Transform == nil {
			return bad("no transform")
		}
		if _, unknown := f.Transform.(UnknownTransform); unknown {
			return bad("unknown transform %q cannot be written", f.Transform)
		}
		if f.Name == "" {
			return fmt.Errorf("%w: a field on source %d has an empty name", ErrInvalidPartitionSpec, f.SourceID)
		}
		if names[f.Name] {
			return bad("name used twice")
		}
		names[f.Name] = true
		if f.FieldID < PartitionFieldIDStart || ids[f.FieldID] {
			return bad("field id %d is below %d or used twice", f.FieldID, PartitionFieldIDStart)
		}
		ids[f.FieldID] = true
		_, void := f.Transform.(VoidTransform)
		if col, ok := schema.FindFieldByName(f.Name); ok && !void {
			_, identity := f.Transform.(IdentityTransform)
			if !identity || col.ID != f.SourceID {
				return bad("name conflicts with schema column %d", col.ID)
			}
		}
		src, ok := schema.FindFieldByID(f.SourceID)
		if !ok {
			if void {
				continue
			}
			return bad("source field %d is not in the schema", f.SourceID)
		}
		if err := checkPartitionSource(schema, src); err != nil {
			return bad("%v", err)
		}
		if !f.Transform.CanTransform(src.Type) {
			return bad("%s cannot be applied to %s column %q", f.Transform, src.Type, src.Name)
		}
		if void {
			continue
		}
		key := f.Transform.String()
		if IsTimeTransform(f.Transform) {
			key = "time"
		}
		key = strconv.Itoa(f.SourceID) + "/" + key
		if other, dup := dedup[key]; dup {
			return bad("redundant with field %q on the same source", other)
		}
		dedup[key] = f.Name
	}
	return nil
}

// checkPartitionSource requires a primitive column whose ancestors are all
// structs (values inside lists and maps have no single partition value).
func checkPartitionSource(schema *Schema, src NestedField) error {
	if _, ok := src.Type.(PrimitiveType); !ok {
		return fmt.Errorf("source column %q is not a primitive type", src.Name)
	}
	for p := schema.ParentID(src.ID); p != 0; p = schema.ParentID(p) {
		parent, _ := schema.FindFieldByID(p)
		if _, ok := parent.Type.(*StructType); !ok {
			return fmt.Errorf("source column %q is inside a list or map", src.Name)
		}
	}
	return nil
}
