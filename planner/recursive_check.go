package planner

import "github.com/icesql/icesql/sqlexec/exec"

// checkRecursiveTerm enforces where a recursive term may read its CTE
// (as PostgreSQL does): once, in FROM, not below an aggregate, window,
// DISTINCT, ORDER BY, LIMIT, INTERSECT/EXCEPT or on the nullable side of
// an outer join. Each of those would make an iteration's rows depend on
// the whole working table rather than on each row, which the iterative
// evaluation does not compute.
func checkRecursiveTerm(name string, self *selfRef, rec Plan) error {
	if n := max(self.refs, countWorkScans(rec, self.work)); n > 1 {
		return recursiveErr(name, "its recursive term references %s %d times; at most once is allowed", name, n)
	}
	path := pathToWorkScan(rec, self.work)
	if path == nil {
		return recursiveErr(name, "the reference to %s must not appear within a subquery", name)
	}
	for _, st := range path {
		var what string
		switch n := st.node.(type) {
		case *Aggregate:
			what = "aggregate functions and GROUP BY are"
		case *Window:
			what = "window functions are"
		case *Distinct:
			what = "DISTINCT is"
		case *Sort:
			what = "ORDER BY is"
		case *Limit:
			what = "LIMIT and OFFSET are"
		case *SetOp:
			if n.Kind != SetUnion {
				what = "INTERSECT and EXCEPT are"
			}
		case *Join:
			if n.Type == exec.JoinFull || (n.Type == exec.JoinLeft && st.child == 1) || (n.Type == exec.JoinRight && st.child == 0) {
				return recursiveErr(name, "the reference to %s must not be on the nullable side of an outer join", name)
			}
		}
		if what != "" {
			return recursiveErr(name, "%s not allowed over the reference to %s in its recursive term", what, name)
		}
	}
	return nil
}

// countWorkScans counts the scans of work in p, subqueries included.
func countWorkScans(p Plan, work *WorkTable) int {
	n := 0
	if ws, ok := p.(*WorkTableScan); ok && ws.Work == work {
		n++
	}
	for _, e := range planExprs(p) {
		walkExpr(e, func(x Expr) {
			if sq, ok := x.(interface{ base() *subqueryBase }); ok && sq.base().Plan != nil {
				n += countWorkScans(sq.base().Plan, work)
			}
		})
	}
	for _, c := range p.Children() {
		n += countWorkScans(c, work)
	}
	return n
}

// pathStep is a node on the way down to a work table scan and the
// index of the child the way continues in.
type pathStep struct {
	node  Plan
	child int
}

// pathToWorkScan returns the nodes from p down to a scan of work
// through plan children only (nil: none there).
func pathToWorkScan(p Plan, work *WorkTable) []pathStep {
	if ws, ok := p.(*WorkTableScan); ok && ws.Work == work {
		return []pathStep{}
	}
	for i, c := range p.Children() {
		if rest := pathToWorkScan(c, work); rest != nil {
			return append([]pathStep{{node: p, child: i}}, rest...)
		}
	}
	return nil
}
