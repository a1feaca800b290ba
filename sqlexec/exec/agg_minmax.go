package exec

import (
	"cmp"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// newMinMax picks a typed min/max accumulator for fixed-width ordered
// types, the boxed one otherwise.
func newMinMax(t arrow.DataType, isMax bool) accumulator {
	switch t.ID() {
	case arrow.INT32:
		return &minMaxTyped[int32]{max: isMax, values: func(a arrow.Array) []int32 { return a.(*array.Int32).Int32Values() },
			emit: func(b array.Builder, v []int32, ok []bool) { b.(*array.Int32Builder).AppendValues(v, ok) }}
	case arrow.INT64:
		return &minMaxTyped[int64]{max: isMax, values: func(a arrow.Array) []int64 { return a.(*array.Int64).Int64Values() },
			emit: func(b array.Builder, v []int64, ok []bool) { b.(*array.Int64Builder).AppendValues(v, ok) }}
	case arrow.FLOAT64:
		return &minMaxTyped[float64]{max: isMax, values: func(a arrow.Array) []float64 { return a.(*array.Float64).Float64Values() },
			emit: func(b array.Builder, v []float64, ok []bool) { b.(*array.Float64Builder).AppendValues(v, ok) }}
	case arrow.DATE32:
		return &minMaxTyped[arrow.Date32]{max: isMax, values: func(a arrow.Array) []arrow.Date32 { return a.(*array.Date32).Date32Values() },
			emit: func(b array.Builder, v []arrow.Date32, ok []bool) { b.(*array.Date32Builder).AppendValues(v, ok) }}
	case arrow.TIMESTAMP:
		return &minMaxTyped[arrow.Timestamp]{max: isMax, values: func(a arrow.Array) []arrow.Timestamp { return a.(*array.Timestamp).TimestampValues() },
			emit: func(b array.Builder, v []arrow.Timestamp, ok []bool) { b.(*array.TimestampBuilder).AppendValues(v, ok) }}
	}
	return &minMaxAcc{max: isMax}
}

// minMaxTyped keeps min or max per group in a typed slice.
type minMaxTyped[T cmp.Ordered] struct {
	max    bool
	v      []T
	ok     []bool
	values func(arrow.Array) []T
	emit   func(array.Builder, []T, []bool)
}

func (a *minMaxTyped[T]) grow(g int) {
	a.v = append(a.v, make([]T, g-len(a.v))...)
	a.ok = append(a.ok, make([]bool, g-len(a.ok))...)
}

func (a *minMaxTyped[T]) update(arg arrow.Array, groups []int32) error {
	vals := a.values(arg)
	nulls := arg.NullN() > 0
	for i, g := range groups {
		if nulls && arg.IsNull(i) {
			continue
		}
		a.put(g, vals[i])
	}
	return nil
}

func (a *minMaxTyped[T]) put(g int32, x T) {
	if !a.ok[g] {
		a.v[g], a.ok[g] = x, true
		return
	}
	c := cmp.Compare(x, a.v[g])
	if (a.max && c > 0) || (!a.max && c < 0) {
		a.v[g] = x
	}
}

func (a *minMaxTyped[T]) build(b array.Builder) error {
	a.emit(b, a.v, a.ok)
	return nil
}

func (a *minMaxTyped[T]) merge(other accumulator, mapping []int32) error {
	o := other.(*minMaxTyped[T])
	for g, to := range mapping {
		if o.ok[g] && to >= 0 {
			a.put(to, o.v[g])
		}
	}
	return nil
}
