package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/exec"
)

// aggCtx binds expressions above an aggregation: group expressions and
// aggregate calls become references to the Aggregate node's output.
type aggCtx struct {
	input       *scope
	groupTexts  []string
	groupRawMax int // the longest raw restored text of a group expression
	groups      []Expr
	aggTexts    []string
	aggs        []AggCall
}

func (a *aggCtx) lookup(b *binder, n ast.ExprNode) (Expr, bool, error) {
	// Rendered only up to the longest group expression's text: bindExpr
	// asks at every node, and a whole restore each time was quadratic.
	_, isAgg := n.(*ast.AggregateFuncExpr)
	var text string
	if isAgg {
		text = restore(n)
	} else if len(a.groupTexts) > 0 {
		if s, complete := restoreUpTo(n, a.groupRawMax); complete {
			text = s
		}
	}
	for i, t := range a.groupTexts {
		if text != "" && t == text {
			return &ColumnRef{Index: i, Name: text, Type: a.groups[i].DataType()}, true, nil
		}
	}
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		e, err := a.input.resolve(x.Name.Table.O, x.Name.Name.O)
		if err != nil {
			return nil, false, err
		}
		if c, ok := e.(*ColumnRef); ok {
			for i, g := range a.groups {
				if gc, ok := g.(*ColumnRef); ok && gc.Index == c.Index {
					return &ColumnRef{Index: i, Name: c.Name, Type: c.Type}, true, nil
				}
			}
		} else {
			return e, true, nil // outer reference: constant per evaluation
		}
	case *ast.AggregateFuncExpr:
		for i, t := range a.aggTexts {
			if t == text {
				return &ColumnRef{Index: len(a.groups) + i, Name: text, Type: a.aggs[i].Type}, true, nil
			}
		}
		call, err := b.bindAggCall(x, a.input)
		if err != nil {
			return nil, true, err
		}
		a.aggTexts = append(a.aggTexts, text)
		a.aggs = append(a.aggs, call)
		return &ColumnRef{Index: len(a.groups) + len(a.aggs) - 1, Name: text, Type: call.Type}, true, nil
	}
	return nil, false, nil
}

func (b *binder) bindAggCall(x *ast.AggregateFuncExpr, in *scope) (AggCall, error) {
	name := strings.ToLower(x.F)
	if name == "count" && len(x.Args) == 1 {
		if v, ok := x.Args[0].(interface{ GetValue() any }); ok && !x.Distinct && v.GetValue() != nil {
			return AggCall{Func: exec.AggCountStar, Type: typeLong}, nil
		}
	}
	if len(x.Args) != 1 {
		return AggCall{}, invalid("%s takes one argument", name)
	}
	if containsAggregate(x.Args[0]) {
		return AggCall{}, invalid("aggregate calls cannot be nested")
	}
	arg, err := b.bindExpr(x.Args[0], in)
	if err != nil {
		return AggCall{}, err
	}
	t := arg.DataType()
	call := AggCall{Arg: arg, Distinct: x.Distinct}
	switch name {
	case "count":
		call.Func, call.Type = exec.AggCount, typeLong
	case "sum":
		call.Func = exec.AggSum
		switch {
		case isInteger(t):
			call.Type = typeLong
			call.Arg = coerce(arg, typeLong)
		case t.ID() == arrow.DECIMAL128:
			call.Type = &arrow.Decimal128Type{Precision: 38, Scale: t.(*arrow.Decimal128Type).Scale}
		case isNumeric(t), t.ID() == arrow.NULL:
			call.Type = typeDouble
			call.Arg = coerce(arg, typeDouble)
		default:
			return AggCall{}, &TypeMismatchError{Op: "sum", Types: []string{typeName(t)}}
		}
	case "avg":
		if !isNumeric(t) && t.ID() != arrow.NULL {
			return AggCall{}, &TypeMismatchError{Op: "avg", Types: []string{typeName(t)}}
		}
		call.Func, call.Type = exec.AggAvg, typeDouble
		if d, ok := t.(*arrow.Decimal128Type); ok {
			call.Type = &arrow.Decimal128Type{Precision: min(38, d.Precision+4), Scale: min(38, d.Scale+4)}
		}
	case "min", "max":
		call.Func, call.Type = exec.AggMin, t
		if name == "max" {
			call.Func = exec.AggMax
		}
	default:
		return AggCall{}, &UnknownFunctionError{Name: name}
	}
	return call, nil
}

// containsAggregate reports whether n has an aggregate call outside subqueries.
func containsAggregate(n ast.Node) bool {
	if n == nil {
		return false
	}
	v := &aggFinder{}
	n.Accept(v)
	return v.found
}

type aggFinder struct{ found bool }

func (v *aggFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.AggregateFuncExpr:
		v.found = true
		return n, true
	case *ast.SubqueryExpr:
		return n, true
	}
	return n, v.found
}

func (v *aggFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
