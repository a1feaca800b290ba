// Package expr holds Iceberg filter expressions: unbound expressions over
// column names, binding to a schema (field ids and typed literals), row
// evaluation, file pruning by column metrics, and partition projection for
// pruning manifests and files by partition values.
//
// Null semantics are SQL's: a comparison with a null value is never true,
// including !=, NOT IN and NOT STARTS WITH. Binding pushes NOT down to the
// leaves, which is exact under these semantics. NaN compares as IEEE-754
// does: every comparison with NaN is false except !=.
package expr

import (
	"strings"
)

// Expr is an unbound expression over column names.
type Expr interface {
	String() string
	isExpr()
}

// BoundExpr is an expression bound to a schema: predicates refer to field
// ids and carry literals in the Go value form of the field's type. Bound
// expressions contain no NOT.
type BoundExpr interface {
	String() string
	isBound()
}

// AlwaysTrue and AlwaysFalse are the constant expressions; they are both
// unbound and bound.
type (
	AlwaysTrue  struct{}
	AlwaysFalse struct{}
)

func (AlwaysTrue) String() string  { return "TRUE" }
func (AlwaysFalse) String() string { return "FALSE" }
func (AlwaysTrue) isExpr()         {}
func (AlwaysFalse) isExpr()        {}
func (AlwaysTrue) isBound()        {}
func (AlwaysFalse) isBound()       {}

// True returns the expression matching every row.
func True() Expr { return AlwaysTrue{} }

// False returns the expression matching no row.
func False() Expr { return AlwaysFalse{} }

// AndExpr, OrExpr and NotExpr are the unbound logical operators.
type (
	AndExpr struct{ Left, Right Expr }
	OrExpr  struct{ Left, Right Expr }
	NotExpr struct{ Child Expr }
)

func (*AndExpr) isExpr() {}
func (*OrExpr) isExpr()  {}
func (*NotExpr) isExpr() {}

func (e *AndExpr) String() string { return joinLogical("AND", e.Left, e.Right) }
func (e *OrExpr) String() string  { return joinLogical("OR", e.Left, e.Right) }
func (e *NotExpr) String() string { return "NOT (" + e.Child.String() + ")" }

// joinLogical prints "l OP r", parenthesising children of the other
// logical operator so the printed form reads unambiguously.
func joinLogical(op string, l, r interface{ String() string }) string {
	return wrapIfOther(op, l) + " " + op + " " + wrapIfOther(op, r)
}

func wrapIfOther(op string, e interface{ String() string }) string {
	var childOp string
	switch e.(type) {
	case *AndExpr, *BoundAnd:
		childOp = "AND"
	case *OrExpr, *BoundOr:
		childOp = "OR"
	default:
		return e.String()
	}
	if childOp == op {
		return e.String()
	}
	return "(" + e.String() + ")"
}

// And combines expressions with AND, folding constants (And() is True).
func And(exprs ...Expr) Expr {
	return foldLogical(exprs, Expr(AlwaysTrue{}), Expr(AlwaysFalse{}), isTrue, isFalse,
		func(l, r Expr) Expr { return &AndExpr{Left: l, Right: r} })
}

// Or combines expressions with OR, folding constants (Or() is False).
func Or(exprs ...Expr) Expr {
	return foldLogical(exprs, Expr(AlwaysFalse{}), Expr(AlwaysTrue{}), isFalse, isTrue,
		func(l, r Expr) Expr { return &OrExpr{Left: l, Right: r} })
}

// Not negates an expression, folding constants and double negation.
func Not(e Expr) Expr {
	switch x := e.(type) {
	case AlwaysTrue:
		return AlwaysFalse{}
	case AlwaysFalse:
		return AlwaysTrue{}
	case *NotExpr:
		return x.Child
	}
	return &NotExpr{Child: e}
}

// foldLogical joins exprs left to right with an operator whose identity is
// unit and whose absorbing element is zero (True and False for AND, the
// reverse for OR), so constants never reach the tree. It serves both the
// unbound and the bound expression types.
func foldLogical[E any](exprs []E, unit, zero E, isUnit, isZero func(any) bool, join func(l, r E) E) E {
	out := unit
	for _, e := range exprs {
		switch {
		case isZero(out) || isZero(e):
			return zero
		case isUnit(out):
			out = e
		case isUnit(e):
		default:
			out = join(out, e)
		}
	}
	return out
}

func isTrue(e any) bool  { _, ok := e.(AlwaysTrue); return ok }
func isFalse(e any) bool { _, ok := e.(AlwaysFalse); return ok }

// Predicate is an unbound predicate: an operation on a named column with
// zero (unary), one, or (for IN / NOT IN) any number of literals.
// Literals are in the Go value form (iceberg/values.go) or a Go
// convenience type (int, uint, string, time.Time) converted at Bind.
type Predicate struct {
	Op       Op
	Column   string
	Literals []any
}

func (*Predicate) isExpr() {}

func (p *Predicate) String() string {
	return formatPredicate(p.Op, p.Column, p.Literals, nil)
}

func pred(op Op, col string, lits ...any) Expr {
	return &Predicate{Op: op, Column: col, Literals: lits}
}

// IsNull matches rows where col is null.
func IsNull(col string) Expr { return pred(OpIsNull, col) }

// NotNull matches rows where col is not null.
func NotNull(col string) Expr { return pred(OpNotNull, col) }

// IsNaN matches rows where the floating column col is NaN.
func IsNaN(col string) Expr { return pred(OpIsNaN, col) }

// NotNaN matches rows where col is not NaN (nulls do not match).
func NotNaN(col string) Expr { return pred(OpNotNaN, col) }

// Lt matches rows where col < v.
func Lt(col string, v any) Expr { return pred(OpLt, col, v) }

// LtEq matches rows where col <= v.
func LtEq(col string, v any) Expr { return pred(OpLtEq, col, v) }

// Gt matches rows where col > v.
func Gt(col string, v any) Expr { return pred(OpGt, col, v) }

// GtEq matches rows where col >= v.
func GtEq(col string, v any) Expr { return pred(OpGtEq, col, v) }

// Eq matches rows where col = v.
func Eq(col string, v any) Expr { return pred(OpEq, col, v) }

// NotEq matches rows where col <> v (nulls do not match).
func NotEq(col string, v any) Expr { return pred(OpNotEq, col, v) }

// StartsWith matches string values of col that begin with prefix.
func StartsWith(col, prefix string) Expr { return pred(OpStartsWith, col, prefix) }

// NotStartsWith matches non-null string values of col that do not begin with prefix.
func NotStartsWith(col, prefix string) Expr {
	return pred(OpNotStartsWith, col, prefix)
}

// In matches rows where col equals one of vs.
func In(col string, vs ...any) Expr { return pred(OpIn, col, vs...) }

// NotIn matches rows where col is non-null and equals none of vs.
func NotIn(col string, vs ...any) Expr { return pred(OpNotIn, col, vs...) }

// formatPredicate prints "col OP lit" with literals formatted for type t
// (nil when unbound).
func formatPredicate(op Op, col string, lits []any, format func(any) string) string {
	if format == nil {
		format = formatAny
	}
	if op.IsUnary() {
		return col + " " + op.String()
	}
	if op.IsSet() {
		parts := make([]string, len(lits))
		for i, l := range lits {
			parts[i] = format(l)
		}
		return col + " " + op.String() + " (" + strings.Join(parts, ", ") + ")"
	}
	var lit string
	if len(lits) > 0 {
		lit = format(lits[0])
	}
	return col + " " + op.String() + " " + lit
}
