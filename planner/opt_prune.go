package planner

import (
	"slices"

	"github.com/icesql/icesql/sqlexec/exec"
)

// pruneColumns drops columns no ancestor reads, down to the scans' column
// lists, so tables read only what the query needs.
func pruneColumns(p Plan) (Plan, error) {
	all := make([]int, numColumns(p))
	for i := range all {
		all[i] = i
	}
	np, _ := prune(p, all)
	return np, nil
}

// prune rebuilds p to output at least the needed columns (sorted indexes
// into p's output) and returns where each old column now is (-1: gone).
func prune(p Plan, needed []int) (Plan, []int) {
	n := numColumns(p)
	identity := func() []int {
		m := make([]int, n)
		for i := range m {
			m[i] = i
		}
		return m
	}
	switch x := p.(type) {
	case *Project:
		var keep []Expr
		var cols []Column
		mapping := make([]int, n)
		for i := range mapping {
			mapping[i] = -1
		}
		for _, i := range needed {
			mapping[i] = len(keep)
			keep = append(keep, x.Exprs[i])
			cols = append(cols, x.Cols[i])
		}
		used := map[int]bool{}
		for _, e := range keep {
			columnsUsed(e, used)
		}
		in, m := prune(x.Input, sortedKeys(used))
		for i, e := range keep {
			keep[i] = remapColumns(e, toMap(m))
		}
		return &Project{Input: in, Exprs: keep, Cols: cols}, mapping
	case *Filter:
		used := setOf(needed)
		columnsUsed(x.Pred, used)
		in, m := prune(x.Input, sortedKeys(used))
		return &Filter{Input: in, Pred: remapColumns(x.Pred, toMap(m))}, m
	case *Sort:
		used := setOf(needed)
		for _, k := range x.Keys {
			columnsUsed(k.Expr, used)
		}
		in, m := prune(x.Input, sortedKeys(used))
		keys := make([]SortKey, len(x.Keys))
		for i, k := range x.Keys {
			keys[i] = k
			keys[i].Expr = remapColumns(k.Expr, toMap(m))
		}
		return &Sort{Input: in, Keys: keys}, m
	case *Limit:
		in, m := prune(x.Input, needed)
		c := *x
		c.Input = in
		return &c, m
	case *Scan:
		// Pushed filters read table columns; keep those in the output
		// too, but for filters the table applies exactly: nothing above
		// the scan evaluates those, and a column only they read is then
		// read for the filter alone (the Iceberg scan reuses its pages'
		// memory, and copies no value of it for the matching rows).
		var exact []bool
		if ef, ok := x.Table.(ExactFilterer); ok && len(x.Filters) > 0 {
			exact = ef.ExactFilters(ScanRequest{Filters: x.Filters, Limit: -1})
		}
		byTable := map[int]bool{}
		for i, f := range x.Filters {
			if i < len(exact) && exact[i] {
				continue
			}
			columnsUsed(f, byTable)
		}
		keepSet := setOf(needed)
		for i, col := range x.Cols {
			if byTable[col] {
				keepSet[i] = true
			}
		}
		needed = sortedKeys(keepSet)
		c := *x
		c.Cols = make([]int, 0, len(needed))
		mapping := make([]int, n)
		for i := range mapping {
			mapping[i] = -1
		}
		for _, i := range needed {
			mapping[i] = len(c.Cols)
			c.Cols = append(c.Cols, x.Cols[i])
		}
		return &c, mapping
	case *Aggregate:
		used := map[int]bool{}
		for _, e := range planExprs(x) {
			columnsUsed(e, used)
		}
		in, m := prune(x.Input, sortedKeys(used))
		np, _ := mapPlanExprs(x, func(e Expr) (Expr, error) { return remapColumns(e, toMap(m)), nil })
		agg := np.(*Aggregate)
		agg.Input = in
		return agg, identity()
	case *Window:
		// Keep every call; read only the input columns above or the window needs.
		nIn := numColumns(x.Input)
		used := map[int]bool{}
		for _, i := range needed {
			if i < nIn {
				used[i] = true
			}
		}
		for _, e := range windowExprs(x) {
			columnsUsed(e, used)
		}
		in, m := prune(x.Input, sortedKeys(used))
		np, _ := mapWindowExprs(x, func(e Expr) (Expr, error) { return remapColumns(e, toMap(m)), nil })
		w := np.(*Window)
		w.Input = in
		mapping := append([]int{}, m...)
		for j := range x.Calls {
			mapping = append(mapping, numColumns(in)+j)
		}
		return w, mapping
	case *Generate:
		return pruneGenerate(x, needed)
	case *Join:
		nLeft := numColumns(x.Left)
		lu, ru := map[int]bool{}, map[int]bool{}
		for _, i := range needed {
			if i < nLeft {
				lu[i] = true
			} else {
				ru[i-nLeft] = true
			}
		}
		for _, k := range x.LeftKeys {
			columnsUsed(k, lu)
		}
		for _, k := range x.RightKeys {
			columnsUsed(k, ru)
		}
		if x.Residual != nil {
			both := map[int]bool{}
			columnsUsed(x.Residual, both)
			for i := range both {
				if i < nLeft {
					lu[i] = true
				} else {
					ru[i-nLeft] = true
				}
			}
		}
		l, lm := prune(x.Left, sortedKeys(lu))
		r, rm := prune(x.Right, sortedKeys(ru))
		newLeft := numColumns(l)
		c := *x
		c.Left, c.Right = l, r
		c.LeftKeys = remapAll(x.LeftKeys, toMap(lm))
		c.RightKeys = remapAll(x.RightKeys, toMap(rm))
		mapping := append([]int{}, lm...)
		for _, v := range rm {
			if v >= 0 {
				v += newLeft
			}
			mapping = append(mapping, v)
		}
		if x.Residual != nil {
			c.Residual = remapColumns(x.Residual, toMap(mapping))
		}
		if x.Type == exec.JoinSemi || x.Type == exec.JoinAnti {
			mapping = lm
		} else {
			c.Unread = unreadColumns(newLeft+numColumns(r), needed, mapping)
		}
		return &c, mapping
	}
	// Distinct, SetOp, Values: every column matters
	kids := p.Children()
	if len(kids) > 0 {
		nk := make([]Plan, len(kids))
		for i, k := range kids {
			all := make([]int, numColumns(k))
			for j := range all {
				all[j] = j
			}
			nk[i], _ = prune(k, all)
		}
		p = withInputs(p, nk)
	}
	return p, identity()
}

// unreadColumns marks the n new output columns that no needed old column
// maps to (nil when every column is read).
func unreadColumns(n int, needed, mapping []int) []bool {
	unread := make([]bool, n)
	for i := range unread {
		unread[i] = true
	}
	for _, i := range needed {
		if i < len(mapping) && mapping[i] >= 0 {
			unread[mapping[i]] = false
		}
	}
	if !slices.Contains(unread, true) {
		return nil
	}
	return unread
}

func setOf(xs []int) map[int]bool {
	m := map[int]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func toMap(m []int) map[int]int {
	out := make(map[int]int, len(m))
	for i, v := range m {
		out[i] = v
	}
	return out
}

func remapAll(es []Expr, m map[int]int) []Expr {
	out := make([]Expr, len(es))
	for i, e := range es {
		out[i] = remapColumns(e, m)
	}
	return out
}
