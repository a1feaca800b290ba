package exec

import (
	"bytes"
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg/arrowschema"
)

// ValueAt returns row i of arr as a Go value: nil for NULL, otherwise bool,
// int32, int64, float32, float64, string, []byte, arrow.Date32, arrow.Time64,
// arrow.Timestamp or decimal128.Num. It is the slow, general path; hot
// kernels read typed slices instead.
func ValueAt(arr arrow.Array, i int) any {
	if va, ok := arr.(*extensions.VariantArray); ok {
		// arrow-go's IsNull also holds for a variant null, which is a value
		if va.Storage().IsNull(i) {
			return nil
		}
		return variantAt(va, i)
	}
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return int32(a.Value(i))
	case *array.Int16:
		return int32(a.Value(i))
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Float32:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.Binary:
		return a.Value(i)
	case *array.FixedSizeBinary:
		return a.Value(i)
	case *array.Date32:
		return a.Value(i)
	case *array.Time64:
		return a.Value(i)
	case *array.Timestamp:
		return a.Value(i)
	case *array.Decimal128:
		return a.Value(i)
	case *array.Null:
		return nil
	case *extensions.VariantArray:
		return variantAt(a, i)
	case array.ExtensionArray: // a uuid: its 16 bytes
		return ValueAt(a.Storage(), i)
	}
	return fmt.Sprintf("<%s>", arr.DataType())
}

// AppendValue appends v (in the ValueAt form, or nil) to b.
func AppendValue(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	if vb, ok := b.(*extensions.VariantBuilder); ok {
		return appendVariant(vb, v)
	}
	switch bb := arrowschema.StorageBuilder(b).(type) { // a uuid fills its 16-byte storage
	case *array.BooleanBuilder:
		if x, ok := v.(bool); ok {
			bb.Append(x)
			return nil
		}
	case *array.Int32Builder:
		if x, ok := v.(int32); ok {
			bb.Append(x)
			return nil
		}
	case *array.Int64Builder:
		if x, ok := v.(int64); ok {
			bb.Append(x)
			return nil
		}
	case *array.Float32Builder:
		if x, ok := v.(float32); ok {
			bb.Append(x)
			return nil
		}
	case *array.Float64Builder:
		if x, ok := v.(float64); ok {
			bb.Append(x)
			return nil
		}
	case *array.StringBuilder:
		if x, ok := v.(string); ok {
			bb.Append(x)
			return nil
		}
	case *array.BinaryBuilder:
		if x, ok := v.([]byte); ok {
			bb.Append(x)
			return nil
		}
	case *array.FixedSizeBinaryBuilder:
		if x, ok := v.([]byte); ok && len(x) == bb.Type().(*arrow.FixedSizeBinaryType).ByteWidth {
			bb.Append(x)
			return nil
		}
	case *array.Date32Builder:
		if x, ok := v.(arrow.Date32); ok {
			bb.Append(x)
			return nil
		}
	case *array.Time64Builder:
		if x, ok := v.(arrow.Time64); ok {
			bb.Append(x)
			return nil
		}
	case *array.TimestampBuilder:
		if x, ok := v.(arrow.Timestamp); ok {
			bb.Append(x)
			return nil
		}
	case *array.Decimal128Builder:
		if x, ok := v.(decimal128.Num); ok {
			bb.Append(x)
			return nil
		}
	case *array.NullBuilder:
		bb.AppendNull()
		return nil
	case *array.MapBuilder:
		if x, ok := v.(MapValue); ok {
			return appendMap(bb, x)
		}
	case *array.ListBuilder:
		if x, ok := v.([]any); ok {
			bb.Append(true)
			for _, e := range x {
				if err := AppendValue(bb.ValueBuilder(), e); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return fmt.Errorf("%w: cannot append %T to %s builder", ErrUnsupportedType, v, b.Type())
}

// MapValue is the Go form of one map value for AppendValue: parallel
// keys and values (keys non-NULL and distinct).
type MapValue struct {
	Keys, Values []any
}

func appendMap(b *array.MapBuilder, m MapValue) error {
	if len(m.Keys) != len(m.Values) {
		return fmt.Errorf("%w: map with %d keys and %d values", ErrUnsupportedType, len(m.Keys), len(m.Values))
	}
	b.Append(true)
	for i, k := range m.Keys {
		if k == nil {
			return fmt.Errorf("%w: NULL map key", ErrUnsupportedType)
		}
		if err := AppendValue(b.KeyBuilder(), k); err != nil {
			return err
		}
		if err := AppendValue(b.ItemBuilder(), m.Values[i]); err != nil {
			return err
		}
	}
	return nil
}

// CompareValues orders two non-nil values of the same ValueAt form.
func CompareValues(a, b any) int {
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case int32:
		return cmp.Compare(x, b.(int32))
	case int64:
		return cmp.Compare(x, b.(int64))
	case float32:
		return cmp.Compare(x, b.(float32))
	case float64:
		return cmp.Compare(x, b.(float64))
	case string:
		return cmp.Compare(x, b.(string))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	case arrow.Date32:
		return cmp.Compare(x, b.(arrow.Date32))
	case arrow.Time64:
		return cmp.Compare(x, b.(arrow.Time64))
	case arrow.Timestamp:
		return cmp.Compare(x, b.(arrow.Timestamp))
	case decimal128.Num:
		return x.Cmp(b.(decimal128.Num))
	}
	return 0
}

// ConstantArray builds an array of n copies of v (nil gives all NULLs).
func ConstantArray(ec *EvalContext, dt arrow.DataType, v any, n int) (arrow.Array, error) {
	if v == nil {
		return array.MakeArrayOfNull(ec.Mem, dt, n), nil
	}
	b := array.NewBuilder(ec.Mem, dt)
	defer b.Release()
	if fw, ok := dt.(arrow.FixedWidthDataType); ok && fw.BitWidth()%8 == 0 && n > 1 && dt.ID() != arrow.EXTENSION && dt.ID() != arrow.DICTIONARY {
		// One value appended and converted once, then its bytes repeated:
		// a literal compared with every row of a batch is built per batch.
		if err := AppendValue(b, v); err != nil {
			return nil, err
		}
		one := b.NewArray()
		defer one.Release()
		return repeatFixed(ec, one, fw.BitWidth()/8, n), nil
	}
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if err := AppendValue(b, v); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

// repeatFixed is n copies of the single non-null value of one, a
// fixed-width array of width-byte values.
func repeatFixed(ec *EvalContext, one arrow.Array, width, n int) arrow.Array {
	d := one.Data()
	src := d.Buffers()[1].Bytes()[d.Offset()*width : (d.Offset()+1)*width]
	buf := memory.NewResizableBuffer(ec.Mem)
	buf.Resize(n * width)
	out := buf.Bytes()
	copy(out, src)
	for filled := width; filled < len(out); filled *= 2 {
		copy(out[filled:], out[:filled])
	}
	data := array.NewData(one.DataType(), n, []*memory.Buffer{nil, buf}, nil, 0, 0)
	buf.Release()
	defer data.Release()
	return array.MakeFromData(data)
}
