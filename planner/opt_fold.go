package planner

import (
	"github.com/icesql/icesql/sqlexec/exec"
)

// foldConstants evaluates column-free, subquery-free expressions once at
// plan time. Errors (like a bad cast) are left for run time so that a
// branch never taken does not fail the query.
func foldConstants(p Plan) (Plan, error) {
	ec := &exec.EvalContext{Mem: nil}
	return transformPlan(p, func(n Plan) (Plan, error) {
		return mapPlanExprs(n, func(e Expr) (Expr, error) {
			return transformExpr(e, func(x Expr) (Expr, error) {
				if !foldable(x) {
					return x, nil
				}
				if ec.Mem == nil {
					ec = NewEvalContext(nil, nil)
				}
				v, err := evalConstant(ec, x)
				if err != nil {
					return x, nil
				}
				return &Literal{Value: v, Type: x.DataType()}, nil
			})
		})
	})
}

func foldable(e Expr) bool {
	switch e.(type) {
	case *Literal, *ColumnRef, *OuterRef:
		return false
	}
	if isNested(e.DataType()) {
		return false // literals hold primitive values only
	}
	switch x := e.(type) {
	case *ScalarSubquery, *Exists, *InSubquery:
		return false
	case *Call:
		if x.Volatile || len(x.Args) == 0 {
			return false // current_timestamp and friends stay per query
		}
	}
	ok := true
	walkExpr(e, func(c Expr) {
		switch c.(type) {
		case *ColumnRef, *OuterRef, *ScalarSubquery, *Exists, *InSubquery:
			ok = false
		}
	})
	return ok
}
