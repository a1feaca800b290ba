package expr

import "github.com/icesql/icesql/iceberg"

// StrictMetricsEvaluator decides from a data file's column metrics whether
// every row of the file matches an expression (Eval true), as Java's
// StrictMetricsEvaluator does; used to drop whole files in metadata-only
// deletes. Under SQL null semantics a null never matches a comparison, so
// files that may hold nulls never satisfy != and NOT IN here (Java, whose
// != matches nulls, is less strict).
type StrictMetricsEvaluator struct {
	expr BoundExpr
}

// NewStrictMetricsEvaluator takes an expression bound to the files' schema.
func NewStrictMetricsEvaluator(e BoundExpr) *StrictMetricsEvaluator {
	return &StrictMetricsEvaluator{expr: e}
}

// Eval reports whether all rows of f must match.
func (ev *StrictMetricsEvaluator) Eval(f *iceberg.DataFile) (bool, error) {
	switch {
	case f.RecordCount == 0:
		return true, nil // no rows, so all rows match
	case f.RecordCount < 0:
		// Imported files may not know their count; nothing is proved about
		// rows we cannot count, and a wrong "must match" drops live rows.
		_, always := ev.expr.(AlwaysTrue)
		return always, nil
	}
	m := fileMetrics{f}
	return evalBound(ev.expr, rowsMightNotMatch, func(p *BoundPredicate) (bool, error) { return strictPredicate(p, m) })
}

const (
	rowsMustMatch     = true
	rowsMightNotMatch = false
)

// canContainNaNs is conservative for floating columns without NaN counts.
func (m fileMetrics) canContainNaNs(p *BoundPredicate) bool {
	if !isFloating(p.Type) {
		return false
	}
	n, ok := count(m.f.NaNValueCounts, p.FieldID)
	return !ok || n > 0
}

func strictPredicate(p *BoundPredicate, m fileMetrics) (bool, error) {
	id := p.FieldID
	switch p.Op {
	case OpIsNull:
		return m.containsNullsOnly(id), nil
	case OpNotNull:
		return !m.mayContainNull(id), nil
	case OpIsNaN:
		return m.containsNaNsOnly(id), nil
	case OpNotNaN:
		return !m.mayContainNull(id) && m.containsNoNaNs(id), nil
	case OpStartsWith, OpNotStartsWith:
		// truncated upper bounds are incremented, so bounds cannot prove it
		return rowsMightNotMatch, nil
	}
	if m.mayContainNull(id) {
		return rowsMightNotMatch, nil
	}
	lower, err := m.lower(p)
	if err != nil {
		return false, err
	}
	upper, err := m.upper(p)
	if err != nil {
		return false, err
	}
	if p.Op == OpNotEq || p.Op == OpNotIn {
		// NaN != x holds, so NaNs do not matter; values outside the bounds
		// are not in the file
		if m.containsNaNsOnly(id) {
			return rowsMustMatch, nil
		}
		for _, v := range p.Literals {
			outside := (lower != nil && !iceberg.IsNaN(lower) && cmp(lower, v) > 0) ||
				(upper != nil && !iceberg.IsNaN(upper) && cmp(upper, v) < 0)
			if !outside {
				return rowsMightNotMatch, nil
			}
		}
		return rowsMustMatch, nil
	}
	if m.canContainNaNs(p) {
		return rowsMightNotMatch, nil
	}
	lit := p.Literal()
	switch p.Op {
	case OpLt:
		return upper != nil && cmp(upper, lit) < 0, nil
	case OpLtEq:
		return upper != nil && cmp(upper, lit) <= 0, nil
	case OpGt:
		return lower != nil && cmp(lower, lit) > 0, nil
	case OpGtEq:
		return lower != nil && cmp(lower, lit) >= 0, nil
	case OpEq:
		return lower != nil && upper != nil && cmp(lower, lit) == 0 && cmp(upper, lit) == 0, nil
	case OpIn:
		if lower == nil || upper == nil || cmp(lower, upper) != 0 {
			return rowsMightNotMatch, nil
		}
		return literalSetOf(p.Literals).contains(lower), nil
	}
	return rowsMightNotMatch, nil
}
