package planner

import "github.com/icesql/icesql/sqlexec/exec"

// probeWithWorkTable swaps the inputs of inner joins in a recursive term
// whose right (build) input reads the working table and whose left does
// not, so the invariant input is hashed once for every step and the
// working table, usually the smaller, probes it (recursive_physical.go).
// A projection restores the column order.
func probeWithWorkTable(rec Plan, work *WorkTable) Plan {
	out, _ := transformPlan(rec, func(p Plan) (Plan, error) {
		j, ok := p.(*Join)
		if !ok || j.Type != exec.JoinInner || j.NullAware ||
			countWorkScans(j.Left, work) > 0 || countWorkScans(j.Right, work) == 0 {
			return p, nil
		}
		lc, rc := j.Left.Columns(), j.Right.Columns()
		nL, nR := len(lc), len(rc)
		swapped := &Join{Left: j.Right, Right: j.Left, Type: exec.JoinInner, LeftKeys: j.RightKeys, RightKeys: j.LeftKeys}
		if j.Residual != nil {
			pos := make(map[int]int, nL+nR)
			for i := 0; i < nL; i++ {
				pos[i] = nR + i
			}
			for i := 0; i < nR; i++ {
				pos[nL+i] = i
			}
			swapped.Residual = remapColumns(j.Residual, pos)
		}
		cols := j.Columns()
		exprs := make([]Expr, len(cols))
		for i, c := range cols {
			idx := nR + i
			if i >= nL {
				idx = i - nL
			}
			exprs[i] = &ColumnRef{Index: idx, Name: c.Name, Type: c.Type}
		}
		return &Project{Input: swapped, Exprs: exprs, Cols: cols}, nil
	})
	return out
}
