package planner

import (
	"github.com/icesql/icesql/sqlexec/exec"
)

// pushDownFilters moves predicates as close to the scans as they can go:
// through projections (substituting the projected expressions), sorts,
// distincts and into the sides of joins, and finally into Scan.Filters.
// Predicates holding subqueries stay where the binder put them.
func pushDownFilters(p Plan) (Plan, error) {
	return pushInto(p, nil), nil
}

func hasSubquery(e Expr) bool {
	found := false
	walkExpr(e, func(x Expr) {
		if _, ok := x.(subqueryExpr); ok {
			found = true
		}
	})
	return found
}

func wrapFilter(p Plan, preds []Expr) Plan {
	if len(preds) == 0 {
		return p
	}
	return &Filter{Input: p, Pred: conjoin(preds)}
}

func pushInto(p Plan, preds []Expr) Plan {
	var movable, stuck []Expr
	for _, e := range preds {
		if hasSubquery(e) {
			stuck = append(stuck, e)
		} else {
			movable = append(movable, e)
		}
	}
	switch n := p.(type) {
	case *Filter:
		var own []Expr
		for _, c := range splitConjuncts(n.Pred) {
			if hasSubquery(c) {
				stuck = append(stuck, c)
			} else {
				movable = append(movable, c)
			}
		}
		own = stuck
		return wrapFilter(pushInto(n.Input, movable), own)
	case *Project:
		var down []Expr
		for _, e := range movable {
			down = append(down, substitute(e, n.Exprs))
		}
		c := *n
		c.Input = pushInto(n.Input, down)
		return wrapFilter(&c, stuck)
	case *Sort:
		c := *n
		c.Input = pushInto(n.Input, movable)
		return wrapFilter(&c, stuck)
	case *Distinct:
		return wrapFilter(&Distinct{Input: pushInto(n.Input, movable)}, stuck)
	case *Join:
		return wrapFilter(pushIntoJoin(n, movable), stuck)
	case *Generate:
		return wrapFilter(pushIntoGenerate(n, movable), stuck)
	case *Scan:
		c := *n
		c.Filters = append([]Expr{}, n.Filters...)
		for _, e := range movable {
			pos := map[int]int{}
			for i, col := range n.Cols {
				pos[i] = col
			}
			c.Filters = append(c.Filters, remapColumns(e, pos))
		}
		return wrapFilter(&c, stuck)
	}
	kids := p.Children()
	if len(kids) > 0 {
		nk := make([]Plan, len(kids))
		for i, k := range kids {
			nk[i] = pushInto(k, nil)
		}
		p = withInputs(p, nk)
	}
	return wrapFilter(p, preds)
}

// substitute replaces references to a projection's outputs by the
// projected expressions.
func substitute(e Expr, exprs []Expr) Expr {
	out, _ := transformExpr(e, func(x Expr) (Expr, error) {
		if c, ok := x.(*ColumnRef); ok {
			return exprs[c.Index], nil
		}
		return x, nil
	})
	return out
}

func pushIntoJoin(j *Join, preds []Expr) Plan {
	nLeft := numColumns(j.Left)
	var left, right, above []Expr
	// a predicate above an outer join may only move to the side whose
	// rows the join preserves
	canLeft := j.Type == exec.JoinInner || j.Type == exec.JoinLeft || j.Type == exec.JoinSemi || j.Type == exec.JoinAnti
	canRight := j.Type == exec.JoinInner || j.Type == exec.JoinRight
	for _, e := range preds {
		switch side(e, nLeft) {
		case sideLeft, sideNone:
			if canLeft {
				left = append(left, e)
				continue
			}
		case sideRight:
			if canRight {
				right = append(right, e)
				continue
			}
		}
		above = append(above, e)
	}
	c := *j
	if j.Type == exec.JoinInner && len(above) > 0 {
		// inner join: cross-side predicates become join conditions
		var rest []Expr
		if j.Residual != nil {
			rest = append(rest, j.Residual)
		}
		tmp := &Join{Left: j.Left, Right: j.Right, Type: j.Type}
		splitJoinCondition(tmp, conjoin(above), nLeft)
		c.LeftKeys = append(append([]Expr{}, j.LeftKeys...), tmp.LeftKeys...)
		c.RightKeys = append(append([]Expr{}, j.RightKeys...), tmp.RightKeys...)
		if tmp.Residual != nil {
			rest = append(rest, tmp.Residual)
		}
		c.Residual = conjoin(rest)
		above = nil
	}
	// the inner side of left/semi/anti joins: ON-clause conjuncts that
	// read only the right side filter it before the join
	var rightOwn []Expr
	if c.Residual != nil && (j.Type == exec.JoinLeft || j.Type == exec.JoinSemi || j.Type == exec.JoinAnti || j.Type == exec.JoinInner) {
		var keep []Expr
		for _, r := range splitConjuncts(c.Residual) {
			if !hasSubquery(r) && side(r, nLeft) == sideRight {
				rightOwn = append(rightOwn, shiftColumns(r, -nLeft))
			} else {
				keep = append(keep, r)
			}
		}
		c.Residual = conjoin(keep)
	}
	for _, r := range right {
		rightOwn = append(rightOwn, shiftColumns(r, -nLeft))
	}
	c.Left = pushInto(j.Left, left)
	c.Right = pushInto(j.Right, rightOwn)
	return wrapFilter(&c, above)
}
