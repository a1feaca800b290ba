package planner

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/charset"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"
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
	typeNull      = arrow.Null
)

// typeName renders a type in SQL spelling, for EXPLAIN and errors.
func typeName(t arrow.DataType) string {
	switch t.ID() {
	case arrow.BOOL:
		return "BOOLEAN"
	case arrow.INT32:
		return "INT"
	case arrow.INT64:
		return "BIGINT"
	case arrow.FLOAT32:
		return "FLOAT"
	case arrow.FLOAT64:
		return "DOUBLE"
	case arrow.STRING:
		return "STRING"
	case arrow.BINARY:
		return "BINARY"
	case arrow.DATE32:
		return "DATE"
	case arrow.TIME64:
		return "TIME"
	case arrow.TIMESTAMP:
		if t.(*arrow.TimestampType).TimeZone != "" {
			return "TIMESTAMPTZ"
		}
		return "TIMESTAMP"
	case arrow.NULL:
		return "NULL"
	}
	return t.String()
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
		if a.ID() == arrow.TIMESTAMP {
			return a, true
		}
		return b, true
	}
	return nil, false
}

func widenDecimal(d *arrow.Decimal128Type) arrow.DataType {
	return &arrow.Decimal128Type{Precision: min(38, max(d.Precision, 19+d.Scale)), Scale: d.Scale}
}
