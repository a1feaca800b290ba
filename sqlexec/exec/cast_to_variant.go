package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/parquet/variant"

	"github.com/icesql/icesql/iceberg/arrowschema"
)

// CastsToVariant reports whether CAST(x AS VARIANT) takes values of t:
// the primitive types (Spark's rule; nested values go through
// parse_json(to_json(...)) instead).
func CastsToVariant(t arrow.DataType) bool {
	if arrowschema.IsUUID(t) {
		return false // Spark has no uuid type; cast to string first
	}
	switch t.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.STRING, arrow.BINARY, arrow.DATE32, arrow.TIME64, arrow.TIMESTAMP, arrow.DECIMAL128:
		return true
	}
	return false
}

// castToVariant makes a variant of each value of a (SQL NULL stays NULL).
func castToVariant(ec *EvalContext, a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	vt, ok := to.(*extensions.VariantType)
	if !ok || !CastsToVariant(a.DataType()) {
		return nil, &CastError{Value: "value", From: castTypeName(a.DataType()), To: "VARIANT"}
	}
	out := extensions.NewVariantBuilder(ec.Mem, vt)
	defer out.Release()
	var b variant.Builder
	for i := range a.Len() {
		if a.IsNull(i) {
			out.AppendNull()
			continue
		}
		b.Reset()
		if err := appendVariantPrimitive(&b, a, i); err != nil {
			return nil, &CastError{Value: FormatValue(ValueAt(a, i), a.DataType()), From: castTypeName(a.DataType()), To: "VARIANT"}
		}
		v, err := b.Build()
		if err != nil {
			return nil, &CastError{Value: FormatValue(ValueAt(a, i), a.DataType()), From: castTypeName(a.DataType()), To: "VARIANT"}
		}
		out.Append(v) // copies the bytes: b is reused
	}
	return out.NewArray(), nil
}

// appendVariantPrimitive appends value i of a in the variant encoding of
// its type.
func appendVariantPrimitive(b *variant.Builder, a arrow.Array, i int) error {
	switch x := a.(type) {
	case *array.Boolean:
		return b.AppendBool(x.Value(i))
	case *array.Int8:
		return b.AppendInt(int64(x.Value(i)))
	case *array.Int16:
		return b.AppendInt(int64(x.Value(i)))
	case *array.Int32:
		return b.AppendInt(int64(x.Value(i)))
	case *array.Int64:
		return b.AppendInt(x.Value(i))
	case *array.Float32:
		return b.AppendFloat32(x.Value(i))
	case *array.Float64:
		return b.AppendFloat64(x.Value(i))
	case *array.String:
		return b.AppendString(x.Value(i))
	case *array.Binary:
		return b.AppendBinary(x.Value(i))
	case *array.Date32:
		return b.AppendDate(x.Value(i))
	case *array.Time64:
		v := x.Value(i)
		if x.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
			v /= 1000
		}
		return b.AppendTimeMicro(v)
	case *array.Timestamp:
		tt := x.DataType().(*arrow.TimestampType)
		v := x.Value(i)
		switch tt.Unit {
		case arrow.Second:
			v *= 1_000_000
		case arrow.Millisecond:
			v *= 1000
		}
		return b.AppendTimestamp(v, tt.Unit != arrow.Nanosecond, tt.TimeZone != "")
	case *array.Decimal128:
		return b.AppendDecimal16(uint8(x.DataType().(*arrow.Decimal128Type).Scale), decimal.Decimal128(x.Value(i)))
	}
	return &CastError{Value: "value", From: castTypeName(a.DataType()), To: "VARIANT"}
}
