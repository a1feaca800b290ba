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
	return foldLogical(exprs, BoundExpr(AlwaysTrue{}), BoundExpr(AlwaysFalse{}), isTrue, isFalse,
		func(l, r BoundExpr) BoundExpr { return &BoundAnd{Left: l, Right: r} })
}

// OrBound combines bound expressions with OR, folding constants.
func OrBound(exprs ...BoundExpr) BoundExpr {
	return foldLogical(exprs, BoundExpr(AlwaysFalse{}), BoundExpr(AlwaysTrue{}), isFalse, isTrue,
		func(l, r BoundExpr) BoundExpr { return &BoundOr{Left: l, Right: r} })
}

// evalBound decides e with AND/OR short-circuiting, asking pred for each
// predicate; other answers for a node of no known kind. The metrics and
// manifest evaluators share it and differ only in pred.
func evalBound(e BoundExpr, other bool, pred func(*BoundPredicate) (bool, error)) (bool, error) {
	switch x := e.(type) {
	case AlwaysTrue:
		return true, nil
	case AlwaysFalse:
		return false, nil
	case *BoundAnd:
		l, err := evalBound(x.Left, other, pred)
		if err != nil || !l {
			return false, err
		}
		return evalBound(x.Right, other, pred)
	case *BoundOr:
		l, err := evalBound(x.Left, other, pred)
		if err != nil || l {
			return l, err
		}
		return evalBound(x.Right, other, pred)
	case *BoundPredicate:
		return pred(x)
	}
	return other, nil
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
