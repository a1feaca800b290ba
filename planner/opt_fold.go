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
			// Bottom-up, so a node folds when its children did: one look
			// at each node (asking foldable of every subtree was
			// quadratic in a chain of ANDs).
			return transformExpr(e, func(x Expr) (Expr, error) {
				if !foldableOverLiterals(x) {
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

// foldableOverLiterals is foldable for a node whose children are already
// folded: it folds when each child is a literal. A child that could not
// fold (its evaluation failed) keeps its parent for run time too.
func foldableOverLiterals(e Expr) bool {
	if !foldableNode(e) {
		return false
	}
	for _, c := range children(e) {
		if _, ok := c.(*Literal); !ok {
			return false
		}
	}
	return true
}

// foldableNode is foldable's check of e itself, without its descendants.
func foldableNode(e Expr) bool {
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
	return true
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
