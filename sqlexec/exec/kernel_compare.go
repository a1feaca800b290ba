package exec

import (
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// CmpOp is a comparison operator.
type CmpOp int

// Comparison operators.
const (
	CmpEQ CmpOp = iota
	CmpNE
	CmpLT
	CmpLE
	CmpGT
	CmpGE
)

var cmpOpNames = [...]string{"=", "<>", "<", "<=", ">", ">="}

func (op CmpOp) String() string { return cmpOpNames[op] }

// Holds reports whether a comparison result c (-1, 0, 1) satisfies op.
func (op CmpOp) Holds(c int) bool {
	switch op {
	case CmpEQ:
		return c == 0
	case CmpNE:
		return c != 0
	case CmpLT:
		return c < 0
	case CmpLE:
		return c <= 0
	case CmpGT:
		return c > 0
	}
	return c >= 0
}

// Compare evaluates a op b row by row; both arrays have the same type and
// length. NULL on either side gives NULL.
func Compare(ec *EvalContext, op CmpOp, a, b arrow.Array) (arrow.Array, error) {
	if !arrow.TypeEqual(a.DataType(), b.DataType()) {
		return nil, fmt.Errorf("%w: compare %s with %s", ErrUnsupportedType, a.DataType(), b.DataType())
	}
	switch x := a.(type) {
	case *array.Int32:
		return compareSlices(ec, op, a, b, x.Int32Values(), b.(*array.Int32).Int32Values()), nil
	case *array.Int64:
		return compareSlices(ec, op, a, b, x.Int64Values(), b.(*array.Int64).Int64Values()), nil
	case *array.Float32:
		return compareSlices(ec, op, a, b, x.Float32Values(), b.(*array.Float32).Float32Values()), nil
	case *array.Float64:
		return compareSlices(ec, op, a, b, x.Float64Values(), b.(*array.Float64).Float64Values()), nil
	case *array.Date32:
		return compareSlices(ec, op, a, b, x.Date32Values(), b.(*array.Date32).Date32Values()), nil
	case *array.Timestamp:
		return compareSlices(ec, op, a, b, x.TimestampValues(), b.(*array.Timestamp).TimestampValues()), nil
	case *array.Decimal128:
		y := b.(*array.Decimal128)
		return compareFunc(ec, op, a, b, func(i int) int { return x.Value(i).Cmp(y.Value(i)) }), nil
	case *array.String:
		y := b.(*array.String)
		return compareFunc(ec, op, a, b, func(i int) int { return cmp.Compare(x.Value(i), y.Value(i)) }), nil
	}
	return compareFunc(ec, op, a, b, func(i int) int { return CompareValues(ValueAt(a, i), ValueAt(b, i)) }), nil
}

func compareSlices[T cmp.Ordered](ec *EvalContext, op CmpOp, a, b arrow.Array, x, y []T) arrow.Array {
	bld := array.NewBooleanBuilder(ec.Mem)
	defer bld.Release()
	n := len(x)
	bld.Reserve(n)
	nulls := a.NullN() > 0 || b.NullN() > 0
	for i := 0; i < n; i++ {
		if nulls && (a.IsNull(i) || b.IsNull(i)) {
			bld.UnsafeAppendBoolToBitmap(false)
			continue
		}
		var r bool
		switch op {
		case CmpEQ:
			r = x[i] == y[i]
		case CmpNE:
			r = x[i] != y[i]
		case CmpLT:
			r = x[i] < y[i]
		case CmpLE:
			r = x[i] <= y[i]
		case CmpGT:
			r = x[i] > y[i]
		default:
			r = x[i] >= y[i]
		}
		bld.UnsafeAppend(r)
	}
	return bld.NewArray()
}

func compareFunc(ec *EvalContext, op CmpOp, a, b arrow.Array, c func(i int) int) arrow.Array {
	bld := array.NewBooleanBuilder(ec.Mem)
	defer bld.Release()
	n := a.Len()
	bld.Reserve(n)
	for i := 0; i < n; i++ {
		if a.IsNull(i) || b.IsNull(i) {
			bld.UnsafeAppendBoolToBitmap(false)
			continue
		}
		bld.UnsafeAppend(op.Holds(c(i)))
	}
	return bld.NewArray()
}
