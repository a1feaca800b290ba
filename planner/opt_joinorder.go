package planner

import (
	"math"
	"math/bits"

	"github.com/icesql/icesql/sqlexec/exec"
)

// RowEstimator is optionally implemented by Tables that know about how
// many rows they hold (an Iceberg table: its snapshot's record count,
// summed from the manifests). Join ordering uses it.
type RowEstimator interface {
	EstimatedRows() (int64, bool)
}

// orderJoins reorders each tree of inner joins (FROM a, b, c ... WHERE
// a.x = b.y, or INNER JOIN chains) so that no join step is a cross
// product while some equality predicate could connect it: greedily, from
// the smallest relation, it joins next the smallest relation connected
// to those already joined, each new relation on the build (right) side.
// It runs after filter pushdown, so the equalities are join keys by then;
// a tree is rebuilt only when the new order has fewer cross products, and
// a projection on top keeps the columns in the order the query had.
func orderJoins(p Plan) (Plan, error) {
	return transformPlanTopDown(p, reorderRegion), nil
}

// transformPlanTopDown applies f to p; where f leaves a node as it was,
// it descends into the node's children.
func transformPlanTopDown(p Plan, f func(Plan) (Plan, bool)) Plan {
	if np, ok := f(p); ok {
		// the new tree's leaves are the old region's leaves: visit them
		return descendLeaves(np, f)
	}
	kids := p.Children()
	if len(kids) == 0 {
		return p
	}
	nk := make([]Plan, len(kids))
	for i, k := range kids {
		nk[i] = transformPlanTopDown(k, f)
	}
	return withInputs(p, nk)
}

// descendLeaves continues the transform below a rebuilt region (a
// Project over inner joins).
func descendLeaves(p Plan, f func(Plan) (Plan, bool)) Plan {
	switch n := p.(type) {
	case *Project:
		c := *n
		c.Input = descendLeaves(n.Input, f)
		return &c
	case *Join:
		if n.Type == exec.JoinInner {
			c := *n
			c.Left, c.Right = descendLeaves(n.Left, f), descendLeaves(n.Right, f)
			return &c
		}
	}
	return transformPlanTopDown(p, f)
}

// joinRegion is a tree of inner joins flattened: its leaves, where each
// leaf's columns start in the tree's output, and its join predicates over
// that output.
type joinRegion struct {
	leaves []Plan
	offset []int
	preds  []Expr
	ok     bool
}

func (r *joinRegion) collect(p Plan, base int) {
	j, isJoin := p.(*Join)
	if !isJoin || j.Type != exec.JoinInner || j.NullAware {
		r.leaves = append(r.leaves, p)
		r.offset = append(r.offset, base)
		return
	}
	nLeft := numColumns(j.Left)
	for i := range j.LeftKeys {
		l := shiftColumns(j.LeftKeys[i], base)
		rk := shiftColumns(j.RightKeys[i], base+nLeft)
		r.preds = append(r.preds, &Compare{Op: exec.CmpEQ, L: l, R: rk})
	}
	if j.Residual != nil {
		if hasSubquery(j.Residual) {
			r.ok = false
		}
		r.preds = append(r.preds, splitConjuncts(shiftColumns(j.Residual, base))...)
	}
	r.collect(j.Left, base)
	r.collect(j.Right, base+nLeft)
}

// leafOf is the leaf whose columns hold global column g.
func (r *joinRegion) leafOf(g int) int {
	for i := len(r.offset) - 1; i >= 0; i-- {
		if g >= r.offset[i] {
			return i
		}
	}
	return 0
}

// rels is the set of leaves e reads, as a bit set.
func (r *joinRegion) rels(e Expr) uint64 {
	var s uint64
	walkExpr(e, func(x Expr) {
		if c, ok := x.(*ColumnRef); ok {
			s |= 1 << r.leafOf(c.Index)
		}
	})
	return s
}

// maxJoinLeaves bounds a region to what one bit set holds.
const maxJoinLeaves = 64

func reorderRegion(p Plan) (Plan, bool) {
	j, ok := p.(*Join)
	if !ok || j.Type != exec.JoinInner {
		return p, false
	}
	r := &joinRegion{ok: true}
	r.collect(j, 0)
	n := len(r.leaves)
	if !r.ok || n < 3 || n > maxJoinLeaves {
		return p, false
	}
	predRels := make([]uint64, len(r.preds))
	for i, e := range r.preds {
		predRels[i] = r.rels(e)
	}
	// edges: equality predicates between exactly two leaves
	connected := func(set uint64, leaf int) bool {
		for i, e := range r.preds {
			c, ok := e.(*Compare)
			if !ok || c.Op != exec.CmpEQ || bits.OnesCount64(predRels[i]) != 2 {
				continue
			}
			if predRels[i]&(1<<leaf) != 0 && predRels[i]&set != 0 {
				return true
			}
		}
		return false
	}
	crossSteps := func(order []int) int {
		var set uint64 = 1 << order[0]
		k := 0
		for _, l := range order[1:] {
			if !connected(set, l) {
				k++
			}
			set |= 1 << l
		}
		return k
	}
	est := make([]float64, n)
	for i, l := range r.leaves {
		est[i] = estimateRows(l)
	}
	order := greedyOrder(n, est, connected)
	orig := make([]int, n)
	for i := range orig {
		orig[i] = i
	}
	if crossSteps(order) >= crossSteps(orig) {
		return p, false
	}
	return r.build(order, predRels, j.Columns()), true
}

// greedyOrder starts from the smallest leaf and adds, each step, the
// smallest leaf connected to those taken (the smallest of all when none
// is), ties going to the earlier leaf.
func greedyOrder(n int, est []float64, connected func(uint64, int) bool) []int {
	var set uint64
	order := make([]int, 0, n)
	for len(order) < n {
		best, bestConn := -1, false
		for l := 0; l < n; l++ {
			if set&(1<<l) != 0 {
				continue
			}
			conn := len(order) > 0 && connected(set, l)
			if best < 0 || (conn && !bestConn) || (conn == bestConn && est[l] < est[best]) {
				best, bestConn = l, conn
			}
		}
		order = append(order, best)
		set |= 1 << best
	}
	return order
}

// build makes the left-deep join tree of the leaves in order, each
// predicate placed at the first join that has all its columns, under a
// projection restoring the original column order.
func (r *joinRegion) build(order []int, predRels []uint64, cols []Column) Plan {
	// global column -> position in the new tree's output
	pos := map[int]int{}
	width := 0
	for _, l := range order {
		w := len(r.leaves[l].Columns())
		for k := 0; k < w; k++ {
			pos[r.offset[l]+k] = width + k
		}
		width += w
	}
	placed := make([]bool, len(r.preds))
	var cur Plan = r.leaves[order[0]]
	var set uint64 = 1 << order[0]
	var top []Expr // predicates reading no leaf (constants)
	for i, rs := range predRels {
		if rs == 0 {
			top = append(top, remapColumns(r.preds[i], pos))
			placed[i] = true
		}
	}
	for _, l := range order[1:] {
		nLeft := numColumns(cur)
		set |= 1 << l
		var conds []Expr
		for i, rs := range predRels {
			if !placed[i] && rs&^set == 0 {
				conds = append(conds, remapColumns(r.preds[i], pos))
				placed[i] = true
			}
		}
		j := &Join{Left: cur, Right: r.leaves[l], Type: exec.JoinInner}
		if len(conds) > 0 {
			splitJoinCondition(j, conjoin(conds), nLeft)
		}
		cur = j
	}
	cur = wrapFilter(cur, top)
	exprs := make([]Expr, len(cols))
	for g, c := range cols {
		exprs[g] = &ColumnRef{Index: pos[g], Name: c.Name, Type: c.Type}
	}
	return &Project{Input: cur, Exprs: exprs, Cols: cols}
}

// estimateRows guesses a leaf's row count: a scan's table estimate, cut
// by its filters (an equality keeps a tenth, anything else a third);
// 1000 when nothing is known.
func estimateRows(p Plan) float64 {
	switch n := p.(type) {
	case *Scan:
		rows := 1000.0
		if e, ok := n.Table.(RowEstimator); ok {
			if v, ok := e.EstimatedRows(); ok {
				rows = float64(v)
			}
		}
		for _, f := range n.Filters {
			rows *= selectivity(f)
		}
		return math.Max(rows, 1)
	case *Filter:
		rows := estimateRows(n.Input)
		for _, f := range splitConjuncts(n.Pred) {
			rows *= selectivity(f)
		}
		return math.Max(rows, 1)
	case *Project:
		return estimateRows(n.Input)
	case *Values:
		return float64(len(n.Rows))
	}
	return 1000
}

func selectivity(e Expr) float64 {
	if c, ok := e.(*Compare); ok && c.Op == exec.CmpEQ {
		return 0.1
	}
	return 1.0 / 3
}
