package expr

import (
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// InclusiveMetricsEvaluator decides from a data file's column metrics
// whether the file may contain rows matching an expression: Eval is false
// only when no row can match. It mirrors Java's InclusiveMetricsEvaluator,
// including truncated string bounds and NaN handling.
type InclusiveMetricsEvaluator struct {
	expr BoundExpr
}

// NewInclusiveMetricsEvaluator takes an expression bound to the schema the
// files' metrics use (field ids and types).
func NewInclusiveMetricsEvaluator(e BoundExpr) *InclusiveMetricsEvaluator {
	return &InclusiveMetricsEvaluator{expr: e}
}

// Eval reports whether rows in f might match. An error means a stored
// bound does not decode as its column's type (*BoundDecodeError).
func (ev *InclusiveMetricsEvaluator) Eval(f *iceberg.DataFile) (bool, error) {
	if f.RecordCount == 0 {
		return false, nil
	}
	if f.RecordCount < 0 { // imported files with unknown counts
		return true, nil
	}
	m := fileMetrics{f}
	return evalBound(ev.expr, rowsMightMatch, func(p *BoundPredicate) (bool, error) { return inclusivePredicate(p, m) })
}

const (
	rowsMightMatch  = true
	rowsCannotMatch = false
)

func inclusivePredicate(p *BoundPredicate, m fileMetrics) (bool, error) {
	id := p.FieldID
	switch p.Op {
	case OpIsNull:
		return m.mayContainNull(id), nil
	case OpNotNull:
		return !m.containsNullsOnly(id), nil
	case OpIsNaN:
		if m.containsNullsOnly(id) || m.containsNoNaNs(id) {
			return rowsCannotMatch, nil
		}
		return rowsMightMatch, nil
	case OpNotNaN:
		return !m.containsNaNsOnly(id), nil
	case OpNotEq, OpNotIn:
		// bounds need not be actual values, so they cannot rule these out
		return rowsMightMatch, nil
	case OpStartsWith:
		return inclusiveStartsWith(p, m)
	case OpNotStartsWith:
		return inclusiveNotStartsWith(p, m)
	}
	if m.containsNullsOnly(id) || m.containsNaNsOnly(id) {
		return rowsCannotMatch, nil
	}
	lower, err := m.lower(p)
	if err != nil {
		return false, err
	}
	upper, err := m.upper(p)
	if err != nil {
		return false, err
	}
	// a NaN lower bound marks unreliable bounds (some writers)
	lowerOK := lower != nil && !iceberg.IsNaN(lower)
	lit := p.Literal()
	switch p.Op {
	case OpLt:
		return !(lowerOK && cmp(lower, lit) >= 0), nil
	case OpLtEq:
		return !(lowerOK && cmp(lower, lit) > 0), nil
	case OpGt:
		return !(upper != nil && cmp(upper, lit) <= 0), nil
	case OpGtEq:
		return !(upper != nil && cmp(upper, lit) < 0), nil
	case OpEq:
		if lowerOK && cmp(lower, lit) > 0 {
			return rowsCannotMatch, nil
		}
		return !(upper != nil && cmp(upper, lit) < 0), nil
	case OpIn:
		if len(p.Literals) > inPredicateLimit || !lowerOK {
			return rowsMightMatch, nil
		}
		for _, v := range p.Literals {
			if cmp(lower, v) <= 0 && (upper == nil || cmp(upper, v) >= 0) {
				return rowsMightMatch, nil
			}
		}
		return rowsCannotMatch, nil
	}
	return rowsMightMatch, nil
}

// inclusiveStartsWith compares the bounds cut to the prefix's length, which
// is right for bounds truncated by the writer too.
func inclusiveStartsWith(p *BoundPredicate, m fileMetrics) (bool, error) {
	if m.containsNullsOnly(p.FieldID) {
		return rowsCannotMatch, nil
	}
	prefix, _ := p.Literal().(string)
	lower, err := m.lower(p)
	if err != nil || lower == nil {
		return rowsMightMatch, err
	}
	if strings.Compare(cutTo(lower.(string), len(prefix)), prefix) > 0 {
		return rowsCannotMatch, nil
	}
	upper, err := m.upper(p)
	if err != nil || upper == nil {
		return rowsMightMatch, err
	}
	if strings.Compare(cutTo(upper.(string), len(prefix)), prefix) < 0 {
		return rowsCannotMatch, nil
	}
	return rowsMightMatch, nil
}

// inclusiveNotStartsWith: no row matches only when both bounds start with
// the prefix and there are no nulls.
func inclusiveNotStartsWith(p *BoundPredicate, m fileMetrics) (bool, error) {
	if m.mayContainNull(p.FieldID) {
		return rowsMightMatch, nil
	}
	prefix, _ := p.Literal().(string)
	lower, err := m.lower(p)
	if err != nil {
		return false, err
	}
	upper, err := m.upper(p)
	if err != nil {
		return false, err
	}
	if lower == nil || upper == nil {
		return rowsMightMatch, nil
	}
	if strings.HasPrefix(lower.(string), prefix) && strings.HasPrefix(upper.(string), prefix) {
		return rowsCannotMatch, nil
	}
	return rowsMightMatch, nil
}

// cutTo returns at most n bytes of s. Iceberg orders strings by UTF-8
// bytes, so a byte prefix compares the same way as Java's char prefix for
// the purpose of these checks.
func cutTo(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
