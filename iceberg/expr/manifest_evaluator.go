package expr

import (
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// ManifestEvaluator decides from a manifest list entry's partition field
// summaries whether the manifest may hold files with matching rows (Java's
// ManifestEvaluator). It evaluates a projected expression (see
// InclusiveProjection) over the manifest's spec.
type ManifestEvaluator struct {
	expr BoundExpr
	pos  map[int]int // partition field id -> summary position
}

// NewManifestEvaluator prepares an expression already projected onto spec.
func NewManifestEvaluator(spec *iceberg.PartitionSpec, projected BoundExpr) *ManifestEvaluator {
	return &ManifestEvaluator{expr: projected, pos: fieldPositions(spec)}
}

// NewManifestEvaluatorFor projects a filter bound to schema onto spec and
// prepares it.
func NewManifestEvaluatorFor(spec *iceberg.PartitionSpec, schema *iceberg.Schema, filter BoundExpr) (*ManifestEvaluator, error) {
	projected, err := InclusiveProjection(spec, schema, filter)
	if err != nil {
		return nil, err
	}
	return NewManifestEvaluator(spec, projected), nil
}

func fieldPositions(spec *iceberg.PartitionSpec) map[int]int {
	pos := make(map[int]int, len(spec.Fields))
	for i, f := range spec.Fields {
		pos[f.FieldID] = i
	}
	return pos
}

// Eval reports whether the manifest may hold matching rows. An error
// means a summary bound does not decode (*BoundDecodeError).
func (ev *ManifestEvaluator) Eval(mf *iceberg.ManifestFile) (bool, error) {
	if mf.Partitions == nil {
		return true, nil
	}
	sums := mf.Partitions
	return evalBound(ev.expr, true, func(p *BoundPredicate) (bool, error) {
		i, ok := ev.pos[p.FieldID]
		if !ok || i >= len(sums) {
			return true, nil // no summary: cannot prune
		}
		return summaryPredicate(p, &sums[i])
	})
}

// allValuesNull: a missing lower bound means every value is null, except
// that floating fields may hold only NaNs, which are never bounds.
func allValuesNull(p *BoundPredicate, s *iceberg.FieldSummary) bool {
	allNull := s.ContainsNull && s.LowerBound == nil
	if allNull && isFloating(p.Type) {
		allNull = s.ContainsNaN != nil && !*s.ContainsNaN
	}
	return allNull
}

func summaryPredicate(p *BoundPredicate, s *iceberg.FieldSummary) (bool, error) {
	switch p.Op {
	case OpIsNull:
		return s.ContainsNull, nil
	case OpNotNull:
		return !allValuesNull(p, s), nil
	case OpIsNaN:
		return s.ContainsNaN == nil || *s.ContainsNaN, nil
	case OpNotNaN:
		allNaN := s.ContainsNaN != nil && *s.ContainsNaN && !s.ContainsNull && s.LowerBound == nil
		return !allNaN, nil
	case OpNotEq, OpNotIn:
		return rowsMightMatch, nil
	case OpNotStartsWith:
		return summaryNotStartsWith(p, s)
	}
	if s.LowerBound == nil {
		return rowsCannotMatch, nil // all values are null or NaN
	}
	if p.Op == OpIn && len(p.Literals) > inPredicateLimit {
		return rowsMightMatch, nil
	}
	lower, err := decodeValue(p.FieldID, p.Type, s.LowerBound)
	if err != nil {
		return false, err
	}
	var upper any
	if s.UpperBound != nil {
		if upper, err = decodeValue(p.FieldID, p.Type, s.UpperBound); err != nil {
			return false, err
		}
	}
	lit := p.Literal()
	switch p.Op {
	case OpLt:
		return cmp(lower, lit) < 0, nil
	case OpLtEq:
		return cmp(lower, lit) <= 0, nil
	case OpGt:
		return !(upper != nil && cmp(upper, lit) <= 0), nil
	case OpGtEq:
		return !(upper != nil && cmp(upper, lit) < 0), nil
	case OpEq:
		return cmp(lower, lit) <= 0 && !(upper != nil && cmp(upper, lit) < 0), nil
	case OpIn:
		for _, v := range p.Literals {
			if cmp(lower, v) <= 0 && (upper == nil || cmp(upper, v) >= 0) {
				return rowsMightMatch, nil
			}
		}
		return rowsCannotMatch, nil
	case OpStartsWith:
		prefix, _ := lit.(string)
		ls, _ := lower.(string)
		if strings.Compare(cutTo(ls, len(prefix)), prefix) > 0 {
			return rowsCannotMatch, nil
		}
		if us, ok := upper.(string); ok && strings.Compare(cutTo(us, len(prefix)), prefix) < 0 {
			return rowsCannotMatch, nil
		}
		return rowsMightMatch, nil
	}
	return rowsMightMatch, nil
}

func summaryNotStartsWith(p *BoundPredicate, s *iceberg.FieldSummary) (bool, error) {
	if s.ContainsNull || s.LowerBound == nil || s.UpperBound == nil {
		return rowsMightMatch, nil
	}
	prefix, _ := p.Literal().(string)
	lower, err := decodeValue(p.FieldID, p.Type, s.LowerBound)
	if err != nil {
		return false, err
	}
	upper, err := decodeValue(p.FieldID, p.Type, s.UpperBound)
	if err != nil {
		return false, err
	}
	ls, _ := lower.(string)
	us, _ := upper.(string)
	if strings.HasPrefix(ls, prefix) && strings.HasPrefix(us, prefix) {
		return rowsCannotMatch, nil
	}
	return rowsMightMatch, nil
}

// PartitionEvaluator tests a data file's partition tuple against an
// expression projected onto the tuple's spec.
type PartitionEvaluator struct {
	eval *Evaluator
	pos  map[int]int
}

// NewPartitionEvaluator prepares an expression already projected onto spec.
func NewPartitionEvaluator(spec *iceberg.PartitionSpec, projected BoundExpr) *PartitionEvaluator {
	return &PartitionEvaluator{eval: NewEvaluator(projected), pos: fieldPositions(spec)}
}

// Eval reports whether the partition tuple (values in spec field order)
// matches.
func (ev *PartitionEvaluator) Eval(tuple []any) bool {
	return ev.eval.Eval(func(id int) any {
		if i, ok := ev.pos[id]; ok && i < len(tuple) {
			return tuple[i]
		}
		return nil
	})
}
