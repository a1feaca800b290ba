package expr

import (
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// PartitionType is the struct of a spec's partition tuple: one field per
// partition field, typed by the transform's result for its source column.
func PartitionType(spec *iceberg.PartitionSpec, schema *iceberg.Schema) (*iceberg.StructType, error) {
	fields := make([]iceberg.NestedField, len(spec.Fields))
	for i, pf := range spec.Fields {
		src, ok := schema.FindFieldByID(pf.SourceID)
		if !ok {
			return nil, fmt.Errorf("%w: partition field %q: source field %d is not in the schema", iceberg.ErrInvalidPartitionSpec, pf.Name, pf.SourceID)
		}
		if pf.Transform == nil {
			return nil, fmt.Errorf("%w: partition field %q has no transform", iceberg.ErrInvalidPartitionSpec, pf.Name)
		}
		fields[i] = iceberg.NestedField{ID: pf.FieldID, Name: pf.Name, Type: pf.Transform.ResultType(src.Type)}
	}
	return &iceberg.StructType{FieldList: fields}, nil
}

// InclusiveProjection turns a filter bound to schema into a filter over
// spec's partition fields that is true for every partition that may hold a
// matching row (Java's Projections.inclusive). Predicates that no
// partition field can express become TRUE.
func InclusiveProjection(spec *iceberg.PartitionSpec, schema *iceberg.Schema, e BoundExpr) (BoundExpr, error) {
	return project(spec, schema, e, false)
}

// StrictProjection turns a filter bound to schema into a filter over
// spec's partition fields that is true only for partitions whose rows all
// match (Java's Projections.strict). Predicates that no partition field can
// guarantee become FALSE.
func StrictProjection(spec *iceberg.PartitionSpec, schema *iceberg.Schema, e BoundExpr) (BoundExpr, error) {
	return project(spec, schema, e, true)
}

func project(spec *iceberg.PartitionSpec, schema *iceberg.Schema, e BoundExpr, strict bool) (BoundExpr, error) {
	ptype, err := PartitionType(spec, schema)
	if err != nil {
		return nil, err
	}
	var visit func(BoundExpr) BoundExpr
	visit = func(e BoundExpr) BoundExpr {
		switch x := e.(type) {
		case *BoundAnd:
			return AndBound(visit(x.Left), visit(x.Right))
		case *BoundOr:
			return OrBound(visit(x.Left), visit(x.Right))
		case *BoundPredicate:
			var parts []BoundExpr
			for i, pf := range spec.Fields {
				if pf.SourceID != x.FieldID {
					continue
				}
				if pp := projectPredicate(pf, ptype.FieldList[i].Type, x, strict); pp != nil {
					parts = append(parts, pp)
				}
			}
			if strict {
				return OrBound(parts...)
			}
			return AndBound(parts...)
		}
		return e
	}
	return visit(e), nil
}

// projectPredicate projects one predicate through one partition field, or
// returns nil when the transform cannot express it.
func projectPredicate(pf iceberg.PartitionField, result iceberg.Type, p *BoundPredicate, strict bool) BoundExpr {
	rt, ok := result.(iceberg.PrimitiveType)
	if !ok {
		return nil
	}
	mk := func(op Op, lits ...any) BoundExpr {
		for _, l := range lits {
			if l == nil { // the transform could not apply to the literal
				return nil
			}
		}
		return &BoundPredicate{Op: op, FieldID: pf.FieldID, Name: pf.Name, Type: rt, Literals: lits}
	}
	if p.Op == OpIsNull || p.Op == OpNotNull {
		switch pf.Transform.(type) {
		case iceberg.VoidTransform, iceberg.UnknownTransform:
			return nil
		}
		return mk(p.Op) // every transform maps null to null and only null
	}
	switch t := pf.Transform.(type) {
	case iceberg.IdentityTransform:
		return mk(p.Op, p.Literals...)
	case iceberg.BucketTransform:
		return projectBucket(t, p, strict, mk)
	case iceberg.TruncateTransform:
		if isOrderedBytes(p.Type) {
			return projectTruncateBytes(t, p, strict, mk)
		}
		return projectByInteger(t, p, strict, mk)
	case iceberg.YearTransform, iceberg.MonthTransform, iceberg.DayTransform, iceberg.HourTransform:
		projected := projectByInteger(t, p, strict, mk)
		if bp, ok := projected.(*BoundPredicate); ok {
			if strict {
				return fixStrictTimeProjection(bp)
			}
			return fixInclusiveTimeProjection(bp)
		}
		return projected
	}
	return nil
}

type makePred func(op Op, lits ...any) BoundExpr

func applyAll(t iceberg.Transform, lits []any) []any {
	set := newLiteralSet()
	for _, l := range lits {
		v := t.Apply(l)
		if v == nil {
			return []any{nil}
		}
		set.add(v)
	}
	return set.values
}

func projectBucket(t iceberg.BucketTransform, p *BoundPredicate, strict bool, mk makePred) BoundExpr {
	switch {
	case !strict && p.Op == OpEq, strict && p.Op == OpNotEq:
		return mk(p.Op, t.Apply(p.Literal()))
	case !strict && p.Op == OpIn, strict && p.Op == OpNotIn:
		return mk(p.Op, applyAll(t, p.Literals)...)
	}
	return nil
}

// projectByInteger projects through an order-preserving transform of a
// discrete source (int, long, decimal, date, timestamp): open bounds are
// closed by stepping one unit, then transformed.
func projectByInteger(t iceberg.Transform, p *BoundPredicate, strict bool, mk makePred) BoundExpr {
	if p.Op == OpIn && !strict || p.Op == OpNotIn && strict {
		return mk(p.Op, applyAll(t, p.Literals)...)
	}
	v := p.Literal()
	step := func(d int64) any {
		s, ok := addUnits(v, d)
		if !ok {
			return nil
		}
		return t.Apply(s)
	}
	if !strict {
		switch p.Op {
		case OpLt:
			return mk(OpLtEq, step(-1))
		case OpLtEq:
			return mk(OpLtEq, t.Apply(v))
		case OpGt:
			return mk(OpGtEq, step(1))
		case OpGtEq:
			return mk(OpGtEq, t.Apply(v))
		case OpEq:
			return mk(OpEq, t.Apply(v))
		}
		return nil
	}
	switch p.Op {
	case OpLt:
		return mk(OpLt, t.Apply(v))
	case OpLtEq:
		return mk(OpLt, step(1))
	case OpGt:
		return mk(OpGt, t.Apply(v))
	case OpGtEq:
		return mk(OpGt, step(-1))
	case OpNotEq:
		return mk(OpNotEq, t.Apply(v))
	}
	return nil
}

func isOrderedBytes(t iceberg.Type) bool {
	switch t.(type) {
	case iceberg.StringType, iceberg.BinaryType:
		return true
	}
	return false
}

// projectTruncateBytes projects through truncate[W] of a string or binary.
// A string prefix of fewer than W code points survives truncation intact;
// one of exactly W is a whole partition value.
func projectTruncateBytes(t iceberg.TruncateTransform, p *BoundPredicate, strict bool, mk makePred) BoundExpr {
	v := p.Literal()
	if p.Op == OpStartsWith || p.Op == OpNotStartsWith {
		prefix, _ := v.(string)
		n := len([]rune(prefix))
		switch {
		case n < t.W:
			return mk(p.Op, prefix)
		case n == t.W && p.Op == OpStartsWith:
			return mk(OpEq, prefix)
		case n == t.W:
			return mk(OpNotEq, prefix)
		case p.Op == OpStartsWith && !strict:
			return mk(OpEq, t.Apply(prefix))
		case p.Op == OpNotStartsWith && strict:
			return mk(OpNotStartsWith, t.Apply(prefix))
		}
		return nil
	}
	if p.Op == OpIn && !strict || p.Op == OpNotIn && strict {
		return mk(p.Op, applyAll(t, p.Literals)...)
	}
	if !strict {
		switch p.Op {
		case OpLt, OpLtEq:
			return mk(OpLtEq, t.Apply(v))
		case OpGt, OpGtEq:
			return mk(OpGtEq, t.Apply(v))
		case OpEq:
			return mk(OpEq, t.Apply(v))
		}
		return nil
	}
	switch p.Op {
	case OpLt, OpLtEq:
		return mk(OpLt, t.Apply(v))
	case OpGt, OpGtEq:
		return mk(OpGt, t.Apply(v))
	case OpNotEq:
		return mk(OpNotEq, t.Apply(v))
	}
	return nil
}
