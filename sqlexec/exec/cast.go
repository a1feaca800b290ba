package exec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// Cast converts every row of a to type to. Numeric widening is exact;
// narrowing checks range; strings parse with the rules of CastValue.
func Cast(ec *EvalContext, a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	if arrow.TypeEqual(a.DataType(), to) {
		a.Retain()
		return a, nil
	}
	if a.DataType().ID() == arrow.NULL {
		// an untyped NULL becomes NULL of any type, nested ones included
		return array.MakeArrayOfNull(ec.Mem, to, a.Len()), nil
	}
	if out, ok, err := castNested(ec, a, to); ok {
		return out, err
	}
	if IsVariant(to) {
		return castToVariant(ec, a, to)
	}
	if IsVariant(a.DataType()) {
		if to.ID() == arrow.STRING {
			return VariantToJSON(ec, a)
		}
		return nil, &CastError{Value: "variant", From: "VARIANT", To: castTypeName(to)}
	}
	if ft, ok := a.DataType().(*arrow.TimestampType); ok {
		if tt, ok := to.(*arrow.TimestampType); ok && ft.Unit == tt.Unit {
			// only the zone label differs: the stored instants are the same
			d := array.NewData(to, a.Len(), a.Data().Buffers(), nil, a.NullN(), a.Data().Offset())
			defer d.Release()
			return array.MakeFromData(d), nil
		} else if ok {
			return castTimestampUnit(ec, a.(*array.Timestamp), tt)
		}
	}
	if x, ok := a.(*array.Int32); ok && to.ID() == arrow.INT64 {
		bld := array.NewInt64Builder(ec.Mem)
		defer bld.Release()
		bld.Reserve(x.Len())
		for i, v := range x.Int32Values() {
			if x.IsNull(i) {
				bld.UnsafeAppendBoolToBitmap(false)
			} else {
				bld.UnsafeAppend(int64(v))
			}
		}
		return bld.NewArray(), nil
	}
	from := a.DataType()
	return MapRows(ec, to, a.Len(), []arrow.Array{a}, func(v []any) (any, error) {
		return CastValue(v[0], from, to)
	})
}

// CastValue converts one value (ValueAt form) of type from to type to.
func CastValue(v any, from, to arrow.DataType) (any, error) {
	if v == nil {
		return nil, nil
	}
	fail := func() (any, error) {
		return nil, &CastError{Value: FormatValue(v, from), From: castTypeName(from), To: castTypeName(to)}
	}
	if s, ok := v.(string); ok && to.ID() != arrow.STRING {
		return parseValue(strings.TrimSpace(s), from, to)
	}
	switch to.ID() {
	case arrow.STRING:
		return FormatValue(v, from), nil
	case arrow.FIXED_SIZE_BINARY:
		if b, ok := v.([]byte); ok && len(b) == to.(*arrow.FixedSizeBinaryType).ByteWidth {
			return b, nil
		}
		return fail()
	case arrow.EXTENSION:
		// a uuid takes any 16 bytes (a uuid, fixed[16] or binary value)
		if b, ok := v.([]byte); ok && len(b) == 16 && arrowschema.IsUUID(to) {
			return b, nil
		}
		return fail()
	case arrow.BINARY:
		if s, ok := v.(string); ok {
			return []byte(s), nil
		}
		if b, ok := v.([]byte); ok {
			return b, nil
		}
		return fail()
	case arrow.BOOL:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int32:
			return x != 0, nil
		case int64:
			return x != 0, nil
		}
		return fail()
	case arrow.INT32, arrow.INT64:
		var i int64
		switch x := v.(type) {
		case bool:
			if x {
				i = 1
			}
		case int32:
			i = int64(x)
		case int64:
			i = x
		case float32, float64:
			f := toFloat(x)
			if math.IsNaN(f) || f >= 9.223372036854775807e18 || f < -9.223372036854775808e18 {
				return fail()
			}
			i = int64(f) // truncation toward zero, as Spark and Java do
		case decimal128.Num:
			f := x.ToFloat64(int32(from.(*arrow.Decimal128Type).Scale))
			i = int64(f)
		default:
			return fail()
		}
		if to.ID() == arrow.INT32 {
			if i < math.MinInt32 || i > math.MaxInt32 {
				return fail()
			}
			return int32(i), nil
		}
		return i, nil
	case arrow.FLOAT32, arrow.FLOAT64:
		var f float64
		switch x := v.(type) {
		case bool:
			if x {
				f = 1
			}
		case int32, int64, float32, float64:
			f = toFloat(x)
		case decimal128.Num:
			f = x.ToFloat64(int32(from.(*arrow.Decimal128Type).Scale))
		default:
			return fail()
		}
		if to.ID() == arrow.FLOAT32 {
			return float32(f), nil
		}
		return f, nil
	case arrow.DECIMAL128:
		dt := to.(*arrow.Decimal128Type)
		var n decimal128.Num
		var err error
		switch x := v.(type) {
		case int32, int64:
			i, _ := x.(int64)
			if j, ok := x.(int32); ok {
				i = int64(j)
			}
			n, err = decimal128.FromI64(i).Rescale(0, dt.Scale)
			if err == nil && !n.FitsInPrecision(dt.Precision) {
				return fail()
			}
		case float32, float64:
			n, err = decimal128.FromFloat64(toFloat(x), dt.Precision, dt.Scale)
		case decimal128.Num:
			fs := from.(*arrow.Decimal128Type).Scale
			r := rescaleBig(x.BigInt(), fs, dt.Scale)
			n = decimal128.FromBigInt(r)
			if r.BitLen() > 127 || !n.FitsInPrecision(dt.Precision) {
				return fail()
			}
		default:
			return fail()
		}
		if err != nil {
			return fail()
		}
		return n, nil
	case arrow.DATE32:
		switch x := v.(type) {
		case arrow.Date32:
			return x, nil
		case arrow.Timestamp:
			return arrow.Date32FromTime(x.ToTime(timestampUnit(from))), nil
		}
		return fail()
	case arrow.TIMESTAMP:
		switch x := v.(type) {
		case arrow.Timestamp:
			if out, ok := rescaleTimestamp(x, timestampUnit(from), timestampUnit(to)); ok {
				return out, nil
			}
		case arrow.Date32:
			if out, ok := rescaleTimestamp(arrow.Timestamp(int64(x)*86400), arrow.Second, timestampUnit(to)); ok {
				return out, nil
			}
		}
		return fail()
	case arrow.TIME64:
		if x, ok := v.(arrow.Time64); ok {
			return x, nil
		}
		return fail()
	}
	return fail()
}

// castTypeName names a type in cast errors in SQL spelling (Arrow would
// say utf8, date32 or extension<arrow.uuid>).
func castTypeName(t arrow.DataType) string {
	if t.ID() == arrow.NULL {
		return "UNKNOWN (only NULL)"
	}
	return arrowschema.SQLName(t)
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int32:
		return float64(x)
	case int64:
		return float64(x)
	case float32:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

func isTimestampText(s string) bool {
	for _, l := range timestampLayouts {
		if _, err := time.Parse(l, s); err == nil {
			return true
		}
	}
	return false
}

var timestampLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02",
}

func parseValue(s string, from, to arrow.DataType) (any, error) {
	fail := func() (any, error) {
		return nil, &CastError{Value: s, From: castTypeName(from), To: castTypeName(to)}
	}
	switch to.ID() {
	case arrow.BOOL:
		switch strings.ToLower(s) {
		case "true", "t", "1", "yes", "y":
			return true, nil
		case "false", "f", "0", "no", "n":
			return false, nil
		}
		return fail()
	case arrow.INT32:
		i, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return fail()
		}
		return int32(i), nil
	case arrow.INT64:
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fail()
		}
		return i, nil
	case arrow.FLOAT32, arrow.FLOAT64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fail()
		}
		if to.ID() == arrow.FLOAT32 {
			return float32(f), nil
		}
		return f, nil
	case arrow.DECIMAL128:
		dt := to.(*arrow.Decimal128Type)
		n, err := decimal128.FromString(s, dt.Precision, dt.Scale)
		if err != nil {
			return fail()
		}
		return n, nil
	case arrow.DATE32:
		t, err := time.Parse("2006-01-02", s)
		if err != nil && len(s) > 10 && (s[10] == ' ' || s[10] == 'T') && isTimestampText(s) {
			// As Spark: a timestamp's text casts to its date as written
			// (a Go time.Time argument arrives as such text).
			t, err = time.Parse("2006-01-02", s[:10])
		}
		if err != nil {
			return fail()
		}
		return arrow.Date32FromTime(t), nil
	case arrow.TIMESTAMP:
		for _, l := range timestampLayouts {
			if t, err := time.Parse(l, s); err == nil {
				if timestampUnit(to) == arrow.Nanosecond {
					// UnixNano is undefined outside 1677..2262
					if t.Before(minNanoTime) || t.After(maxNanoTime) {
						return fail()
					}
					return arrow.Timestamp(t.UnixNano()), nil
				}
				return arrow.Timestamp(t.UnixMicro()), nil
			}
		}
		return fail()
	case arrow.TIME64:
		t, err := time.Parse("15:04:05.999999", s)
		if err != nil {
			return fail()
		}
		us := int64(t.Hour())*3600e6 + int64(t.Minute())*60e6 + int64(t.Second())*1e6 + int64(t.Nanosecond()/1000)
		return arrow.Time64(us), nil
	case arrow.BINARY:
		return []byte(s), nil
	case arrow.FIXED_SIZE_BINARY:
		// fixed[n] takes text of exactly n bytes
		if len(s) != to.(*arrow.FixedSizeBinaryType).ByteWidth {
			return fail()
		}
		return []byte(s), nil
	case arrow.EXTENSION:
		if !arrowschema.IsUUID(to) {
			return fail()
		}
		u, err := iceberg.ParseUUID(s)
		if err != nil {
			return fail()
		}
		return u[:], nil
	}
	return fail()
}

// FormatValue renders a value as text: the form used for CAST to STRING and
// for result display. Floats use the shortest representation that
// round-trips, with 'g' switching to exponent form for very large or small.
func FormatValue(v any, dt arrow.DataType) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		return strconv.FormatBool(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case float32:
		return formatFloat(float64(x), 32)
	case float64:
		return formatFloat(x, 64)
	case string:
		return x
	case []byte:
		if arrowschema.IsUUID(dt) && len(x) == 16 {
			// a uuid: canonical text, as Spark prints it
			return iceberg.FormatUUID(iceberg.UUID(x))
		}
		return string(x)
	case arrow.Date32:
		return x.FormattedString()
	case arrow.Time64:
		return x.ToTime(arrow.Microsecond).Format("15:04:05.999999")
	case arrow.Timestamp:
		if timestampUnit(dt) == arrow.Nanosecond {
			return x.ToTime(arrow.Nanosecond).UTC().Format("2006-01-02 15:04:05.999999999")
		}
		return x.ToTime(arrow.Microsecond).UTC().Format("2006-01-02 15:04:05.999999")
	case decimal128.Num:
		scale := int32(0)
		if d, ok := dt.(*arrow.Decimal128Type); ok {
			scale = d.Scale
		}
		return x.ToString(scale)
	}
	return fmt.Sprint(v)
}

func formatFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}
