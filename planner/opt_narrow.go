package planner

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// narrowComparisons rewrites CAST(x AS wide) <op> literal, where the cast
// widens exactly (INT to BIGINT, FLOAT to DOUBLE, DATE to TIMESTAMP...),
// into x <op> literal' with the literal converted to x's type, whenever
// the literal converts exactly. The bare column can then be pushed into
// the scan and prune files; the result is unchanged because the cast is
// injective and order-preserving. IN lists are treated alike.
func narrowComparisons(p Plan) (Plan, error) {
	return transformPlan(p, func(n Plan) (Plan, error) {
		return mapPlanExprs(n, func(e Expr) (Expr, error) {
			return transformExpr(e, func(x Expr) (Expr, error) {
				switch c := x.(type) {
				case *Compare:
					if l, r, ok := narrowPair(c.L, c.R); ok {
						return &Compare{Op: c.Op, L: l, R: r}, nil
					}
					if r, l, ok := narrowPair(c.R, c.L); ok {
						return &Compare{Op: c.Op, L: l, R: r}, nil
					}
				case *InList:
					cast, ok := c.E.(*Cast)
					if !ok || !widensExactly(cast.E.DataType(), cast.To) {
						return x, nil
					}
					if list, ok := narrowInList(cast.E, c.List); ok {
						return &InList{E: cast.E, List: list, Negate: c.Negate}, nil
					}
				}
				return x, nil
			})
		})
	})
}

// narrowPair handles a = CAST(x AS wide), b = literal.
func narrowPair(a, b Expr) (Expr, Expr, bool) {
	cast, ok := a.(*Cast)
	lit, isLit := b.(*Literal)
	if !ok || !isLit || !widensExactly(cast.E.DataType(), cast.To) {
		return nil, nil, false
	}
	n, ok := narrowLiteral(lit, cast.E.DataType())
	if !ok {
		return nil, nil, false
	}
	return cast.E, n, true
}

// widensExactly reports whether every value of from converts to a distinct
// value of to, in the same order.
func widensExactly(from, to arrow.DataType) bool {
	bits := func(t arrow.DataType) int {
		switch t.ID() {
		case arrow.INT8:
			return 8
		case arrow.INT16:
			return 16
		case arrow.INT32:
			return 32
		case arrow.INT64:
			return 64
		}
		return 0
	}
	switch {
	case isInteger(from) && isInteger(to):
		return bits(from) <= bits(to)
	case isInteger(from) && to.ID() == arrow.FLOAT64:
		return bits(from) <= 32
	case isInteger(from) && to.ID() == arrow.FLOAT32:
		return bits(from) <= 16
	case from.ID() == arrow.FLOAT32 && to.ID() == arrow.FLOAT64:
		return true
	case from.ID() == arrow.DATE32 && to.ID() == arrow.TIMESTAMP:
		return true
	case from.ID() == arrow.DECIMAL128 && to.ID() == arrow.DECIMAL128:
		f, t := from.(*arrow.Decimal128Type), to.(*arrow.Decimal128Type)
		return t.Scale >= f.Scale && t.Precision-t.Scale >= f.Precision-f.Scale
	case isInteger(from) && to.ID() == arrow.DECIMAL128:
		t := to.(*arrow.Decimal128Type)
		digits := map[int]int32{8: 3, 16: 5, 32: 10, 64: 19}[bits(from)]
		return t.Precision-t.Scale >= digits
	}
	return false
}
