package manifest

import (
	"fmt"

	"github.com/hamba/avro/v2"
	"github.com/icesql/icesql/iceberg"
)

// partitionValueReader derives a partition field's Iceberg type from its
// Avro type (logical types included) and reads values in the Go value form.
func partitionValueReader(s avro.Schema) (iceberg.Type, func(*dec) any, error) {
	switch t := s.(type) {
	case *avro.PrimitiveSchema:
		logical := ""
		if t.Logical() != nil {
			logical = string(t.Logical().Type())
		} else if lt, ok := t.Prop("logicalType").(string); ok && lt == timestampNanos {
			// the Avro library does not know this Iceberg convention and
			// leaves it as a plain property
			logical = lt
		}
		switch t.Type() {
		case avro.Boolean:
			return iceberg.BooleanType{}, func(d *dec) any { return d.r.ReadBool() }, nil
		case avro.Int:
			if logical == string(avro.Date) {
				return iceberg.DateType{}, func(d *dec) any { return iceberg.Date(d.r.ReadInt()) }, nil
			}
			return iceberg.IntType{}, func(d *dec) any { return d.r.ReadInt() }, nil
		case avro.Long:
			switch logical {
			case string(avro.TimeMicros):
				return iceberg.TimeType{}, func(d *dec) any { return iceberg.Time(d.r.ReadLong()) }, nil
			case string(avro.TimestampMicros), string(avro.LocalTimestampMicros):
				var typ iceberg.Type = iceberg.TimestampType{}
				if utc, _ := t.Prop("adjust-to-utc").(bool); utc && logical == string(avro.TimestampMicros) {
					typ = iceberg.TimestampTzType{}
				}
				return typ, func(d *dec) any { return iceberg.Timestamp(d.r.ReadLong()) }, nil
			case timestampNanos:
				var typ iceberg.Type = iceberg.TimestampNsType{}
				if utc, _ := t.Prop("adjust-to-utc").(bool); utc {
					typ = iceberg.TimestampTzNsType{}
				}
				return typ, func(d *dec) any { return iceberg.TimestampNano(d.r.ReadLong()) }, nil
			case "":
				return iceberg.LongType{}, func(d *dec) any { return d.r.ReadLong() }, nil
			}
		case avro.Float:
			return iceberg.FloatType{}, func(d *dec) any { return d.r.ReadFloat() }, nil
		case avro.Double:
			return iceberg.DoubleType{}, func(d *dec) any { return d.r.ReadDouble() }, nil
		case avro.String:
			if logical == string(avro.UUID) {
				return iceberg.UUIDType{}, func(d *dec) any { return parseUUID(d, d.r.ReadString()) }, nil
			}
			return iceberg.StringType{}, func(d *dec) any { return d.r.ReadString() }, nil
		case avro.Bytes:
			if dl, ok := t.Logical().(*avro.DecimalLogicalSchema); ok {
				return decimalReader(dl, func(d *dec) []byte { return d.r.ReadBytes() })
			}
			return iceberg.BinaryType{}, func(d *dec) any { return d.r.ReadBytes() }, nil
		}
	case *avro.FixedSchema:
		size := t.Size()
		raw := func(d *dec) []byte { return d.fixed(size) }
		if dl, ok := t.Logical().(*avro.DecimalLogicalSchema); ok {
			return decimalReader(dl, raw)
		}
		if isUUIDFixed(t) {
			if size != 16 {
				return nil, nil, fmt.Errorf("uuid fixed of size %d", size)
			}
			return iceberg.UUIDType{}, func(d *dec) any {
				var u iceberg.UUID
				d.r.Read(u[:])
				return u
			}, nil
		}
		return iceberg.FixedType{Length: size}, func(d *dec) any { return raw(d) }, nil
	}
	return nil, nil, fmt.Errorf("avro type %s is not a partition value type", s.Type())
}

func decimalReader(dl *avro.DecimalLogicalSchema, raw func(*dec) []byte) (iceberg.Type, func(*dec) any, error) {
	if dl.Precision() < 1 || dl.Precision() > 38 || dl.Scale() < 0 || dl.Scale() > dl.Precision() {
		return nil, nil, fmt.Errorf("decimal(%d,%d) is outside Iceberg's range", dl.Precision(), dl.Scale())
	}
	scale := dl.Scale()
	return iceberg.DecimalType{Precision: dl.Precision(), Scale: scale}, func(d *dec) any {
		n, ok := decimalFromBytes(raw(d))
		if !ok {
			d.fail("decimal", "decimal value is empty or wider than 16 bytes")
			return nil
		}
		return iceberg.Decimal{Unscaled: n, Scale: scale}
	}, nil
}

func parseUUID(d *dec, s string) any {
	var u iceberg.UUID
	j := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '-' {
			continue
		}
		if j >= 32 {
			break
		}
		h := unhex(s[i])
		if h < 0 {
			d.fail("uuid", "malformed uuid text")
			return nil
		}
		u[j/2] |= byte(h) << (4 * (1 - j%2))
		j++
	}
	if j != 32 {
		d.fail("uuid", "malformed uuid text")
		return nil
	}
	return u
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// partitionPlan compiles the writer's r102 record. Values land at the
// position of their field id in want (a caller's partition type) or, when
// want is nil, in the file's field order. It returns the partition type
// as the file declares it.
func partitionPlan(s avro.Schema, want *iceberg.StructType) (func(*dec) []any, *iceberg.StructType, error) {
	inner, _, err := nullable(s)
	if err != nil {
		return nil, nil, err
	}
	rec, ok := inner.(*avro.RecordSchema)
	if !ok {
		return nil, nil, fmt.Errorf("partition is avro %s, not a record", inner.Type())
	}
	fileType := &iceberg.StructType{}
	type slot struct {
		pos  int // -1: skip
		read func(*dec) (any, bool)
	}
	slots := make([]slot, 0, len(rec.Fields()))
	width := len(rec.Fields())
	if want != nil {
		width = len(want.FieldList)
	}
	for i, f := range rec.Fields() {
		id, hasID := fieldID(f)
		if !hasID {
			return nil, nil, fmt.Errorf("partition field %q has no field-id", f.Name())
		}
		var typ iceberg.Type
		read, err := optional(f.Type(), func(s avro.Schema) (func(*dec) any, error) {
			t, r, err := partitionValueReader(s)
			typ = t
			return r, err
		})
		if err != nil {
			return nil, nil, fmt.Errorf("partition field %q: %w", f.Name(), err)
		}
		fileType.FieldList = append(fileType.FieldList, iceberg.NestedField{ID: id, Name: f.Name(), Type: typ})
		pos := i
		if want != nil {
			pos = -1
			for j, wf := range want.FieldList {
				if wf.ID == id {
					pos = j
				}
			}
		}
		slots = append(slots, slot{pos: pos, read: read})
	}
	return func(d *dec) []any {
		if width == 0 {
			for _, s := range slots {
				s.read(d)
			}
			return nil
		}
		out := make([]any, width)
		for _, s := range slots {
			v, _ := s.read(d)
			if s.pos >= 0 {
				out[s.pos] = v
			}
		}
		return out
	}, fileType, nil
}

// isUUIDFixed reports a fixed carrying logicalType uuid; hamba keeps that
// logical type as a plain property on fixed schemas.
func isUUIDFixed(t *avro.FixedSchema) bool {
	if t.Logical() != nil && t.Logical().Type() == avro.UUID {
		return true
	}
	lt, _ := t.Prop("logicalType").(string)
	return lt == string(avro.UUID)
}
