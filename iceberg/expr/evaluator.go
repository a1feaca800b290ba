package expr

import (
	"math"
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// Row gives a row's value for a field id in the Go value form; nil is null.
type Row func(fieldID int) any

// Evaluator tests rows against a bound expression.
type Evaluator struct {
	expr BoundExpr
	sets map[*BoundPredicate]*literalSet
}

// NewEvaluator prepares a bound expression for row evaluation.
func NewEvaluator(e BoundExpr) *Evaluator {
	ev := &Evaluator{expr: e, sets: map[*BoundPredicate]*literalSet{}}
	for _, p := range Predicates(e) {
		if p.Op.IsSet() {
			ev.sets[p] = literalSetOf(p.Literals)
		}
	}
	return ev
}

// Eval reports whether the row matches.
func (ev *Evaluator) Eval(row Row) bool { return ev.eval(ev.expr, row) }

func (ev *Evaluator) eval(e BoundExpr, row Row) bool {
	switch x := e.(type) {
	case AlwaysTrue:
		return true
	case *BoundAnd:
		return ev.eval(x.Left, row) && ev.eval(x.Right, row)
	case *BoundOr:
		return ev.eval(x.Left, row) || ev.eval(x.Right, row)
	case *BoundPredicate:
		return ev.predicate(x, row(x.FieldID))
	}
	return false
}

func (ev *Evaluator) predicate(p *BoundPredicate, v any) bool {
	switch p.Op {
	case OpIsNull:
		return v == nil
	case OpNotNull:
		return v != nil
	}
	if v == nil {
		return false // SQL: comparisons with null are unknown
	}
	switch p.Op {
	case OpIsNaN:
		return iceberg.IsNaN(v)
	case OpNotNaN:
		return !iceberg.IsNaN(v)
	case OpIn, OpNotIn:
		set := ev.sets[p]
		if set == nil {
			set = literalSetOf(p.Literals)
		}
		in := !iceberg.IsNaN(v) && set.contains(v)
		return in == (p.Op == OpIn)
	case OpStartsWith, OpNotStartsWith:
		s, ok := v.(string)
		prefix, _ := p.Literal().(string)
		return ok && strings.HasPrefix(s, prefix) == (p.Op == OpStartsWith)
	}
	c, ok := compareRowValue(v, p.Literal())
	if !ok { // NaN: every comparison but != is false
		return p.Op == OpNotEq
	}
	switch p.Op {
	case OpLt:
		return c < 0
	case OpLtEq:
		return c <= 0
	case OpGt:
		return c > 0
	case OpGtEq:
		return c >= 0
	case OpEq:
		return c == 0
	case OpNotEq:
		return c != 0
	}
	return false
}

// compareRowValue compares as SQL does: IEEE for floats (-0 = +0, NaN
// unordered), the total order otherwise.
func compareRowValue(a, b any) (int, bool) {
	fa, aFloat := asFloat(a)
	fb, bFloat := asFloat(b)
	if aFloat && bFloat {
		switch {
		case math.IsNaN(fa) || math.IsNaN(fb):
			return 0, false
		case fa < fb:
			return -1, true
		case fa > fb:
			return 1, true
		}
		return 0, true
	}
	return iceberg.CompareValues(a, b)
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
