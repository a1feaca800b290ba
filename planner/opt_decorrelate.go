package planner

import (
	"github.com/icesql/icesql/sqlexec/exec"
)

// decorrelate turns subqueries into joins where the shape allows:
// top-level [NOT] EXISTS and [NOT] IN conjuncts of a filter become semi
// and anti joins, and correlated scalar subqueries that aggregate under
// equality correlation become a left join with the grouped subquery.
// Everything else keeps the per-row evaluation.
func decorrelate(p Plan) (Plan, error) {
	return transformPlan(p, func(n Plan) (Plan, error) {
		switch x := n.(type) {
		case *Filter:
			return decorrelateFilter(x), nil
		case *Project:
			input, exprs := decorrelateScalars(x.Input, x.Exprs)
			if input == x.Input {
				return x, nil
			}
			return &Project{Input: input, Exprs: exprs, Cols: x.Cols}, nil
		}
		return n, nil
	})
}

func decorrelateFilter(f *Filter) Plan {
	input := f.Input
	var rest []Expr
	for _, c := range splitConjuncts(f.Pred) {
		if j := semiJoinFor(input, c); j != nil {
			input = j
			continue
		}
		rest = append(rest, c)
	}
	if len(rest) == 0 {
		return input
	}
	cols := f.Input.Columns()
	withScalars, preds := decorrelateScalars(input, rest)
	if withScalars == input {
		return &Filter{Input: input, Pred: conjoin(rest)}
	}
	// drop the columns the scalar joins appended
	return &Project{Input: &Filter{Input: withScalars, Pred: conjoin(preds)}, Exprs: toPlanExprs(allColumnRefs(cols)), Cols: cols}
}

func toPlanExprs(es []exec.Expr) []Expr {
	out := make([]Expr, len(es))
	for i, e := range es {
		out[i] = e.(Expr)
	}
	return out
}

// semiJoinFor rewrites one filter conjunct into a semi or anti join of
// input, or returns nil.
func semiJoinFor(input Plan, c Expr) Plan {
	notIn := false
	if n, ok := c.(*Not); ok {
		if in, ok := n.E.(*InSubquery); ok && !in.Negate {
			c, notIn = in, true
		}
	}
	switch x := c.(type) {
	case *Exists:
		if x.Correlated == nil {
			return nil // evaluated once and cached
		}
		t := exec.JoinSemi
		if x.Negate {
			t = exec.JoinAnti
		}
		return subqueryJoin(input, &x.subqueryBase, t, nil, false)
	case *InSubquery:
		notIn = notIn || x.Negate
		t := exec.JoinSemi
		if notIn {
			t = exec.JoinAnti
		}
		return subqueryJoin(input, &x.subqueryBase, t, x.E, notIn)
	}
	return nil
}

// subqueryJoin joins input with a subquery of shape Project* [Filter] X,
// where only the filter reads the outer row. inExpr (over input) is the
// IN operand, compared with the subquery's single column.
func subqueryJoin(input Plan, sq *subqueryBase, t exec.JoinType, inExpr Expr, notIn bool) Plan {
	var value Expr = &ColumnRef{Index: 0, Type: sq.Plan.Columns()[0].Type}
	inner := sq.Plan
	for {
		pr, ok := inner.(*Project)
		if !ok {
			break
		}
		if usesSlot(pr.Exprs, sq.Correlated) {
			return nil
		}
		value = substitute(value, pr.Exprs)
		inner = pr.Input
	}
	if inner == sq.Plan {
		return nil
	}
	corr, keep, ok := splitCorrelated(&inner, sq.Correlated)
	if !ok {
		return nil
	}
	nLeft := numColumns(input)
	right := inner
	if len(keep) > 0 {
		right = &Filter{Input: inner, Pred: conjoin(keep)}
	}
	j := &Join{Left: input, Right: right, Type: t}
	var conds []Expr
	for _, c := range corr {
		conds = append(conds, toJoinSide(c, sq, nLeft))
	}
	if inExpr != nil {
		v := shiftColumns(value, nLeft)
		switch {
		case notIn && sq.Correlated == nil:
			// NOT IN over a fixed set: the null-aware anti join
			j.NullAware = true
			conds = append(conds, &Compare{Op: exec.CmpEQ, L: inExpr, R: v})
		case notIn:
			// a NULL on either side means "maybe in": the row goes
			conds = append(conds, &Logic{Or: true, L: &Logic{Or: true,
				L: &Compare{Op: exec.CmpEQ, L: inExpr, R: v}, R: &IsNull{E: inExpr}}, R: &IsNull{E: v}})
		default:
			conds = append(conds, &Compare{Op: exec.CmpEQ, L: inExpr, R: v})
		}
	}
	if len(conds) > 0 {
		splitJoinCondition(j, conjoin(conds), nLeft)
	}
	if j.NullAware && (len(j.LeftKeys) != 1 || j.Residual != nil) {
		return nil
	}
	return j
}

// splitCorrelated takes the filter off *inner, if any, and splits its
// conjuncts into those reading the outer row and the rest. It fails if
// anything else below reads the outer row or a correlated conjunct holds
// a subquery.
func splitCorrelated(inner *Plan, slot *OuterRow) (corr, keep []Expr, ok bool) {
	if f, isFilter := (*inner).(*Filter); isFilter {
		for _, c := range splitConjuncts(f.Pred) {
			if slot != nil && usesSlot([]Expr{c}, slot) {
				if hasSubquery(c) {
					return nil, nil, false
				}
				corr = append(corr, c)
			} else {
				keep = append(keep, c)
			}
		}
		*inner = f.Input
	}
	if slot != nil && planUsesSlot(*inner, slot) {
		return nil, nil, false
	}
	return corr, keep, true
}

// toJoinSide rewrites a correlated predicate over the subquery's input
// into one over input++subquery columns.
func toJoinSide(e Expr, sq *subqueryBase, nLeft int) Expr {
	out, _ := transformExpr(e, func(x Expr) (Expr, error) {
		switch r := x.(type) {
		case *ColumnRef:
			return &ColumnRef{Index: r.Index + nLeft, Name: r.Name, Type: r.Type}, nil
		case *OuterRef:
			if r.Slot == sq.Correlated {
				return sq.OuterCols[r.Index], nil
			}
		}
		return x, nil
	})
	return out
}

func usesSlot(es []Expr, slot *OuterRow) bool {
	found := false
	for _, e := range es {
		walkExpr(e, func(x Expr) {
			if r, ok := x.(*OuterRef); ok && r.Slot == slot {
				found = true
			}
			if sq, ok := x.(interface{ base() *subqueryBase }); ok && planUsesSlot(sq.base().Plan, slot) {
				found = true
			}
		})
	}
	return found
}

func planUsesSlot(p Plan, slot *OuterRow) bool {
	if usesSlot(planExprs(p), slot) {
		return true
	}
	for _, c := range p.Children() {
		if planUsesSlot(c, slot) {
			return true
		}
	}
	return false
}

func (s *subqueryBase) base() *subqueryBase { return s }

// decorrelateScalars replaces correlated scalar subqueries in exprs (over
// input) by columns of left joins appended to input. It returns input
// itself when nothing changed.
func decorrelateScalars(input Plan, exprs []Expr) (Plan, []Expr) {
	out := make([]Expr, len(exprs))
	for i, e := range exprs {
		out[i], _ = transformExpr(e, func(x Expr) (Expr, error) {
			sq, ok := x.(*ScalarSubquery)
			if !ok || sq.Correlated == nil {
				return x, nil
			}
			j, value := scalarJoin(input, &sq.subqueryBase)
			if j == nil {
				return x, nil
			}
			input = j
			return value, nil
		})
	}
	return input, out
}

// scalarJoin handles Project(agg column) over an ungrouped Aggregate over
// a filter whose correlated conjuncts are inner = outer equalities: the
// aggregate is grouped by the inner sides and left-joined on them.
func scalarJoin(input Plan, sq *subqueryBase) (Plan, Expr) {
	pr, ok := sq.Plan.(*Project)
	if !ok || len(pr.Exprs) != 1 {
		return nil, nil
	}
	ref, ok := pr.Exprs[0].(*ColumnRef)
	agg, ok2 := pr.Input.(*Aggregate)
	if !ok || !ok2 || len(agg.Groups) != 0 || ref.Index >= len(agg.Aggs) {
		return nil, nil
	}
	var args []Expr
	for _, a := range agg.Aggs {
		if a.Arg != nil {
			args = append(args, a.Arg)
		}
	}
	if usesSlot(args, sq.Correlated) {
		return nil, nil
	}
	inner := agg.Input
	corr, keep, ok := splitCorrelated(&inner, sq.Correlated)
	if !ok || len(corr) == 0 {
		return nil, nil
	}
	var outerKeys, innerKeys []Expr
	for _, c := range corr {
		cmp, ok := c.(*Compare)
		if !ok || cmp.Op != exec.CmpEQ {
			return nil, nil
		}
		l, r := cmp.L, cmp.R
		if onlyOuter(l, sq.Correlated) {
			l, r = r, l
		}
		if !onlyOuter(r, sq.Correlated) || usesSlot([]Expr{l}, sq.Correlated) || hasSubquery(l) {
			return nil, nil
		}
		innerKeys = append(innerKeys, l)
		outerKeys = append(outerKeys, toJoinSide(r, sq, 0))
	}
	if len(keep) > 0 {
		inner = &Filter{Input: inner, Pred: conjoin(keep)}
	}
	cols := make([]Column, 0, len(innerKeys)+len(agg.Aggs))
	for _, k := range innerKeys {
		name := k.String()
		if c, ok := k.(*ColumnRef); ok {
			name = c.Name
		}
		cols = append(cols, Column{Name: name, Type: k.DataType(), Nullable: true})
	}
	cols = append(cols, agg.Cols...)
	grouped := &Aggregate{Input: inner, Groups: innerKeys, Aggs: agg.Aggs, Cols: cols}
	rightKeys := make([]Expr, len(innerKeys))
	for i, k := range innerKeys {
		rightKeys[i] = &ColumnRef{Index: i, Name: cols[i].Name, Type: k.DataType()}
	}
	nLeft := numColumns(input)
	j := &Join{Left: input, Right: grouped, Type: exec.JoinLeft, LeftKeys: outerKeys, RightKeys: rightKeys}
	a := agg.Aggs[ref.Index]
	var value Expr = &ColumnRef{Index: nLeft + len(innerKeys) + ref.Index, Name: ref.Name, Type: a.Type}
	if a.Func == exec.AggCount || a.Func == exec.AggCountStar {
		// a group with no rows counts 0, not NULL
		value = coalesceExpr([]Expr{value, &Literal{Value: int64(0), Type: typeLong}}, typeLong)
	}
	return j, value
}

// onlyOuter reports whether e reads the outer row and no input column.
func onlyOuter(e Expr, slot *OuterRow) bool {
	outer, cols := false, false
	walkExpr(e, func(x Expr) {
		switch r := x.(type) {
		case *OuterRef:
			outer = outer || r.Slot == slot
		case *ColumnRef:
			cols = true
		case subqueryExpr:
			cols = true
		}
	})
	return outer && !cols
}
