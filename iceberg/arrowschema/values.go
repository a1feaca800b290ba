package arrowschema

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
)

// ValueAt returns element i of a primitive Arrow array in the Iceberg Go
// value form (nil for null), interpreted as Iceberg type t.
func ValueAt(arr arrow.Array, i int, t iceberg.Type) (any, error) {
	if arr.IsNull(i) {
		return nil, nil
	}
	switch a := Storage(arr).(type) {
	case *array.Boolean:
		return a.Value(i), nil
	case *array.Int32:
		if _, ok := t.(iceberg.LongType); ok {
			return int64(a.Value(i)), nil
		}
		return a.Value(i), nil
	case *array.Int64:
		return a.Value(i), nil
	case *array.Float32:
		if _, ok := t.(iceberg.DoubleType); ok {
			return float64(a.Value(i)), nil
		}
		return a.Value(i), nil
	case *array.Float64:
		return a.Value(i), nil
	case *array.Decimal128:
		dt := a.DataType().(*arrow.Decimal128Type)
		return iceberg.Decimal{Unscaled: a.Value(i), Scale: int(dt.Scale)}, nil
	case *array.Date32:
		return iceberg.Date(a.Value(i)), nil
	case *array.Time64:
		return iceberg.Time(a.Value(i)), nil
	case *array.Timestamp:
		if a.DataType().(*arrow.TimestampType).Unit == arrow.Nanosecond {
			return iceberg.TimestampNano(a.Value(i)), nil
		}
		return iceberg.Timestamp(a.Value(i)), nil
	case *array.String:
		return a.Value(i), nil
	case *array.LargeString:
		return a.Value(i), nil
	case *array.StringView:
		return a.Value(i), nil
	case *array.Binary:
		return append([]byte(nil), a.Value(i)...), nil
	case *array.LargeBinary:
		return append([]byte(nil), a.Value(i)...), nil
	case *array.FixedSizeBinary:
		if _, ok := t.(iceberg.UUIDType); ok {
			var u iceberg.UUID
			copy(u[:], a.Value(i))
			return u, nil
		}
		return append([]byte(nil), a.Value(i)...), nil
	}
	return nil, fmt.Errorf("%w: no Go value form for %v", ErrUnsupportedType, arr.DataType())
}

// AppendValue appends an Iceberg Go value (nil for null) to a builder of the
// type TypeToArrow gives for the value's Iceberg type.
func AppendValue(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	mismatch := fmt.Errorf("%w: Go value %T for arrow %v", iceberg.ErrTypeMismatch, v, b.Type())
	switch b := StorageBuilder(b).(type) {
	case *array.BooleanBuilder:
		return appendAs(b.Append, v, mismatch)
	case *array.Int32Builder:
		return appendAs(b.Append, v, mismatch)
	case *array.Int64Builder:
		if x, ok := v.(int32); ok {
			v = int64(x)
		}
		return appendAs(b.Append, v, mismatch)
	case *array.Float32Builder:
		return appendAs(b.Append, v, mismatch)
	case *array.Float64Builder:
		if x, ok := v.(float32); ok {
			v = float64(x)
		}
		return appendAs(b.Append, v, mismatch)
	case *array.Decimal128Builder:
		return appendAs(func(x iceberg.Decimal) { b.Append(x.Unscaled) }, v, mismatch)
	case *array.Date32Builder:
		return appendAs(func(x iceberg.Date) { b.Append(arrow.Date32(x)) }, v, mismatch)
	case *array.Time64Builder:
		return appendAs(func(x iceberg.Time) { b.Append(arrow.Time64(x)) }, v, mismatch)
	case *array.TimestampBuilder:
		if b.Type().(*arrow.TimestampType).Unit == arrow.Nanosecond {
			return appendAs(func(x iceberg.TimestampNano) { b.Append(arrow.Timestamp(x)) }, v, mismatch)
		}
		return appendAs(func(x iceberg.Timestamp) { b.Append(arrow.Timestamp(x)) }, v, mismatch)
	case *array.StringBuilder:
		return appendAs(b.Append, v, mismatch)
	case *array.BinaryBuilder:
		return appendAs(b.Append, v, mismatch)
	case *array.FixedSizeBinaryBuilder:
		if u, ok := v.(iceberg.UUID); ok {
			v = u[:]
		}
		x, ok := v.([]byte)
		if !ok || len(x) != b.Type().(*arrow.FixedSizeBinaryType).ByteWidth {
			return mismatch
		}
		b.Append(x)
		return nil
	}
	return fmt.Errorf("%w: cannot append to %v builder", ErrUnsupportedType, b.Type())
}

func appendAs[T any](appendFn func(T), v any, mismatch error) error {
	x, ok := v.(T)
	if !ok {
		return mismatch
	}
	appendFn(x)
	return nil
}
