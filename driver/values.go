package driver

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// engineValue accepts the Iceberg value types the engine binds as they are.
func engineValue(v any) (any, bool) {
	switch v.(type) {
	case time.Time, iceberg.Decimal, iceberg.UUID, iceberg.Date, iceberg.Timestamp, iceberg.TimestampNano:
		return v, true
	}
	return nil, false
}

// goValue converts element i of a column to the value database/sql sees:
// bool, int32, int64, float32, float64, string, []byte, time.Time (UTC),
// decimals and uuids as strings and nested values as JSON text.
func goValue(a arrow.Array, i int) (any, error) {
	if va, ok := a.(*extensions.VariantArray); ok {
		return variantText(va, i)
	}
	if a.IsNull(i) {
		return nil, nil
	}
	if g, ok := a.(*arrowschema.GeoArray); ok {
		return geoText(g, i)
	}
	switch x := a.(type) {
	case *array.Boolean:
		return x.Value(i), nil
	case *array.Int8:
		return int32(x.Value(i)), nil
	case *array.Int16:
		return int32(x.Value(i)), nil
	case *array.Int32:
		return x.Value(i), nil
	case *array.Int64:
		return x.Value(i), nil
	case *array.Float32:
		return x.Value(i), nil
	case *array.Float64:
		return x.Value(i), nil
	case *array.String:
		return x.Value(i), nil
	case *array.LargeString:
		return x.Value(i), nil
	case *array.Binary:
		return append([]byte(nil), x.Value(i)...), nil
	case *array.LargeBinary:
		return append([]byte(nil), x.Value(i)...), nil
	case *array.FixedSizeBinary:
		return append([]byte(nil), x.Value(i)...), nil
	case array.ExtensionArray:
		// Iceberg's uuid (the only extension type the engine makes):
		// canonical text, at the top level and inside nested values
		if b, ok := x.Storage().(*array.FixedSizeBinary); ok && arrowschema.IsUUID(x.DataType()) && len(b.Value(i)) == 16 {
			return iceberg.FormatUUID(iceberg.UUID(b.Value(i))), nil
		}
	case *array.Date32:
		return time.Unix(int64(x.Value(i))*86400, 0).UTC(), nil
	case *array.Timestamp:
		return timestampValue(x, i), nil
	case *array.Time64:
		us := int64(x.Value(i))
		if x.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
			us /= 1000
		}
		return time.UnixMicro(us).UTC().Format("15:04:05.999999"), nil
	case *array.Decimal128:
		dt := x.DataType().(*arrow.Decimal128Type)
		return iceberg.Decimal{Unscaled: x.Value(i), Scale: int(dt.Scale)}.String(), nil
	case *array.List, *array.LargeList, *array.Map, *array.Struct:
		v, err := jsonValue(a, i)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		return string(b), nil
	case *array.Null:
		return nil, nil
	}
	return nil, fmt.Errorf("iceberg driver: cannot convert column type %s", a.DataType())
}

// geoText is a geometry or geography as WKT (ST_AsBinary gives the WKB).
func geoText(a *arrowschema.GeoArray, i int) (any, error) {
	g, err := iceberg.ParseWKB(a.Value(i))
	if err != nil {
		return nil, fmt.Errorf("iceberg driver: geometry in row %d: %w", i, err)
	}
	return g.WKT(), nil
}

// variantText is a variant as JSON text, as to_json renders it: a SQL
// NULL is nil, a variant null the text null (arrow-go's IsNull counts
// both as null, so the storage decides).
func variantText(a *extensions.VariantArray, i int) (any, error) {
	if a.Storage().IsNull(i) {
		return nil, nil
	}
	v, err := a.Value(i)
	if err != nil {
		return nil, fmt.Errorf("iceberg driver: variant in row %d: %w", i, err)
	}
	b, err := v.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("iceberg driver: variant in row %d: %w", i, err)
	}
	return string(b), nil
}

func timestampValue(x *array.Timestamp, i int) time.Time {
	v := int64(x.Value(i))
	switch x.DataType().(*arrow.TimestampType).Unit {
	case arrow.Second:
		return time.Unix(v, 0).UTC()
	case arrow.Millisecond:
		return time.UnixMilli(v).UTC()
	case arrow.Nanosecond:
		return time.Unix(0, v).UTC()
	}
	return time.UnixMicro(v).UTC()
}

// jsonValue builds the JSON form of a nested value: lists as arrays,
// structs as objects, maps as objects keyed by the key's text.
func jsonValue(a arrow.Array, i int) (any, error) {
	if a.IsNull(i) {
		return nil, nil
	}
	switch x := a.(type) {
	case *array.Map:
		start, end := x.ValueOffsets(i)
		keys, items := x.Keys(), x.Items()
		obj := make(orderedObject, 0, end-start)
		for j := int(start); j < int(end); j++ {
			k, err := jsonValue(keys, j)
			if err != nil {
				return nil, err
			}
			v, err := jsonValue(items, j)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{fmt.Sprint(k), v})
		}
		return obj, nil
	case array.ListLike: // list, large list (maps are handled above)
		start, end := x.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for j := int(start); j < int(end); j++ {
			v, err := jsonValue(x.ListValues(), j)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case *array.Struct:
		st := x.DataType().(*arrow.StructType)
		obj := make(orderedObject, 0, x.NumField())
		for f := 0; f < x.NumField(); f++ {
			v, err := jsonValue(x.Field(f), i)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{st.Field(f).Name, v})
		}
		return obj, nil
	case *array.Binary:
		return x.Value(i), nil // encoding/json writes []byte as base64
	case *array.Date32:
		return time.Unix(int64(x.Value(i))*86400, 0).UTC().Format("2006-01-02"), nil
	}
	v, err := goValue(a, i)
	switch x := v.(type) {
	case time.Time:
		return x.Format(time.RFC3339Nano), err
	case float64:
		return jsonFloat(x), err
	case float32:
		return jsonFloat(float64(x)), err
	}
	return v, err
}

// jsonFloat is a float for JSON, which has no NaN or infinities: those
// become the strings "NaN", "Infinity" and "-Infinity", as Spark's
// to_json writes them.
func jsonFloat(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}

// orderedObject is a JSON object written in its members' order: struct
// fields as declared, map entries as stored (encoding/json would sort
// the keys of a Go map).
type orderedObject []member

type member struct {
	key   string
	value any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}
