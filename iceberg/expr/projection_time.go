package expr

import (
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/icesql/icesql/iceberg"
)

// addUnits adds d units of the value's resolution (1, 1 day, 1 µs, one
// unit of the last decimal digit); ok is false on overflow.
func addUnits(v any, d int64) (any, bool) {
	switch x := v.(type) {
	case int32:
		n := int64(x) + d
		return int32(n), n >= math.MinInt32 && n <= math.MaxInt32
	case int64:
		n, ok := addInt64(x, d)
		return n, ok
	case iceberg.Date:
		n := int64(x) + d
		return iceberg.Date(n), n >= math.MinInt32 && n <= math.MaxInt32
	case iceberg.Time:
		n, ok := addInt64(int64(x), d)
		return iceberg.Time(n), ok
	case iceberg.Timestamp:
		n, ok := addInt64(int64(x), d)
		return iceberg.Timestamp(n), ok
	case iceberg.TimestampNano:
		n, ok := addInt64(int64(x), d)
		return iceberg.TimestampNano(n), ok
	case iceberg.Decimal:
		u := new(big.Int).Add(x.Unscaled.BigInt(), big.NewInt(d))
		if u.CmpAbs(pow10(38)) >= 0 {
			return nil, false
		}
		return iceberg.Decimal{Unscaled: decimal128.FromBigInt(u), Scale: x.Scale}, true
	}
	return nil, false
}

func addInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (b >= 0) == (s >= a)
}

// The fix-ups below keep projections correct for partition values written
// by old Java versions, which rounded pre-1970 times towards zero, so a
// stored negative partition value may be one more than the true one. They
// only widen inclusive and narrow strict projections, so they are safe for
// correctly written values too.

func fixInclusiveTimeProjection(p *BoundPredicate) BoundExpr {
	switch p.Op {
	case OpLt, OpLtEq:
		if n, ok := integerValue(p.Literal()); ok && n < 0 {
			return withLiterals(p, p.Op, plusOne(p.Literal()))
		}
	case OpEq:
		if n, ok := integerValue(p.Literal()); ok && n < 0 {
			return withLiterals(p, OpIn, p.Literal(), plusOne(p.Literal()))
		}
	case OpIn:
		return withLiterals(p, OpIn, withNegativeSuccessors(p.Literals)...)
	}
	return p
}

func fixStrictTimeProjection(p *BoundPredicate) BoundExpr {
	switch p.Op {
	case OpGt, OpGtEq:
		if n, ok := integerValue(p.Literal()); ok && n <= 0 {
			return withLiterals(p, p.Op, plusOne(p.Literal()))
		}
	case OpNotEq:
		if n, ok := integerValue(p.Literal()); ok && n < 0 {
			return withLiterals(p, OpNotIn, p.Literal(), plusOne(p.Literal()))
		}
	case OpNotIn:
		return withLiterals(p, OpNotIn, withNegativeSuccessors(p.Literals)...)
	}
	return p
}

func plusOne(v any) any {
	s, _ := addUnits(v, 1) // partition ordinals are far from overflow
	return s
}

func withNegativeSuccessors(lits []any) []any {
	set := newLiteralSet()
	for _, l := range lits {
		set.add(l)
		if n, ok := integerValue(l); ok && n < 0 {
			set.add(plusOne(l))
		}
	}
	return set.values
}

func withLiterals(p *BoundPredicate, op Op, lits ...any) *BoundPredicate {
	n := *p
	n.Op = op
	n.Literals = lits
	return &n
}
