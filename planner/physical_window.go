package planner

import (
	"fmt"

	"github.com/icesql/icesql/sqlexec/exec"
)

// windowRowLimit returns k when pred, a filter right above w, keeps only
// rows whose row_number() is at most k (rn = k, rn <= k, rn < k+1, as
// one conjunct); 0 when it does not say so. The window may then leave
// out every other row of each partition (the filter stays).
func windowRowLimit(pred Expr, w *Window) int64 {
	base := len(w.Input.Columns())
	var limit int64
	var walk func(e Expr)
	walk = func(e Expr) {
		switch x := e.(type) {
		case *Logic:
			if !x.Or {
				walk(x.L)
				walk(x.R)
			}
		case *Compare:
			k := rowNumberBound(x, w, base)
			if k > 0 && (limit == 0 || k < limit) {
				limit = k
			}
		}
	}
	walk(pred)
	return limit
}

// rowNumberBound is the k of one comparison of a row_number column with
// an integer literal that keeps rows rn <= k only (0: none such).
func rowNumberBound(c *Compare, w *Window, base int) int64 {
	op := c.Op
	col, lit := c.L, c.R
	if _, ok := col.(*Literal); ok {
		col, lit = lit, col
		switch op {
		case exec.CmpLT:
			op = exec.CmpGT
		case exec.CmpLE:
			op = exec.CmpGE
		case exec.CmpGT:
			op = exec.CmpLT
		case exec.CmpGE:
			op = exec.CmpLE
		}
	}
	ref, ok := col.(*ColumnRef)
	if !ok || ref.Index < base || ref.Index >= base+len(w.Calls) || w.Calls[ref.Index-base].Func != exec.WinRowNumber {
		return 0
	}
	l, ok := lit.(*Literal)
	if !ok {
		return 0
	}
	var v int64
	switch x := l.Value.(type) {
	case int64:
		v = x
	case int32:
		v = int64(x)
	default:
		return 0
	}
	switch op {
	case exec.CmpEQ, exec.CmpLE:
		return max(v, 0)
	case exec.CmpLT:
		return max(v-1, 0)
	}
	return 0
}

// childNote is what EXPLAIN adds to child c of p: a window under a
// filter on its row number is built row-limited (windowLimited), and
// then, when partitioned with row_number calls only, reduced to each
// partition's top rows as it reads (exec's top-N reduction).
func childNote(p, c Plan) string {
	f, ok := p.(*Filter)
	w, ok2 := c.(*Window)
	if !ok || !ok2 {
		return ""
	}
	k := windowRowLimit(f.Pred, w)
	if k <= 0 {
		return ""
	}
	note := fmt.Sprintf(" row_limit=%d", k)
	for _, call := range w.Calls {
		if call.Func != exec.WinRowNumber {
			return note
		}
	}
	if len(w.Partition) > 0 && k <= exec.WindowTopNMaxRows {
		note += " top-n per partition"
	}
	return note
}
