package planner

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// liftGenerator rewrites a SELECT whose select list holds a generator
// (SELECT id, explode(arr) AS x FROM t) into the lateral view that means
// the same (SELECT id, x FROM t LATERAL VIEW explode(arr) AS x): the
// generator runs over the FROM and WHERE rows and its columns replace it
// in the select list. s itself is left unchanged.
func liftGenerator(s *ast.SelectStmt) (*ast.SelectStmt, error) {
	if s.Fields == nil {
		return s, nil
	}
	at := -1
	var call *ast.FuncCallExpr
	var names []string
	for i, f := range s.Fields.Fields {
		if f.WildCard != nil {
			continue
		}
		c, n, err := generatorItem(f.Expr)
		if err != nil {
			return nil, err
		}
		if c == nil {
			continue
		}
		if at >= 0 {
			return nil, &GeneratorError{Func: strings.ToLower(c.FnName.O), Problem: fmt.Sprintf(
				"only one generator is allowed per select list, found %s and %s", strings.ToLower(call.FnName.O), strings.ToLower(c.FnName.O))}
		}
		at, call, names = i, c, n
		if f.AsName.O != "" {
			names = []string{f.AsName.O}
		}
	}
	if at < 0 {
		return s, nil
	}
	if s.GroupBy != nil || s.Having != nil || len(s.WindowSpecs) > 0 {
		return liftAggregateGenerator(s, at, call, names)
	}
	for _, f := range s.Fields.Fields {
		if f.Expr != nil && (containsAggregate(f.Expr) || containsWindow(f.Expr)) {
			return liftAggregateGenerator(s, at, call, names)
		}
	}
	if s.OrderBy != nil {
		for _, o := range s.OrderBy.Items {
			if containsAggregate(o.Expr) {
				return liftAggregateGenerator(s, at, call, names)
			}
		}
	}
	marker := lateralMarkerSource(call, names)
	lifted := *s
	if s.From == nil {
		lifted.From = &ast.TableRefsClause{TableRefs: &ast.Join{Left: marker}}
	} else {
		lifted.From = &ast.TableRefsClause{TableRefs: &ast.Join{Left: s.From.TableRefs, Right: marker, Tp: ast.CrossJoin}}
	}
	fields := append([]*ast.SelectField{}, s.Fields.Fields...)
	fields[at] = &ast.SelectField{WildCard: &ast.WildCardField{Table: ast.NewCIStr(liftedGeneratorQualifier)}}
	lifted.Fields = &ast.FieldList{Fields: fields}
	return &lifted, nil
}

// generatorItem recognises a select item that is a generator call, bare
// or with an alias list; it returns a nil call for any other item.
func generatorItem(e ast.ExprNode) (*ast.FuncCallExpr, []string, error) {
	call, ok := e.(*ast.FuncCallExpr)
	if !ok {
		return nil, nil, nil
	}
	if strings.EqualFold(call.FnName.O, generatorAsMarker) {
		if len(call.Args) < 2 {
			return nil, nil, invalid("malformed %s call", generatorAsMarker)
		}
		inner, ok := call.Args[0].(*ast.FuncCallExpr)
		if !ok {
			return nil, nil, invalid("malformed %s call", generatorAsMarker)
		}
		names, err := markerNames(call.Args[1:])
		if err != nil {
			return nil, nil, err
		}
		if _, ok := generators[strings.ToLower(inner.FnName.O)]; !ok {
			return nil, nil, &GeneratorError{Func: strings.ToLower(inner.FnName.O), Problem: "a column alias list AS (...) needs a table-generating function"}
		}
		return inner, names, nil
	}
	if _, ok := generators[strings.ToLower(call.FnName.O)]; !ok {
		return nil, nil, nil
	}
	return call, nil, nil
}

func containsWindow(n ast.Node) bool {
	v := &windowFinder{}
	n.Accept(v)
	return v.found
}

type windowFinder struct{ found bool }

func (v *windowFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.WindowFuncExpr:
		v.found = true
		return n, true
	case *ast.SubqueryExpr:
		return n, true
	}
	return n, v.found
}

func (v *windowFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
