package planner

import "github.com/apache/arrow-go/v18/arrow"

// uncomparable describes values without order or equality (variants,
// geometries): a bound plan must not use them where values compare.
type uncomparable struct {
	is     func(arrow.DataType) bool
	refuse func(what string, t arrow.DataType) error
	// cast refuses a cast of such a value, or nil to allow it; casts are
	// not checked when nil.
	cast func(c *Cast) error
}

// check walks p for comparisons, IN, casts, ORDER BY, GROUP BY, DISTINCT,
// set operations other than UNION ALL and join keys over such values.
func (u uncomparable) check(p Plan) error {
	var err error
	anyOf := func(what string, es ...Expr) {
		for _, e := range es {
			if err == nil && e != nil && u.is(e.DataType()) {
				err = u.refuse(what, e.DataType())
			}
		}
	}
	columns := func(what string, cols []Column) {
		for _, c := range cols {
			if err == nil && u.is(c.Type) {
				err = u.refuse(what, c.Type)
			}
		}
	}
	exprs := func(es ...Expr) {
		for _, e := range es {
			if e == nil || err != nil {
				continue
			}
			walkExpr(e, func(x Expr) {
				switch c := x.(type) {
				case *Compare:
					anyOf("comparing", c.L, c.R)
				case *InList:
					anyOf("IN over", c.E)
				case *Cast:
					if err == nil && u.cast != nil {
						err = u.cast(c)
					}
				}
			})
		}
	}
	var walk func(p Plan)
	walk = func(p Plan) {
		switch n := p.(type) {
		case *Filter:
			exprs(n.Pred)
		case *Project:
			exprs(n.Exprs...)
		case *Sort:
			for _, k := range n.Keys {
				anyOf("ORDER BY", k.Expr)
			}
		case *Aggregate:
			anyOf("GROUP BY", n.Groups...)
		case *Distinct:
			columns("DISTINCT over", n.Input.Columns())
		case *SetOp:
			// UNION ALL only appends; the others match rows by equality.
			if !n.All || n.Kind != SetUnion {
				columns([...]string{"UNION over", "INTERSECT over", "EXCEPT over"}[n.Kind], n.Left.Columns())
			}
		case *Join:
			anyOf("joining on", n.LeftKeys...)
			anyOf("joining on", n.RightKeys...)
			exprs(n.Residual)
		}
		for _, c := range p.Children() {
			if err == nil {
				walk(c)
			}
		}
	}
	walk(p)
	return err
}
