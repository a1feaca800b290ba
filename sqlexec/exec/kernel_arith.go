package exec

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ArithOp is an arithmetic operator.
type ArithOp int

// Arithmetic operators. Div on integers truncates (SQL DIV); the binder
// casts operands of "/" to DOUBLE first.
const (
	ArithAdd ArithOp = iota
	ArithSub
	ArithMul
	ArithDiv
	ArithMod
)

var arithNames = [...]string{"+", "-", "*", "/", "%"}

func (op ArithOp) String() string { return arithNames[op] }

// Arith evaluates a op b over two int64 or two float64 arrays. Division or
// modulo by zero gives NULL; integer overflow is an error.
func Arith(ec *EvalContext, op ArithOp, a, b arrow.Array) (arrow.Array, error) {
	switch x := a.(type) {
	case *array.Int64:
		y, ok := b.(*array.Int64)
		if !ok {
			break
		}
		return arithInt(ec, op, x, y)
	case *array.Float64:
		y, ok := b.(*array.Float64)
		if !ok {
			break
		}
		return arithFloat(ec, op, x, y), nil
	}
	return nil, &TypeError{Op: "arithmetic " + op.String(), Type: a.DataType().String() + ", " + b.DataType().String()}
}

func arithInt(ec *EvalContext, op ArithOp, a, b *array.Int64) (arrow.Array, error) {
	x, y := a.Int64Values(), b.Int64Values()
	bld := array.NewInt64Builder(ec.Mem)
	defer bld.Release()
	bld.Reserve(len(x))
	for i := range x {
		if a.IsNull(i) || b.IsNull(i) {
			bld.UnsafeAppendBoolToBitmap(false)
			continue
		}
		p, q := x[i], y[i]
		var r int64
		switch op {
		case ArithAdd:
			r = p + q
			if (r > p) != (q > 0) {
				return nil, ErrOverflow
			}
		case ArithSub:
			r = p - q
			if (r < p) != (q > 0) {
				return nil, ErrOverflow
			}
		case ArithMul:
			r = p * q
			if p != 0 && (r/p != q || (p == -1 && q == math.MinInt64)) {
				return nil, ErrOverflow
			}
		case ArithDiv, ArithMod:
			if q == 0 {
				bld.UnsafeAppendBoolToBitmap(false)
				continue
			}
			if q == -1 {
				if op == ArithDiv {
					if p == math.MinInt64 {
						return nil, ErrOverflow
					}
					r = -p
				}
			} else if op == ArithDiv {
				r = p / q
			} else {
				r = p % q
			}
		}
		bld.UnsafeAppend(r)
	}
	return bld.NewArray(), nil
}

func arithFloat(ec *EvalContext, op ArithOp, a, b *array.Float64) arrow.Array {
	x, y := a.Float64Values(), b.Float64Values()
	bld := array.NewFloat64Builder(ec.Mem)
	defer bld.Release()
	bld.Reserve(len(x))
	for i := range x {
		if a.IsNull(i) || b.IsNull(i) {
			bld.UnsafeAppendBoolToBitmap(false)
			continue
		}
		p, q := x[i], y[i]
		var r float64
		switch op {
		case ArithAdd:
			r = p + q
		case ArithSub:
			r = p - q
		case ArithMul:
			r = p * q
		case ArithDiv, ArithMod:
			if q == 0 {
				bld.UnsafeAppendBoolToBitmap(false)
				continue
			}
			if op == ArithDiv {
				r = p / q
			} else {
				r = math.Mod(p, q)
			}
		}
		bld.UnsafeAppend(r)
	}
	return bld.NewArray()
}

// Negate flips the sign of an int64 or float64 array.
func Negate(ec *EvalContext, a arrow.Array) (arrow.Array, error) {
	switch x := a.(type) {
	case *array.Int64:
		return MapRows(ec, a.DataType(), a.Len(), []arrow.Array{a}, func(v []any) (any, error) {
			if v[0] == nil {
				return nil, nil
			}
			if v[0].(int64) == math.MinInt64 {
				return nil, ErrOverflow
			}
			return -v[0].(int64), nil
		})
	case *array.Float64:
		_ = x
		return MapRows(ec, a.DataType(), a.Len(), []arrow.Array{a}, func(v []any) (any, error) {
			if v[0] == nil {
				return nil, nil
			}
			return -v[0].(float64), nil
		})
	}
	return nil, &TypeError{Op: "negation", Type: a.DataType().String()}
}
