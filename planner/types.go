package planner

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/charset"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"

	"github.com/icesql/icesql/iceberg/arrowschema"
)

// Engine types are Arrow types. These are the ones SQL values take.
var (
	typeBool      = arrow.FixedWidthTypes.Boolean
	typeInt       = arrow.PrimitiveTypes.Int32
	typeLong      = arrow.PrimitiveTypes.Int64
	typeFloat     = arrow.PrimitiveTypes.Float32
	typeDouble    = arrow.PrimitiveTypes.Float64
	typeString    = arrow.BinaryTypes.String
	typeBinary    = arrow.BinaryTypes.Binary
	typeDate      = arrow.FixedWidthTypes.Date32
	typeTime      = arrow.FixedWidthTypes.Time64us
	typeTimestamp = &arrow.TimestampType{Unit: arrow.Microsecond}
	// typeTimestampTZ is Iceberg's timestamptz, which SQL TIMESTAMP
	// literals take: instants in UTC.
	typeTimestampTZ = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	// typeTimestampNs and typeTimestampTZNs are Iceberg v3's timestamp_ns
	// and timestamptz_ns.
	typeTimestampNs   = &arrow.TimestampType{Unit: arrow.Nanosecond}
	typeTimestampTZNs = &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}
	typeNull          = arrow.Null
)

// typeName renders a type in SQL spelling, for EXPLAIN and errors: the
// names CREATE TABLE takes (arrowschema.SQLName), NULL for the type of a
// bare NULL.
func typeName(t arrow.DataType) string {
	if t.ID() == arrow.NULL {
		return "NULL"
	}
	return arrowschema.SQLName(t)
}

// isBytesLike reports a fixed[n] or uuid type: values text is parsed into.
func isBytesLike(t arrow.DataType) bool {
	return t.ID() == arrow.FIXED_SIZE_BINARY || arrowschema.IsUUID(t)
}

// FieldTypeToArrow maps a TiDB column/cast type to an engine type.
func FieldTypeToArrow(ft *types.FieldType) (arrow.DataType, error) {
	switch ft.GetType() {
	case mysql.TypeTiny:
		if ft.GetFlen() == 1 {
			return typeBool, nil
		}
		return typeInt, nil
	case mysql.TypeShort, mysql.TypeLong, mysql.TypeInt24, mysql.TypeYear:
		return typeInt, nil
	case mysql.TypeLonglong:
		return typeLong, nil
	case mysql.TypeFloat:
		return typeFloat, nil
	case mysql.TypeDouble:
		return typeDouble, nil
	case mysql.TypeNewDecimal:
		p, s := ft.GetFlen(), ft.GetDecimal()
		if p <= 0 {
			p = 10
		}
		if s < 0 {
			s = 0
		}
		if p > 38 || s > p {
			return nil, unsupported("DECIMAL(%d,%d)", p, s)
		}
		return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(s)}, nil
	case mysql.TypeVarchar, mysql.TypeString, mysql.TypeVarString, mysql.TypeBlob,
		mysql.TypeTinyBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob:
		if ft.GetCharset() == charset.CharsetBin {
			return typeBinary, nil
		}
		return typeString, nil
	case mysql.TypeDate:
		return typeDate, nil
	case mysql.TypeDatetime:
		return typeTimestamp, nil
	case mysql.TypeTimestamp:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, nil
	case mysql.TypeDuration:
		return typeTime, nil
	}
	return nil, unsupported("column type %s", ft.String())
}

func isNumeric(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128:
		return true
	}
	return false
}

func isInteger(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

func isTemporal(t arrow.DataType) bool {
	return t.ID() == arrow.DATE32 || t.ID() == arrow.TIMESTAMP
}

// commonType is the type two operands are converted to for comparison,
// CASE branches, UNION columns and the like; ok is false if none exists.
func commonType(a, b arrow.DataType) (arrow.DataType, bool) {
	switch {
	case arrow.TypeEqual(a, b):
		return a, true
	case a.ID() == arrow.NULL:
		return b, true
	case b.ID() == arrow.NULL:
		return a, true
	case isInteger(a) && isInteger(b):
		return typeLong, true
	case a.ID() == arrow.DECIMAL128 && b.ID() == arrow.DECIMAL128:
		x, y := a.(*arrow.Decimal128Type), b.(*arrow.Decimal128Type)
		s := max(x.Scale, y.Scale)
		p := min(38, max(x.Precision-x.Scale, y.Precision-y.Scale)+s)
		return &arrow.Decimal128Type{Precision: p, Scale: s}, true
	case a.ID() == arrow.DECIMAL128 && isInteger(b):
		return widenDecimal(a.(*arrow.Decimal128Type)), true
	case b.ID() == arrow.DECIMAL128 && isInteger(a):
		return widenDecimal(b.(*arrow.Decimal128Type)), true
	case isNumeric(a) && isNumeric(b):
		return typeDouble, true
	case isTemporal(a) && isTemporal(b):
		// prefer a timestamp, and of two timestamps the zoned one, so
		// comparisons with literals keep the column's type
		t := b
		if a.ID() == arrow.TIMESTAMP && (b.ID() != arrow.TIMESTAMP || a.(*arrow.TimestampType).TimeZone != "") {
			t = a
		}
		return finerTimestamp(t, a, b), true
	case isBytesLike(a) && b.ID() == arrow.STRING:
		// text meets a uuid (or fixed) value: the text is parsed
		return a, true
	case isBytesLike(b) && a.ID() == arrow.STRING:
		return b, true
	case a.ID() == arrow.DECIMAL128 && (b.ID() == arrow.FLOAT32 || b.ID() == arrow.FLOAT64),
		b.ID() == arrow.DECIMAL128 && (a.ID() == arrow.FLOAT32 || a.ID() == arrow.FLOAT64):
		return typeDouble, true
	}
	return nil, false
}

func widenDecimal(d *arrow.Decimal128Type) arrow.DataType {
	return &arrow.Decimal128Type{Precision: min(38, max(d.Precision, 19+d.Scale)), Scale: d.Scale}
}

// asDecimal is the exact decimal type an integer or decimal operand has
// in decimal arithmetic.
func asDecimal(t arrow.DataType) *arrow.Decimal128Type {
	switch t.ID() {
	case arrow.DECIMAL128:
		return t.(*arrow.Decimal128Type)
	case arrow.INT8, arrow.INT16, arrow.INT32:
		return &arrow.Decimal128Type{Precision: 10}
	}
	return &arrow.Decimal128Type{Precision: 19}
}

// decimalResult is the type of l op r over decimals, by the rules Spark
// and Hive use: precision capped at 38, giving up scale (down to 6) for
// integer digits when the cap bites.
func decimalResult(op byte, l, r *arrow.Decimal128Type) *arrow.Decimal128Type {
	p1, s1, p2, s2 := l.Precision, l.Scale, r.Precision, r.Scale
	var p, s int32
	switch op {
	case '+', '-':
		s = max(s1, s2)
		p = max(p1-s1, p2-s2) + s + 1
	case '*':
		p, s = p1+p2+1, s1+s2
	case '/':
		s = max(6, s1+p2+1)
		p = p1 - s1 + s2 + s
	default: // %
		s = max(s1, s2)
		p = min(p1-s1, p2-s2) + s
	}
	if p > 38 {
		intDigits := p - s
		s = max(38-intDigits, min(s, 6))
		p = 38
	}
	return &arrow.Decimal128Type{Precision: p, Scale: s}
}

// finerTimestamp gives timestamp t the finest unit of a and b, so that a
// nanosecond operand is never truncated to microseconds.
func finerTimestamp(t, a, b arrow.DataType) arrow.DataType {
	tt, ok := t.(*arrow.TimestampType)
	if !ok {
		return t
	}
	unit := tt.Unit
	for _, x := range []arrow.DataType{a, b} {
		if xt, ok := x.(*arrow.TimestampType); ok && xt.Unit > unit {
			unit = xt.Unit
		}
	}
	if unit == tt.Unit {
		return t
	}
	return &arrow.TimestampType{Unit: unit, TimeZone: tt.TimeZone}
}
