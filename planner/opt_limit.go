package planner

import "math"

// pushDownLimits hands a LIMIT to a scan when nothing between them can
// drop or reorder rows (only projections), so the table can stop early.
func pushDownLimits(p Plan) (Plan, error) {
	return transformPlan(p, func(n Plan) (Plan, error) {
		l, ok := n.(*Limit)
		if !ok || l.Count < 0 {
			return n, nil
		}
		want := saturatingAdd(l.Offset, l.Count)
		var rewrite func(p Plan) Plan
		rewrite = func(p Plan) Plan {
			switch x := p.(type) {
			case *Project:
				c := *x
				c.Input = rewrite(x.Input)
				return &c
			case *Scan:
				if len(x.Filters) > 0 {
					return p
				}
				c := *x
				if c.Limit < 0 || c.Limit > want {
					c.Limit = want
				}
				return &c
			}
			return p
		}
		c := *l
		c.Input = rewrite(l.Input)
		return &c, nil
	})
}

// saturatingAdd is a+b for non-negative a and b, capped at MaxInt64
// (LIMIT 9223372036854775807 OFFSET 1 means "all rows after the first").
func saturatingAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
