package sqlexec

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/icesql/icesql/planner"
)

// planWalk lists a plan's literals in a fixed order with a shape string
// of everything else, so that two plans of one statement bound with
// different arguments can be compared literal by literal. A node or
// expression it does not know (subqueries keep results between runs)
// makes the plan unsuitable for reuse.
type planWalk struct {
	lits  []*planner.Literal
	shape strings.Builder
	ok    bool
}

func walkPlan(p planner.Plan) *planWalk {
	w := &planWalk{ok: true}
	w.plan(p)
	return w
}

func (w *planWalk) plan(p planner.Plan) {
	if !w.ok {
		return
	}
	fmt.Fprintf(&w.shape, "%T(", p)
	switch n := p.(type) {
	case *planner.Scan:
		fmt.Fprintf(&w.shape, "%s %v %d", n.Table.Name(), n.Cols, n.Limit)
		w.exprs(n.Filters)
	case *planner.Filter:
		w.expr(n.Pred)
	case *planner.Project:
		w.exprs(n.Exprs)
	case *planner.Aggregate:
		w.exprs(n.Groups)
		for _, a := range n.Aggs {
			fmt.Fprintf(&w.shape, "%v %v ", a.Func, a.Distinct)
			if a.Arg != nil {
				w.expr(a.Arg)
			}
		}
	case *planner.Sort:
		for _, k := range n.Keys {
			fmt.Fprintf(&w.shape, "%v %v ", k.Desc, k.NullsFirst)
			w.expr(k.Expr)
		}
	case *planner.Limit:
		fmt.Fprintf(&w.shape, "%d %d", n.Offset, n.Count)
	case *planner.Distinct:
	case *planner.Join:
		fmt.Fprintf(&w.shape, "%v %v ", n.Type, n.NullAware)
		w.exprs(n.LeftKeys)
		w.exprs(n.RightKeys)
		if n.Residual != nil {
			w.expr(n.Residual)
		}
	case *planner.SetOp:
		fmt.Fprintf(&w.shape, "%v %v", n.Kind, n.All)
	case *planner.Values:
		for _, r := range n.Rows {
			w.exprs(r)
		}
	case *planner.MetadataAggregate:
		fmt.Fprintf(&w.shape, "%s %v", n.Table.Name(), n.Aggs)
	default:
		w.ok = false
		return
	}
	for _, c := range p.Children() {
		w.plan(c)
	}
	w.shape.WriteString(")")
}

func (w *planWalk) exprs(es []planner.Expr) {
	for _, e := range es {
		w.expr(e)
	}
}

func (w *planWalk) expr(e planner.Expr) {
	if !w.ok {
		return
	}
	fmt.Fprintf(&w.shape, "%T[", e)
	switch x := e.(type) {
	case *planner.Literal:
		w.lits = append(w.lits, x)
	case *planner.ColumnRef:
		fmt.Fprintf(&w.shape, "%d", x.Index)
	case *planner.Compare:
		fmt.Fprintf(&w.shape, "%v", x.Op)
		w.expr(x.L)
		w.expr(x.R)
	case *planner.Arith:
		fmt.Fprintf(&w.shape, "%v", x.Op)
		w.expr(x.L)
		w.expr(x.R)
	case *planner.DecimalArith:
		fmt.Fprintf(&w.shape, "%v %v", x.Op, x.Type)
		w.expr(x.L)
		w.expr(x.R)
	case *planner.Logic:
		fmt.Fprintf(&w.shape, "%v", x.Or)
		w.expr(x.L)
		w.expr(x.R)
	case *planner.Not:
		w.expr(x.E)
	case *planner.IsNull:
		fmt.Fprintf(&w.shape, "%v", x.Negate)
		w.expr(x.E)
	case *planner.Cast:
		fmt.Fprintf(&w.shape, "%v", x.To)
		w.expr(x.E)
	case *planner.Call:
		if x.Volatile {
			w.ok = false
			return
		}
		fmt.Fprintf(&w.shape, "%s", x.Name)
		w.exprs(x.Args)
	case *planner.Case:
		w.exprs(x.Whens)
		w.exprs(x.Thens)
		if x.Else != nil {
			w.expr(x.Else)
		}
	case *planner.InList:
		fmt.Fprintf(&w.shape, "%v", x.Negate)
		w.expr(x.E)
		w.exprs(x.List)
	default:
		w.ok = false
		return
	}
	w.shape.WriteString("]")
}

// literalSite is a literal of a plan that stands for a placeholder.
type literalSite struct {
	param int
	lit   *planner.Literal
}

// matchSites compares the walks of one statement planned with two sets
// of distinct probe arguments (already in each literal's type by
// probeAs). Literals equal in both are constants; every other literal
// must be exactly one placeholder's probe in both, or the plan depends
// on the arguments in a way substitution cannot reproduce. Each
// placeholder must stand somewhere (a placeholder folded away, as in
// WHERE ? = 1, would freeze its first value).
func matchSites(a, b *planWalk, n int, probeAs func(set, param int, lit *planner.Literal) (any, bool)) ([]literalSite, bool) {
	if !a.ok || !b.ok || a.shape.String() != b.shape.String() || len(a.lits) != len(b.lits) {
		return nil, false
	}
	var sites []literalSite
	seen := make([]bool, n)
	for k, la := range a.lits {
		lb := b.lits[k]
		if !reflect.DeepEqual(la.Type, lb.Type) {
			return nil, false
		}
		if reflect.DeepEqual(la.Value, lb.Value) {
			continue
		}
		found := -1
		for i := 0; i < n && found < 0; i++ {
			va, okA := probeAs(0, i, la)
			vb, okB := probeAs(1, i, lb)
			if okA && okB && reflect.DeepEqual(va, la.Value) && reflect.DeepEqual(vb, lb.Value) {
				found = i
			}
		}
		if found < 0 {
			return nil, false
		}
		seen[found] = true
		sites = append(sites, literalSite{param: found, lit: la})
	}
	for _, s := range seen {
		if !s {
			return nil, false
		}
	}
	return sites, true
}
