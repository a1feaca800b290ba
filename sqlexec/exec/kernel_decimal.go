package exec

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// DecimalArith evaluates a op b over two DECIMAL128 arrays (any scales)
// into type out, exactly: + and - rescale to out's scale, * multiplies
// unscaled values and rounds to out's scale, / divides with half-up
// rounding at out's scale. A result wider than out's precision is
// ErrOverflow; division by zero gives NULL.
func DecimalArith(ec *EvalContext, op ArithOp, a, b arrow.Array, out *arrow.Decimal128Type) (arrow.Array, error) {
	x, ok1 := a.(*array.Decimal128)
	y, ok2 := b.(*array.Decimal128)
	if !ok1 || !ok2 {
		return nil, &TypeError{Op: "decimal arithmetic " + op.String(), Type: a.DataType().String() + ", " + b.DataType().String()}
	}
	sx := x.DataType().(*arrow.Decimal128Type).Scale
	sy := y.DataType().(*arrow.Decimal128Type).Scale
	bld := array.NewDecimal128Builder(ec.Mem, out)
	defer bld.Release()
	n := x.Len()
	bld.Reserve(n)
	for i := 0; i < n; i++ {
		if x.IsNull(i) || y.IsNull(i) {
			bld.UnsafeAppendBoolToBitmap(false)
			continue
		}
		r, null, err := decimalOp(op, x.Value(i), sx, y.Value(i), sy, out)
		if err != nil {
			return nil, err
		}
		if null {
			bld.UnsafeAppendBoolToBitmap(false)
			continue
		}
		bld.UnsafeAppend(r)
	}
	return bld.NewArray(), nil
}

var bigTen = big.NewInt(10)

func pow10(n int32) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil) }

// decimalOp computes one value; null reports division by zero.
func decimalOp(op ArithOp, p decimal128.Num, sp int32, q decimal128.Num, sq int32, out *arrow.Decimal128Type) (decimal128.Num, bool, error) {
	x, y := p.BigInt(), q.BigInt()
	var r *big.Int
	var scale int32
	switch op {
	case ArithAdd, ArithSub:
		scale = max(sp, sq)
		x.Mul(x, pow10(scale-sp))
		y.Mul(y, pow10(scale-sq))
		if op == ArithAdd {
			r = x.Add(x, y)
		} else {
			r = x.Sub(x, y)
		}
	case ArithMul:
		r, scale = x.Mul(x, y), sp+sq
	case ArithDiv, ArithMod:
		if y.Sign() == 0 {
			return decimal128.Num{}, true, nil
		}
		if op == ArithMod {
			scale = max(sp, sq)
			x.Mul(x, pow10(scale-sp))
			y.Mul(y, pow10(scale-sq))
			r = x.Rem(x, y)
			break
		}
		// x/10^sp / (y/10^sq) at scale out.Scale: x*10^(out+sq-sp) / y
		shift := out.Scale + sq - sp
		if shift >= 0 {
			x.Mul(x, pow10(shift))
		} else {
			y.Mul(y, pow10(-shift))
		}
		r, scale = divRoundHalfUp(x, y), out.Scale
	}
	r = rescaleBig(r, scale, out.Scale)
	n := decimal128.FromBigInt(r)
	if r.BitLen() > 127 || !n.FitsInPrecision(out.Precision) {
		return decimal128.Num{}, false, ErrOverflow
	}
	return n, false, nil
}

// rescaleBig changes an unscaled value's scale, rounding half away from zero.
func rescaleBig(v *big.Int, from, to int32) *big.Int {
	switch {
	case to > from:
		return v.Mul(v, pow10(to-from))
	case to < from:
		return divRoundHalfUp(v, pow10(from-to))
	}
	return v
}

// divRoundHalfUp divides rounding half away from zero.
func divRoundHalfUp(x, y *big.Int) *big.Int {
	q, m := new(big.Int).QuoRem(x, y, new(big.Int))
	m.Abs(m).Lsh(m, 1)
	if m.CmpAbs(y) >= 0 {
		if (x.Sign() < 0) != (y.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// DecimalDiv divides an unscaled sum at scale s by n, giving scale out,
// rounding half up: the final step of a decimal average.
func DecimalDiv(sum decimal128.Num, s int32, n int64, out *arrow.Decimal128Type) (decimal128.Num, error) {
	x := sum.BigInt()
	x.Mul(x, pow10(out.Scale-s))
	r := divRoundHalfUp(x, big.NewInt(n))
	v := decimal128.FromBigInt(r)
	if r.BitLen() > 127 || !v.FitsInPrecision(out.Precision) {
		return decimal128.Num{}, ErrOverflow
	}
	return v, nil
}
