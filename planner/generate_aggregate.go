package planner

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// A generator in an aggregating select list runs after the aggregation,
// as in Spark (its analyzer's ExtractGenerator): its arguments must be
// grouping expressions or aggregates, and it expands each group's row.
//
//	SELECT k, explode(array(min(v), max(v))) AS x, count(*) FROM t GROUP BY k ORDER BY x
//	  -> SELECT a.item0 AS k, <generated>, a.item2 AS `count(1)`
//	     FROM (SELECT k, NULL, count(*), k AS item0, count(*) AS item2,
//	                  array(min(v), max(v)) AS input0
//	           FROM t GROUP BY k) a
//	     LATERAL VIEW explode(a.input0) ORDER BY x
//
// The inner select keeps every item where it stood (GROUP BY positions
// and aliases still denote them) and adds uniquely named copies for the
// outer select to read. ORDER BY stays outside unless it needs the
// aggregation (an aggregate, or a column not selected), then it sorts by
// a hidden inner column.

const (
	aggTableAlias   = "__icesql_generator_agg"
	aggItemPrefix   = "__icesql_item_"
	aggInputPrefix  = "__icesql_gen_input_"
	aggOrderPrefix  = "__icesql_order_"
	generatorInAggs = "UNSUPPORTED_GENERATOR"
)

// defaultGeneratorNames are the column names generators give when not
// aliased; ORDER BY may name them from outside the aggregation.
var defaultGeneratorNames = map[string]bool{"col": true, "pos": true, "key": true, "value": true}

// liftAggregateGenerator rewrites s, whose select item at holds the
// generator call (aliased names), into the generator over the
// aggregation.
func liftAggregateGenerator(s *ast.SelectStmt, at int, call *ast.FuncCallExpr, names []string) (*ast.SelectStmt, error) {
	fn := strings.ToLower(call.FnName.O)
	reject := func(problem string) error {
		return &GeneratorError{Func: fn, Problem: problem + " (Spark: " + generatorInAggs + ")"}
	}
	if len(s.WindowSpecs) > 0 {
		return nil, reject("a generator cannot share a select list with window functions")
	}
	fields := s.Fields.Fields
	for i, f := range fields {
		if f.WildCard != nil {
			return nil, reject("a generator in an aggregating select list cannot stand beside *")
		}
		if containsWindow(f.Expr) {
			return nil, reject("a generator cannot share a select list with window functions")
		}
		if i != at && hasGeneratorCall(f.Expr) {
			return nil, reject("only one generator is allowed per select list")
		}
	}
	genNames := map[string]bool{}
	for _, n := range names {
		genNames[strings.ToLower(n)] = true
	}
	if s.GroupBy != nil {
		for _, g := range s.GroupBy.Items {
			if positionOf(g.Expr) == int64(at+1) || hasGeneratorCall(g.Expr) {
				return nil, reject("GROUP BY cannot refer to a generator; group the rows of a LATERAL VIEW instead")
			}
			if c, ok := g.Expr.(*ast.ColumnNameExpr); ok && c.Name.Table.O == "" && genNames[c.Name.Name.L] {
				return nil, reject(fmt.Sprintf("GROUP BY %s refers to a generator's column; group the rows of a LATERAL VIEW instead", c.Name.Name.O))
			}
		}
	}
	if s.Having != nil && hasGeneratorCall(s.Having.Expr) {
		return nil, reject("a generator cannot stand in HAVING")
	}
	inner := *s
	inner.With, inner.OrderBy, inner.Limit, inner.Distinct = nil, nil, nil, false
	innerFields := append([]*ast.SelectField{}, fields...)
	innerFields[at] = &ast.SelectField{Expr: ast.NewValueExpr(nil, "", "")}
	outerFields := make([]*ast.SelectField, len(fields))
	outerNames := map[string]bool{}
	for n := range genNames {
		outerNames[n] = true
	}
	for i, f := range fields {
		if i == at {
			outerFields[i] = &ast.SelectField{WildCard: &ast.WildCardField{Table: ast.NewCIStr(liftedGeneratorQualifier)}}
			continue
		}
		hidden := fmt.Sprintf("%s%d", aggItemPrefix, i)
		innerFields = append(innerFields, &ast.SelectField{Expr: f.Expr, AsName: ast.NewCIStr(hidden)})
		name := itemName(f)
		outerNames[strings.ToLower(name)] = true
		outerFields[i] = &ast.SelectField{Expr: aggColumn(hidden), AsName: ast.NewCIStr(name)}
	}
	args := make([]ast.ExprNode, len(call.Args))
	for j, a := range call.Args {
		if isConstantAST(a) {
			args[j] = a // stack's row count must stay a constant
			continue
		}
		hidden := fmt.Sprintf("%s%d", aggInputPrefix, j)
		innerFields = append(innerFields, &ast.SelectField{Expr: a, AsName: ast.NewCIStr(hidden)})
		args[j] = aggColumn(hidden)
	}
	outer := *s
	outer.GroupBy, outer.Having = nil, nil
	if s.OrderBy != nil {
		order := &ast.OrderByClause{}
		for k, o := range s.OrderBy.Items {
			e := o.Expr
			switch {
			case positionOf(e) != 0:
				// the generator's columns stand where it stood: later
				// positions move, so they become the items' columns
				if p := int(positionOf(e)); p-1 > at && p <= len(fields) {
					e = aggColumn(fmt.Sprintf("%s%d", aggItemPrefix, p-1))
				}
			case isOuterName(e, outerNames):
			default:
				if i := matchingItem(e, fields, at); i >= 0 {
					e = aggColumn(fmt.Sprintf("%s%d", aggItemPrefix, i))
					break
				}
				hidden := fmt.Sprintf("%s%d", aggOrderPrefix, k)
				innerFields = append(innerFields, &ast.SelectField{Expr: e, AsName: ast.NewCIStr(hidden)})
				e = aggColumn(hidden)
			}
			order.Items = append(order.Items, &ast.ByItem{Expr: e, Desc: o.Desc, NullOrder: o.NullOrder})
		}
		outer.OrderBy = order
	}
	inner.Fields = &ast.FieldList{Fields: innerFields}
	outer.Fields = &ast.FieldList{Fields: outerFields}
	outer.From = &ast.TableRefsClause{TableRefs: &ast.Join{
		Left:  &ast.TableSource{Source: &inner, AsName: ast.NewCIStr(aggTableAlias)},
		Right: lateralMarkerSource(&ast.FuncCallExpr{FnName: call.FnName, Args: args}, names),
		Tp:    ast.CrossJoin,
	}}
	outer.Where = nil
	return &outer, nil
}

// lateralMarkerSource is the marker table of a generator lifted out of a
// select list.
func lateralMarkerSource(call *ast.FuncCallExpr, names []string) *ast.TableSource {
	args := []ast.ExprNode{ast.NewValueExpr(int64(0), "", ""), ast.NewValueExpr(liftedGeneratorQualifier, "", ""), call}
	for _, n := range names {
		args = append(args, ast.NewValueExpr(n, "", ""))
	}
	return &ast.TableSource{Source: &ast.SelectStmt{Kind: ast.SelectStmtKindSelect, Fields: &ast.FieldList{Fields: []*ast.SelectField{
		{Expr: &ast.FuncCallExpr{FnName: ast.NewCIStr(lateralViewMarker), Args: args}}}}}}
}

func aggColumn(name string) *ast.ColumnNameExpr {
	return &ast.ColumnNameExpr{Name: &ast.ColumnName{Table: ast.NewCIStr(aggTableAlias), Name: ast.NewCIStr(name)}}
}

// itemName is the output name of a select item, as the binder gives it.
func itemName(f *ast.SelectField) string {
	if f.AsName.O != "" {
		return f.AsName.O
	}
	if c, ok := f.Expr.(*ast.ColumnNameExpr); ok {
		return c.Name.Name.O
	}
	return restore(f.Expr)
}

// isOuterName reports whether e is a bare name the outer select knows:
// a select item's or generated column's name.
func isOuterName(e ast.ExprNode, names map[string]bool) bool {
	c, ok := e.(*ast.ColumnNameExpr)
	if !ok || c.Name.Table.O != "" {
		return false
	}
	n := c.Name.Name.L
	if names[n] || defaultGeneratorNames[n] {
		return true
	}
	// c0, c1, ... (json_tuple) and col0, col1, ... (stack)
	for _, p := range []string{"col", "c"} {
		if rest, ok := strings.CutPrefix(n, p); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// matchingItem finds the select item (other than the generator at)
// whose text e repeats, or -1.
func matchingItem(e ast.ExprNode, fields []*ast.SelectField, at int) int {
	text := restore(e)
	for i, f := range fields {
		if i != at && f.Expr != nil && restore(f.Expr) == text {
			return i
		}
	}
	return -1
}

// isConstantAST reports whether e reads no column, aggregate or
// subquery, so it means the same outside the aggregation.
func isConstantAST(e ast.ExprNode) bool {
	if _, lit := e.(*driver.ValueExpr); lit {
		return true
	}
	v := &constantFinder{constant: true}
	e.Accept(v)
	return v.constant
}

type constantFinder struct{ constant bool }

func (v *constantFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.ColumnNameExpr, *ast.AggregateFuncExpr, *ast.SubqueryExpr, *ast.WindowFuncExpr, *ast.VariableExpr:
		v.constant = false
	}
	return n, !v.constant
}

func (v *constantFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// hasGeneratorCall reports whether n calls a generator anywhere.
func hasGeneratorCall(n ast.Node) bool {
	v := &generatorFinder{}
	n.Accept(v)
	return v.found
}

type generatorFinder struct{ found bool }

func (v *generatorFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.FuncCallExpr:
		name := strings.ToLower(x.FnName.O)
		if _, ok := generators[name]; ok || name == generatorAsMarker {
			v.found = true
		}
	case *ast.SubqueryExpr:
		return n, true
	}
	return n, v.found
}

func (v *generatorFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
