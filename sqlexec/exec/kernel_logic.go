package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg/arrowschema"
)

// And is SQL's three-valued AND: FALSE wins over NULL.
func And(ec *EvalContext, a, b arrow.Array) arrow.Array {
	x, y := a.(*array.Boolean), b.(*array.Boolean)
	bld := array.NewBooleanBuilder(ec.Mem)
	defer bld.Release()
	n := x.Len()
	bld.Reserve(n)
	for i := 0; i < n; i++ {
		xn, yn := x.IsNull(i), y.IsNull(i)
		xf := !xn && !x.Value(i)
		yf := !yn && !y.Value(i)
		switch {
		case xf || yf:
			bld.UnsafeAppend(false)
		case xn || yn:
			bld.UnsafeAppendBoolToBitmap(false)
		default:
			bld.UnsafeAppend(true)
		}
	}
	return bld.NewArray()
}

// Or is SQL's three-valued OR: TRUE wins over NULL.
func Or(ec *EvalContext, a, b arrow.Array) arrow.Array {
	x, y := a.(*array.Boolean), b.(*array.Boolean)
	bld := array.NewBooleanBuilder(ec.Mem)
	defer bld.Release()
	n := x.Len()
	bld.Reserve(n)
	for i := 0; i < n; i++ {
		xn, yn := x.IsNull(i), y.IsNull(i)
		xt := !xn && x.Value(i)
		yt := !yn && y.Value(i)
		switch {
		case xt || yt:
			bld.UnsafeAppend(true)
		case xn || yn:
			bld.UnsafeAppendBoolToBitmap(false)
		default:
			bld.UnsafeAppend(false)
		}
	}
	return bld.NewArray()
}

// Not negates; NULL stays NULL.
func Not(ec *EvalContext, a arrow.Array) arrow.Array {
	x := a.(*array.Boolean)
	bld := array.NewBooleanBuilder(ec.Mem)
	defer bld.Release()
	n := x.Len()
	bld.Reserve(n)
	for i := 0; i < n; i++ {
		if x.IsNull(i) {
			bld.UnsafeAppendBoolToBitmap(false)
			continue
		}
		bld.UnsafeAppend(!x.Value(i))
	}
	return bld.NewArray()
}

// IsNull reports, never NULL, whether each row is NULL (negate for IS NOT NULL).
func IsNull(ec *EvalContext, a arrow.Array, negate bool) arrow.Array {
	bld := array.NewBooleanBuilder(ec.Mem)
	defer bld.Release()
	n := a.Len()
	bld.Reserve(n)
	if a.DataType().ID() == arrow.NULL {
		// an Arrow null array has no validity bitmap, so IsNull reports
		// false for its rows; every one of them is null
		for i := 0; i < n; i++ {
			bld.UnsafeAppend(!negate)
		}
		return bld.NewArray()
	}
	if IsVariant(a.DataType()) {
		// a variant null is a value, not SQL NULL
		a = arrowschema.Storage(a)
	}
	for i := 0; i < n; i++ {
		bld.UnsafeAppend(a.IsNull(i) != negate)
	}
	return bld.NewArray()
}

// TruthMask reports for each row whether a boolean array is TRUE (not NULL).
func TruthMask(a arrow.Array) []bool {
	x := a.(*array.Boolean)
	out := make([]bool, x.Len())
	for i := range out {
		out[i] = x.IsValid(i) && x.Value(i)
	}
	return out
}

// MapRows is the general row-at-a-time kernel: fn receives each row's
// argument values (nil for NULL) and returns the result value or nil.
func MapRows(ec *EvalContext, out arrow.DataType, n int, args []arrow.Array, fn func(vals []any) (any, error)) (arrow.Array, error) {
	return mapRowsWith(ec, out, n, args, fn, ValueAt, AppendValue)
}

// mapRowsWith is MapRows with the reading and appending of values given,
// so the flat and nested value forms share one loop.
func mapRowsWith(ec *EvalContext, out arrow.DataType, n int, args []arrow.Array, fn func(vals []any) (any, error),
	read func(arrow.Array, int) any, write func(array.Builder, any) error) (arrow.Array, error) {
	bld := array.NewBuilder(ec.Mem, out)
	defer bld.Release()
	bld.Reserve(n)
	vals := make([]any, len(args))
	for i := 0; i < n; i++ {
		for j, a := range args {
			vals[j] = read(a, i)
		}
		v, err := fn(vals)
		if err != nil {
			return nil, err
		}
		if err := write(bld, v); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}
