package planner

import "github.com/icesql/icesql/sqlexec/exec"

// Variants have no order and no equality (one value has many encodings,
// and the Iceberg spec defines no hash for them), so comparisons, ORDER
// BY, GROUP BY, DISTINCT, set operations other than UNION ALL and join
// keys over a variant are refused, as in Spark; to_json or variant_get
// give comparable values.

func variantRefused(what string) error {
	return invalid("%s a VARIANT is not supported: variants have no order or equality (compare to_json(v) or variant_get(v, path, type) instead)", what)
}

// CheckVariantUse walks a bound plan for variants used where values must
// compare.
func CheckVariantUse(p Plan) error {
	var err error
	anyVariant := func(what string, es ...Expr) {
		for _, e := range es {
			if err == nil && e != nil && exec.IsVariant(e.DataType()) {
				err = variantRefused(what)
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
					anyVariant("comparing", c.L, c.R)
				case *InList:
					anyVariant("IN over", c.E)
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
				anyVariant("ORDER BY", k.Expr)
			}
		case *Aggregate:
			anyVariant("GROUP BY", n.Groups...)
		case *Distinct:
			for _, c := range n.Input.Columns() {
				if err == nil && exec.IsVariant(c.Type) {
					err = variantRefused("DISTINCT over")
				}
			}
		case *SetOp:
			// UNION ALL only appends; the others match rows by equality.
			if !n.All || n.Kind != SetUnion {
				for _, c := range n.Left.Columns() {
					if err == nil && exec.IsVariant(c.Type) {
						err = variantRefused([...]string{"UNION over", "INTERSECT over", "EXCEPT over"}[n.Kind])
					}
				}
			}
		case *Join:
			anyVariant("joining on", n.LeftKeys...)
			anyVariant("joining on", n.RightKeys...)
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
