package planner

// Pass is one optimizer rewrite.
type Pass struct {
	Name string
	Run  func(Plan) (Plan, error)
}

// Passes are applied in this order; each lives in its own file.
var Passes = []Pass{
	{Name: "subquery decorrelation", Run: decorrelate},
	{Name: "constant folding", Run: foldConstants},
	{Name: "comparison narrowing", Run: narrowComparisons},
	{Name: "filter pushdown", Run: pushDownFilters},
	{Name: "join ordering", Run: orderJoins},
	{Name: "projection pruning", Run: pruneColumns},
	{Name: "limit pushdown", Run: pushDownLimits},
	{Name: "aggregates from metadata", Run: aggregateFromMetadata},
}

// Optimize applies every pass in order.
func Optimize(p Plan) (Plan, error) {
	var err error
	for _, pass := range Passes {
		if p, err = pass.Run(p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// mapPlanExprs rebuilds p with f applied to every expression it holds
// (not its children's).
func mapPlanExprs(p Plan, f func(Expr) (Expr, error)) (Plan, error) {
	mapAll := func(es []Expr) ([]Expr, error) {
		out := make([]Expr, len(es))
		for i, e := range es {
			x, err := f(e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	var err error
	switch n := p.(type) {
	case *Filter:
		c := *n
		c.Pred, err = f(n.Pred)
		return &c, err
	case *Project:
		c := *n
		c.Exprs, err = mapAll(n.Exprs)
		return &c, err
	case *Aggregate:
		c := *n
		if c.Groups, err = mapAll(n.Groups); err != nil {
			return nil, err
		}
		c.Aggs = append([]AggCall{}, n.Aggs...)
		for i := range c.Aggs {
			if c.Aggs[i].Arg != nil {
				if c.Aggs[i].Arg, err = f(c.Aggs[i].Arg); err != nil {
					return nil, err
				}
			}
		}
		return &c, nil
	case *Sort:
		c := *n
		c.Keys = append([]SortKey{}, n.Keys...)
		for i := range c.Keys {
			if c.Keys[i].Expr, err = f(c.Keys[i].Expr); err != nil {
				return nil, err
			}
		}
		return &c, nil
	case *Window:
		return mapWindowExprs(n, f)
	case *Generate:
		c := *n
		c.Arg, err = f(n.Arg)
		return &c, err
	case *Join:
		c := *n
		if c.LeftKeys, err = mapAll(n.LeftKeys); err != nil {
			return nil, err
		}
		if c.RightKeys, err = mapAll(n.RightKeys); err != nil {
			return nil, err
		}
		if n.Residual != nil {
			c.Residual, err = f(n.Residual)
		}
		return &c, err
	}
	return p, nil
}

// withInputs rebuilds p over new children (same order as Children()).
func withInputs(p Plan, in []Plan) Plan {
	switch n := p.(type) {
	case *Filter:
		c := *n
		c.Input = in[0]
		return &c
	case *Project:
		c := *n
		c.Input = in[0]
		return &c
	case *Aggregate:
		c := *n
		c.Input = in[0]
		return &c
	case *Sort:
		c := *n
		c.Input = in[0]
		return &c
	case *Limit:
		c := *n
		c.Input = in[0]
		return &c
	case *Window:
		c := *n
		c.Input = in[0]
		return &c
	case *Distinct:
		return &Distinct{Input: in[0]}
	case *Generate:
		c := *n
		c.Input = in[0]
		return &c
	case *Join:
		c := *n
		c.Left, c.Right = in[0], in[1]
		return &c
	case *SetOp:
		c := *n
		c.Left, c.Right = in[0], in[1]
		return &c
	case *RecursiveCTE:
		c := *n
		c.Anchor, c.Recursive = in[0], in[1]
		return &c
	case *MetadataAggregate:
		c := *n
		c.Fallback = in[0]
		return &c
	}
	return p
}

// transformPlan rewrites p bottom-up with f.
func transformPlan(p Plan, f func(Plan) (Plan, error)) (Plan, error) {
	kids := p.Children()
	if len(kids) > 0 {
		nk := make([]Plan, len(kids))
		for i, k := range kids {
			x, err := transformPlan(k, f)
			if err != nil {
				return nil, err
			}
			nk[i] = x
		}
		p = withInputs(p, nk)
	}
	return f(p)
}
