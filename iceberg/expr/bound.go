package expr

import "github.com/icesql/icesql/iceberg"

// BoundPredicate is a predicate on one field, identified by id. Literals
// are in the Go value form of Type, deduplicated for IN / NOT IN.
type BoundPredicate struct {
	Op       Op
	FieldID  int
	Name     string // full column name, for printing
	Type     iceberg.PrimitiveType
	Literals []any
}

func (*BoundPredicate) isBound() {}

func (p *BoundPredicate) String() string {
	return formatPredicate(p.Op, p.Name, p.Literals, func(v any) string { return formatLiteral(p.Type, v) })
}

// Literal returns the single literal of a comparison predicate.
func (p *BoundPredicate) Literal() any {
	if len(p.Literals) == 0 {
		return nil
	}
	return p.Literals[0]
}

// BoundAnd and BoundOr are the bound logical operators.
type (
	BoundAnd struct{ Left, Right BoundExpr }
	BoundOr  struct{ Left, Right BoundExpr }
)

func (*BoundAnd) isBound() {}
func (*BoundOr) isBound()  {}

func (e *BoundAnd) String() string { return joinLogical("AND", e.Left, e.Right) }
func (e *BoundOr) String() string  { return joinLogical("OR", e.Left, e.Right) }

// AndBound combines bound expressions with AND, folding constants.
func AndBound(exprs ...BoundExpr) BoundExpr {
	var out BoundExpr = AlwaysTrue{}
	for _, e := range exprs {
		switch {
		case isFalse(out) || isFalse(e):
			return AlwaysFalse{}
		case isTrue(out):
			out = e
		case isTrue(e):
		default:
			out = &BoundAnd{Left: out, Right: e}
		}
	}
	return out
}

// OrBound combines bound expressions with OR, folding constants.
func OrBound(exprs ...BoundExpr) BoundExpr {
	var out BoundExpr = AlwaysFalse{}
	for _, e := range exprs {
		switch {
		case isTrue(out) || isTrue(e):
			return AlwaysTrue{}
		case isFalse(out):
			out = e
		case isFalse(e):
		default:
			out = &BoundOr{Left: out, Right: e}
		}
	}
	return out
}

// NegateBound returns the bound expression matching exactly the rows e
// does not match (SQL null semantics; see the package comment).
func NegateBound(e BoundExpr) BoundExpr {
	switch x := e.(type) {
	case AlwaysTrue:
		return AlwaysFalse{}
	case AlwaysFalse:
		return AlwaysTrue{}
	case *BoundAnd:
		return OrBound(NegateBound(x.Left), NegateBound(x.Right))
	case *BoundOr:
		return AndBound(NegateBound(x.Left), NegateBound(x.Right))
	case *BoundPredicate:
		n := *x
		n.Op = x.Op.Negate()
		return &n
	}
	return e
}

// Predicates returns the bound predicates of e in order, for callers that
// need the referenced field ids (column projection, EXPLAIN).
func Predicates(e BoundExpr) []*BoundPredicate {
	var out []*BoundPredicate
	var walk func(BoundExpr)
	walk = func(e BoundExpr) {
		switch x := e.(type) {
		case *BoundAnd:
			walk(x.Left)
			walk(x.Right)
		case *BoundOr:
			walk(x.Left)
			walk(x.Right)
		case *BoundPredicate:
			out = append(out, x)
		}
	}
	walk(e)
	return out
}
