package parquetfile

import (
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

func isListColumn(c *parquet.Column) bool {
	if lt := c.Type().LogicalType(); lt != nil {
		if _, ok := lt.Value.(*format.ListType); ok {
			return true
		}
	}
	ct := c.Type().ConvertedType()
	return ct != nil && *ct == deprecated.List
}

func isMapColumn(c *parquet.Column) bool {
	if lt := c.Type().LogicalType(); lt != nil {
		if _, ok := lt.Value.(*format.MapType); ok {
			return true
		}
	}
	ct := c.Type().ConvertedType()
	return ct != nil && (*ct == deprecated.Map || *ct == deprecated.MapKeyValue)
}

// bareRepeated reports a repeated column standing where a field stands
// (at the root, in a struct, as a map's key or value), not as the
// repeated field of a list or map: its own repetition is not counted in
// rep, the repetition level of the slot it fills. LogicalTypes.md reads
// such a column, when it is not annotated LIST or MAP, as a required
// list of required elements of its own type.
func bareRepeated(c *parquet.Column, rep int) bool {
	return c.Repeated() && c.MaxRepetitionLevel() > rep
}

// listElement resolves c, filling a slot of repetition level rep, as a
// list by LogicalTypes.md's rules (those for existing data included):
// repeated is the field whose repetitions are the list's entries, elem
// the element. An unannotated repeated field outside a LIST is a
// required list of itself (repeated == elem == c). A LIST holds one
// repeated field, which is itself the element (required) when it is not
// a group, when it is a group of more than one field, of one repeated
// field, or named "array" or the list's name with "_tuple" appended
// (legacy 2-level lists); otherwise its one field is the element (the
// 3-level list). A MAP without values (LogicalTypes.md lets one stand
// for a set of its keys; Iceberg has no set) is the list of its keys, as
// arrow reads it. nil, nil when c is not a list or a malformed one.
func listElement(c *parquet.Column, rep int) (repeated, elem *parquet.Column) {
	if bareRepeated(c, rep) {
		// a repeated LIST or MAP serves only as the element of a 2-level
		// list, never as a field
		if isListColumn(c) || isMapColumn(c) {
			return nil, nil
		}
		return c, c
	}
	if kv, k, v := mapKeyValue(c, rep); k != nil && v == nil {
		return kv, k
	}
	if c.Leaf() || !isListColumn(c) {
		return nil, nil
	}
	cols := c.Columns()
	if len(cols) != 1 || !cols[0].Repeated() {
		return nil, nil
	}
	r := cols[0]
	if r.Leaf() {
		return r, r
	}
	inner := r.Columns()
	if len(inner) != 1 || inner[0].Repeated() || r.Name() == "array" || r.Name() == c.Name()+"_tuple" {
		return r, r
	}
	return r, inner[0]
}

// mapKeyValue resolves c, filling a slot of repetition level rep, as a
// map by LogicalTypes.md's rules: a group annotated MAP (or, as some
// writers had it, MAP_KEY_VALUE) holding one repeated group of the key
// and the value, whatever their names. v is nil for a map without
// values; all are nil when c is not a map or a malformed one.
func mapKeyValue(c *parquet.Column, rep int) (kv, k, v *parquet.Column) {
	if c.Leaf() || !isMapColumn(c) || bareRepeated(c, rep) {
		return nil, nil, nil
	}
	cols := c.Columns()
	if len(cols) != 1 || !cols[0].Repeated() || cols[0].Leaf() {
		return nil, nil, nil
	}
	kv = cols[0]
	switch fields := kv.Columns(); len(fields) {
	case 1:
		return kv, fields[0], nil
	case 2:
		return kv, fields[0], fields[1]
	}
	return nil, nil, nil
}

// isKeySet reports a MAP without values, read as the list of its keys.
func isKeySet(c *parquet.Column, rep int) bool {
	_, k, v := mapKeyValue(c, rep)
	return k != nil && v == nil
}

// primitiveFromParquet infers the Iceberg type of a Parquet leaf.
func primitiveFromParquet(t parquet.Type) (iceberg.Type, error) {
	lt := t.LogicalType()
	if lt != nil && lt.Value != nil {
		if g, ok, err := geoFromLogical(lt.Value); ok {
			return g, err
		}
		switch l := lt.Value.(type) {
		case *format.StringType, *format.EnumType, *format.JsonType:
			return iceberg.StringType{}, nil
		case *format.DecimalType:
			if l.Precision < 1 || l.Precision > 38 || l.Scale < 0 || l.Scale > l.Precision {
				return nil, corrupt("decimal(%d,%d) out of range", l.Precision, l.Scale)
			}
			return iceberg.DecimalType{Precision: int(l.Precision), Scale: int(l.Scale)}, nil
		case *format.DateType:
			return iceberg.DateType{}, nil
		case *format.TimeType:
			return iceberg.TimeType{}, nil
		case *format.TimestampType:
			if _, nanos := l.Unit.Value.(*format.NanoSeconds); nanos {
				if l.IsAdjustedToUTC {
					return iceberg.TimestampTzNsType{}, nil
				}
				return iceberg.TimestampNsType{}, nil
			}
			if l.IsAdjustedToUTC {
				return iceberg.TimestampTzType{}, nil
			}
			return iceberg.TimestampType{}, nil
		case *format.UUIDType:
			return iceberg.UUIDType{}, nil
		case *format.NullType:
			// Parquet's UNKNOWN (always null) is Iceberg's unknown: read as
			// NULL, whatever the column's pages hold.
			return iceberg.UnknownType{}, nil
		case *format.IntType:
			// UINT32 needs a long, as Java reads it; UINT64 is read as a
			// long too (Java refuses it), holding values below 2^63.
			if l.BitWidth == 64 || l.BitWidth == 32 && !l.IsSigned {
				return iceberg.LongType{}, nil
			}
			return iceberg.IntType{}, nil
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.UTF8, deprecated.Enum, deprecated.Json:
			return iceberg.StringType{}, nil
		case deprecated.Date:
			return iceberg.DateType{}, nil
		case deprecated.Uint32, deprecated.Uint64:
			return iceberg.LongType{}, nil
		case deprecated.TimestampMicros, deprecated.TimestampMillis:
			return iceberg.TimestampTzType{}, nil
		}
	}
	switch t.Kind() {
	case parquet.Boolean:
		return iceberg.BooleanType{}, nil
	case parquet.Int32:
		return iceberg.IntType{}, nil
	case parquet.Int64:
		return iceberg.LongType{}, nil
	case parquet.Int96:
		// Spark's and Impala's INT96 is an instant (Spark's TimestampType);
		// Java reads it as timestamptz.
		return iceberg.TimestampTzType{}, nil
	case parquet.Float:
		return iceberg.FloatType{}, nil
	case parquet.Double:
		return iceberg.DoubleType{}, nil
	case parquet.ByteArray:
		return iceberg.BinaryType{}, nil
	case parquet.FixedLenByteArray:
		return iceberg.FixedType{Length: t.Length()}, nil
	}
	return nil, fmt.Errorf("%w: parquet type %v", iceberg.ErrUnsupported, t)
}

// unsignedWidth is the bit width of an unsigned integer annotation
// (logical INT(n, false) or converted UINT_n), 0 for anything else.
func unsignedWidth(t parquet.Type) int {
	if lt := t.LogicalType(); lt != nil && lt.Value != nil {
		if it, ok := lt.Value.(*format.IntType); ok && !it.IsSigned {
			return int(it.BitWidth)
		}
		return 0
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.Uint8:
			return 8
		case deprecated.Uint16:
			return 16
		case deprecated.Uint32:
			return 32
		case deprecated.Uint64:
			return 64
		}
	}
	return 0
}

// isUnsigned32 reports whether t is INT(32, false): its int32 values are
// the low 32 bits of a uint32, widened without sign extension.
func isUnsigned32(t parquet.Type) bool { return unsignedWidth(t) == 32 }

// IsUnsignedInt reports whether t is an unsigned integer annotation of
// 32 or 64 bits, whose footer statistics order as unsigned numbers
// (unlike Iceberg's signed int and long bounds).
func IsUnsignedInt(t parquet.Type) bool { return unsignedWidth(t) >= 32 }
