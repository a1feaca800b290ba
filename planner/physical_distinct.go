package planner

// distinctAsGroups rewrites an aggregate whose calls are all DISTINCT
// over one argument, agg(DISTINCT x) ... GROUP BY g, into agg(x) over
// (SELECT g, x ... GROUP BY g, x) GROUP BY g: the inner grouping runs on
// every core (parallelAggregate) where distinct accumulators do not.
// NULLs of x form one inner group and the outer aggregate skips them, as
// DISTINCT does. It returns nil for any other aggregate.
func distinctAsGroups(n *Aggregate) *Aggregate {
	if len(n.Aggs) == 0 {
		return nil
	}
	arg := n.Aggs[0].Arg
	if arg == nil {
		return nil
	}
	for _, a := range n.Aggs {
		if !a.Distinct || a.Arg == nil || a.Arg.String() != arg.String() {
			return nil
		}
	}
	g := len(n.Groups)
	innerCols := append(append([]Column{}, n.Cols[:g]...), Column{Name: "distinct_arg", Type: arg.DataType(), Nullable: true})
	inner := &Aggregate{Input: n.Input, Groups: append(append([]Expr{}, n.Groups...), arg), Cols: innerCols}
	groups := make([]Expr, g)
	for i := range groups {
		groups[i] = &ColumnRef{Index: i, Name: n.Cols[i].Name, Type: n.Cols[i].Type}
	}
	aggs := make([]AggCall, len(n.Aggs))
	for i, a := range n.Aggs {
		a.Distinct = false
		a.Arg = &ColumnRef{Index: g, Name: "distinct_arg", Type: arg.DataType()}
		aggs[i] = a
	}
	return &Aggregate{Input: inner, Groups: groups, Aggs: aggs, Cols: n.Cols}
}
