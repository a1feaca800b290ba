package expr

import "github.com/icesql/icesql/iceberg"

// ResidualEvaluator computes, for a partition tuple, what remains of a
// filter after the partition values are known (Java's ResidualEvaluator):
// predicates the partition guarantees become TRUE, those it rules out
// become FALSE, the rest stay for row filtering.
type ResidualEvaluator struct {
	filter BoundExpr
	pos    map[int]int
	proj   map[*BoundPredicate][]projectedPair
}

type projectedPair struct {
	strict, inclusive *Evaluator // nil when not projectable
}

// NewResidualEvaluator prepares filter (bound to schema) for spec.
func NewResidualEvaluator(spec *iceberg.PartitionSpec, schema *iceberg.Schema, filter BoundExpr) (*ResidualEvaluator, error) {
	ptype, err := PartitionType(spec, schema)
	if err != nil {
		return nil, err
	}
	re := &ResidualEvaluator{filter: filter, pos: fieldPositions(spec), proj: map[*BoundPredicate][]projectedPair{}}
	for _, p := range Predicates(filter) {
		for i, pf := range spec.Fields {
			if pf.SourceID != p.FieldID {
				continue
			}
			var pair projectedPair
			if s := projectPredicate(pf, ptype.FieldList[i].Type, p, true); s != nil {
				pair.strict = NewEvaluator(s)
			}
			if in := projectPredicate(pf, ptype.FieldList[i].Type, p, false); in != nil {
				pair.inclusive = NewEvaluator(in)
			}
			re.proj[p] = append(re.proj[p], pair)
		}
	}
	return re, nil
}

// Residual returns the filter simplified for one partition tuple.
func (re *ResidualEvaluator) Residual(tuple []any) BoundExpr {
	row := func(id int) any {
		if i, ok := re.pos[id]; ok && i < len(tuple) {
			return tuple[i]
		}
		return nil
	}
	var visit func(BoundExpr) BoundExpr
	visit = func(e BoundExpr) BoundExpr {
		switch x := e.(type) {
		case *BoundAnd:
			return AndBound(visit(x.Left), visit(x.Right))
		case *BoundOr:
			return OrBound(visit(x.Left), visit(x.Right))
		case *BoundPredicate:
			for _, pair := range re.proj[x] {
				if pair.strict != nil && pair.strict.Eval(row) {
					return AlwaysTrue{}
				}
				if pair.inclusive != nil && !pair.inclusive.Eval(row) {
					return AlwaysFalse{}
				}
			}
		}
		return e
	}
	return visit(re.filter)
}
