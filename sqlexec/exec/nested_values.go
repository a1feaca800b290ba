package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// StructValue is the Go form of one struct value: its field values in
// the order of the struct type's fields (nil for a NULL field).
type StructValue struct {
	Fields []any
}

// NestedValueAt is ValueAt extended to nested arrays: a list row is an
// []any of its elements, a map row a MapValue and a struct row a
// StructValue, each element in the same (recursive) form. Other arrays
// read as ValueAt reads them.
func NestedValueAt(arr arrow.Array, i int) any {
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Map:
		start, end := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		m := MapValue{Keys: make([]any, end-start), Values: make([]any, end-start)}
		for j := start; j < end; j++ {
			m.Keys[j-start] = NestedValueAt(keys, int(j))
			m.Values[j-start] = NestedValueAt(items, int(j))
		}
		return m
	case *array.List:
		start, end := a.ValueOffsets(i)
		return listRow(a.ListValues(), start, end)
	case *array.LargeList:
		start, end := a.ValueOffsets(i)
		return listRow(a.ListValues(), start, end)
	case *array.Struct:
		s := StructValue{Fields: make([]any, a.NumField())}
		for f := range s.Fields {
			s.Fields[f] = NestedValueAt(a.Field(f), i)
		}
		return s
	}
	return ValueAt(arr, i)
}

func listRow(values arrow.Array, start, end int64) []any {
	out := make([]any, end-start)
	for j := start; j < end; j++ {
		out[j-start] = NestedValueAt(values, int(j))
	}
	return out
}

// AppendNested is AppendValue extended to the NestedValueAt forms: lists
// of any element type, maps with nested values and structs.
func AppendNested(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch bb := b.(type) {
	case *array.MapBuilder:
		m, ok := v.(MapValue)
		if !ok || len(m.Keys) != len(m.Values) {
			break
		}
		bb.Append(true)
		for i, k := range m.Keys {
			if k == nil {
				return fmt.Errorf("%w: NULL map key", ErrUnsupportedType)
			}
			if err := AppendNested(bb.KeyBuilder(), k); err != nil {
				return err
			}
			if err := AppendNested(bb.ItemBuilder(), m.Values[i]); err != nil {
				return err
			}
		}
		return nil
	case *array.ListBuilder:
		if x, ok := v.([]any); ok {
			bb.Append(true)
			return appendAll(bb.ValueBuilder(), x)
		}
	case *array.LargeListBuilder:
		if x, ok := v.([]any); ok {
			bb.Append(true)
			return appendAll(bb.ValueBuilder(), x)
		}
	case *array.StructBuilder:
		s, ok := v.(StructValue)
		if !ok || len(s.Fields) != bb.NumField() {
			break
		}
		bb.Append(true)
		for f, x := range s.Fields {
			if err := AppendNested(bb.FieldBuilder(f), x); err != nil {
				return err
			}
		}
		return nil
	default:
		return AppendValue(b, v)
	}
	return fmt.Errorf("%w: cannot append %T to %s builder", ErrUnsupportedType, v, b.Type())
}

func appendAll(b array.Builder, vals []any) error {
	for _, e := range vals {
		if err := AppendNested(b, e); err != nil {
			return err
		}
	}
	return nil
}

// MapNestedRows is MapRows over values in the NestedValueAt form: fn sees
// nested arguments as []any, MapValue and StructValue and may return them.
func MapNestedRows(ec *EvalContext, out arrow.DataType, n int, args []arrow.Array, fn func(vals []any) (any, error)) (arrow.Array, error) {
	return mapRowsWith(ec, out, n, args, fn, NestedValueAt, AppendNested)
}
