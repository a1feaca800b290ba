package iceberg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// partitionFieldJSON is a field of a spec in metadata JSON. source-ids is
// the v3 multi-argument form; single-argument transforms write source-id.
type partitionFieldJSON struct {
	SourceID  *int   `json:"source-id,omitempty"`
	SourceIDs []int  `json:"source-ids,omitempty"`
	FieldID   *int   `json:"field-id,omitempty"`
	Name      string `json:"name"`
	Transform string `json:"transform"`
}

// MarshalJSON writes {"source-id","field-id","name","transform"}.
func (f PartitionField) MarshalJSON() ([]byte, error) {
	if f.Transform == nil {
		return nil, fmt.Errorf("%w: field %q has no transform", ErrInvalidPartitionSpec, f.Name)
	}
	src, id := f.SourceID, f.FieldID
	return json.Marshal(partitionFieldJSON{SourceID: &src, FieldID: &id, Name: f.Name, Transform: f.Transform.String()})
}

// UnmarshalJSON reads a partition field. A missing field-id (v1 metadata)
// leaves FieldID 0; (*PartitionSpec).UnmarshalJSON and
// ParsePartitionFields assign v1 ids. Transforms this package does not know
// become UnknownTransform so newer tables stay readable.
func (f *PartitionField) UnmarshalJSON(b []byte) error {
	var j partitionFieldJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("%w: partition field: %v", ErrInvalidPartitionSpec, err)
	}
	src, err := singleSourceID(j.SourceID, j.SourceIDs)
	if err != nil {
		return fmt.Errorf("%w: partition field %q: %v", ErrInvalidPartitionSpec, j.Name, err)
	}
	t, err := transformFromJSON(j.Transform)
	if err != nil {
		return fmt.Errorf("%w: partition field %q: %v", ErrInvalidPartitionSpec, j.Name, err)
	}
	if j.Name == "" {
		return fmt.Errorf("%w: partition field with source %d has no name", ErrInvalidPartitionSpec, src)
	}
	*f = PartitionField{SourceID: src, Name: j.Name, Transform: t}
	if j.FieldID != nil {
		if *j.FieldID <= 0 {
			return fmt.Errorf("%w: partition field %q has field-id %d", ErrInvalidPartitionSpec, j.Name, *j.FieldID)
		}
		f.FieldID = *j.FieldID
	}
	return nil
}

func singleSourceID(id *int, ids []int) (int, error) {
	switch {
	case id != nil:
		return *id, nil
	case len(ids) == 1:
		return ids[0], nil
	case len(ids) > 1:
		return 0, fmt.Errorf("%w: multi-argument transforms", ErrUnsupported)
	}
	return 0, fmt.Errorf("missing source-id")
}

func transformFromJSON(s string) (Transform, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("missing transform")
	}
	t, err := ParseTransform(s)
	if err != nil {
		return UnknownTransform{Name: s}, nil
	}
	return t, nil
}

type partitionSpecJSON struct {
	SpecID int              `json:"spec-id"`
	Fields []PartitionField `json:"fields"`
}

// MarshalJSON writes {"spec-id":N,"fields":[...]}.
func (p PartitionSpec) MarshalJSON() ([]byte, error) {
	fields := p.Fields
	if fields == nil {
		fields = []PartitionField{}
	}
	return json.Marshal(partitionSpecJSON{SpecID: p.ID, Fields: fields})
}

// UnmarshalJSON reads a spec object; fields without field-id get
// 1000, 1001, ... in order, as v1 assigned them.
func (p *PartitionSpec) UnmarshalJSON(b []byte) error {
	var raw struct {
		SpecID *int            `json:"spec-id"`
		Fields json.RawMessage `json:"fields"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidPartitionSpec, err)
	}
	if raw.SpecID == nil {
		return fmt.Errorf("%w: missing spec-id", ErrInvalidPartitionSpec)
	}
	fields, err := ParsePartitionFields(raw.Fields)
	if err != nil {
		return err
	}
	*p = PartitionSpec{ID: *raw.SpecID, Fields: fields}
	return nil
}

// ParsePartitionFields reads a JSON array of partition fields (the v1
// "partition-spec" form, or a spec's "fields"), assigning v1 field ids
// (1000 + position) to fields that have none, and checking that field ids
// and names are unique.
func ParsePartitionFields(raw json.RawMessage) ([]PartitionField, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, fmt.Errorf("%w: missing fields", ErrInvalidPartitionSpec)
	}
	var fields []PartitionField
	if err := json.Unmarshal(raw, &fields); err != nil {
		if errors.Is(err, ErrInvalidPartitionSpec) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: fields: %v", ErrInvalidPartitionSpec, err)
	}
	ids, names := map[int]bool{}, map[string]bool{}
	for i := range fields {
		if fields[i].FieldID == 0 {
			fields[i].FieldID = PartitionFieldIDStart + i
		}
		if ids[fields[i].FieldID] || names[fields[i].Name] {
			return nil, fmt.Errorf("%w: duplicate partition field %q (id %d)", ErrInvalidPartitionSpec, fields[i].Name, fields[i].FieldID)
		}
		ids[fields[i].FieldID], names[fields[i].Name] = true, true
	}
	if len(fields) == 0 {
		return []PartitionField{}, nil
	}
	return fields, nil
}

// LastAssignedFieldID is the highest partition field id in the spec, or
// PartitionFieldIDStart-1 when it has none.
func (p *PartitionSpec) LastAssignedFieldID() int {
	last := PartitionFieldIDStart - 1
	for _, f := range p.Fields {
		last = max(last, f.FieldID)
	}
	return last
}

// CompatibleWith reports whether two specs partition data the same way:
// same fields in order with the same source, transform and name (ids and
// spec ids are ignored). Writers reuse a compatible spec instead of adding
// a new one.
func (p *PartitionSpec) CompatibleWith(o *PartitionSpec) bool {
	if len(p.Fields) != len(o.Fields) {
		return false
	}
	for i, f := range p.Fields {
		g := o.Fields[i]
		if f.SourceID != g.SourceID || f.Name != g.Name || f.Transform.String() != g.Transform.String() {
			return false
		}
	}
	return true
}

// Equals reports whether two specs are identical, ids included.
func (p *PartitionSpec) Equals(o *PartitionSpec) bool {
	if p.ID != o.ID || !p.CompatibleWith(o) {
		return false
	}
	for i := range p.Fields {
		if p.Fields[i].FieldID != o.Fields[i].FieldID {
			return false
		}
	}
	return true
}

// PartitionType is the struct of partition values: one optional field per
// partition field, id = partition field id, type = the transform's result
// type. A void field whose source was dropped is typed int.
func (p *PartitionSpec) PartitionType(schema *Schema) (*StructType, error) {
	out := &StructType{FieldList: make([]NestedField, 0, len(p.Fields))}
	for _, f := range p.Fields {
		rt, err := partitionResultType(f, schema)
		if err != nil {
			return nil, err
		}
		out.FieldList = append(out.FieldList, NestedField{ID: f.FieldID, Name: f.Name, Type: rt})
	}
	return out, nil
}

func partitionResultType(f PartitionField, schema *Schema) (Type, error) {
	src, ok := schema.FindFieldByID(f.SourceID)
	if !ok {
		switch f.Transform.(type) {
		case VoidTransform:
			return IntType{}, nil
		case UnknownTransform:
			return StringType{}, nil
		}
		return nil, fmt.Errorf("%w: partition field %q: source field %d is not in the schema", ErrInvalidPartitionSpec, f.Name, f.SourceID)
	}
	return f.Transform.ResultType(src.Type), nil
}

// Partition computes the partition tuple of one row: sourceValue returns
// the row's value (Go value form) of a source field id. Values are checked
// against their source types.
func (p *PartitionSpec) Partition(schema *Schema, sourceValue func(sourceID int) any) ([]any, error) {
	tuple := make([]any, len(p.Fields))
	for i, f := range p.Fields {
		if _, void := f.Transform.(VoidTransform); void {
			continue
		}
		src, ok := schema.FindFieldByID(f.SourceID)
		if !ok {
			return nil, fmt.Errorf("%w: partition field %q: source field %d is not in the schema", ErrInvalidPartitionSpec, f.Name, f.SourceID)
		}
		v, err := ApplyTransform(f.Transform, src.Type, sourceValue(f.SourceID))
		if err != nil {
			return nil, fmt.Errorf("partition field %q: %w", f.Name, err)
		}
		tuple[i] = v
	}
	return tuple, nil
}

// PartitionPath renders a partition tuple as Java does for data file
// directories: name=value pairs joined by "/", values in their human form
// (dates ISO, hours yyyy-mm-dd-hh, months yyyy-mm, null as "null") and
// names and values URL-encoded.
func (p *PartitionSpec) PartitionPath(tuple []any, schema *Schema) (string, error) {
	if len(tuple) != len(p.Fields) {
		return "", fmt.Errorf("%w: tuple has %d values for %d partition fields", ErrInvalidPartitionSpec, len(tuple), len(p.Fields))
	}
	var b strings.Builder
	for i, f := range p.Fields {
		rt, err := partitionResultType(f, schema)
		if err != nil {
			return "", err
		}
		if err := ValidateValue(rt, tuple[i]); err != nil {
			return "", fmt.Errorf("partition field %q: %w", f.Name, err)
		}
		srcType := rt
		if src, ok := schema.FindFieldByID(f.SourceID); ok {
			srcType = src.Type
		}
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(javaURLEncode(f.Name))
		b.WriteByte('=')
		b.WriteString(javaURLEncode(HumanString(f.Transform, srcType, tuple[i])))
	}
	return b.String(), nil
}

// javaURLEncode is java.net.URLEncoder.encode(s, UTF_8): letters, digits
// and ".-*_" are kept, space becomes '+', everything else %XX of its UTF-8
// bytes. (Go's url.QueryEscape differs on '~' and '*'.)
func javaURLEncode(s string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '-', c == '*', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		}
	}
	return b.String()
}
