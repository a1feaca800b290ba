package planner

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/icesql/icesql/sqlexec/exec"
)

// Markers the SQL front end (sqlexec/parser) writes for syntax TiDB lacks:
//
//	t LATERAL VIEW [OUTER] g(x) e AS a, b
//	  -> t CROSS JOIN (SELECT __icesql_lateral_view(<outer 0|1>, 'e', g(x), 'a', 'b')) AS <any>
//	g(x) AS (a, b)   (a select item)
//	  -> __icesql_generator_as(g(x), 'a', 'b')
const (
	lateralViewMarker = "__icesql_lateral_view"
	generatorAsMarker = "__icesql_generator_as"
	// liftedGeneratorQualifier qualifies the columns of a generator
	// lifted out of a select list, which SELECT * does not expand.
	liftedGeneratorQualifier = "__icesql_generator"
)

type generatorDef struct {
	kind  exec.GeneratorKind
	outer bool
	// table, when set, binds a generator over several scalar arguments
	// (kind is then GenInline over the rows it builds).
	table tableGenerator
}

// generators are Spark's table-generating functions over arrays and maps.
var generators = map[string]generatorDef{
	"explode":          {exec.GenExplode, false, nil},
	"explode_outer":    {exec.GenExplode, true, nil},
	"posexplode":       {exec.GenPosExplode, false, nil},
	"posexplode_outer": {exec.GenPosExplode, true, nil},
	"inline":           {exec.GenInline, false, nil},
	"inline_outer":     {exec.GenInline, true, nil},
	"stack":            {exec.GenInline, false, bindStack},
	"json_tuple":       {exec.GenInline, false, bindJSONTuple},
}

// lateralSpec is one lateral view, decoded from its marker.
type lateralSpec struct {
	outer bool
	alias string
	call  *ast.FuncCallExpr
	names []string
}

// lateralMarker decodes n when it is a lateral view's marker table.
func lateralMarker(n ast.ResultSetNode) (*lateralSpec, error) {
	ts, ok := n.(*ast.TableSource)
	if !ok {
		return nil, nil
	}
	sel, ok := ts.Source.(*ast.SelectStmt)
	if !ok || sel.From != nil || sel.Fields == nil || len(sel.Fields.Fields) != 1 {
		return nil, nil
	}
	call, ok := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || !strings.EqualFold(call.FnName.O, lateralViewMarker) {
		return nil, nil
	}
	bad := invalid("malformed %s call", lateralViewMarker)
	if len(call.Args) < 3 {
		return nil, bad
	}
	flag, ok1 := call.Args[0].(*driver.ValueExpr)
	alias, ok2 := call.Args[1].(*driver.ValueExpr)
	gen, ok3 := call.Args[2].(*ast.FuncCallExpr)
	if !ok1 || !ok2 || !ok3 {
		return nil, bad
	}
	names, err := markerNames(call.Args[3:])
	if err != nil {
		return nil, err
	}
	return &lateralSpec{outer: flag.GetInt64() != 0, alias: alias.GetString(), call: gen, names: names}, nil
}

func markerNames(args []ast.ExprNode) ([]string, error) {
	names := make([]string, len(args))
	for i, a := range args {
		v, ok := a.(*driver.ValueExpr)
		if !ok || v.Kind() != driver.KindString {
			return nil, invalid("malformed generator column alias")
		}
		names[i] = v.GetString()
	}
	return names, nil
}

// bindLateralJoin binds a join whose right side is a lateral view over
// its left side, or a lone lateral view (a generator lifted out of a
// select list without FROM) over one empty row. ok is false for any
// other join.
func (b *binder) bindLateralJoin(j *ast.Join, outer *scope, sub *subqueryBase) (p Plan, ok bool, err error) {
	var spec *lateralSpec
	var left Plan
	if j.Right != nil {
		if spec, err = lateralMarker(j.Right); spec == nil || err != nil {
			return nil, err != nil, err
		}
		if left, err = b.bindFrom(j.Left, outer, sub); err != nil {
			return nil, true, err
		}
	} else {
		if spec, err = lateralMarker(j.Left); spec == nil || err != nil {
			return nil, err != nil, err
		}
		left = &Values{Rows: [][]Expr{{}}}
	}
	p, err = b.bindLateral(left, spec, outer, sub)
	return p, true, err
}

// bindLateral binds one generator over left.
func (b *binder) bindLateral(left Plan, spec *lateralSpec, outer *scope, sub *subqueryBase) (Plan, error) {
	fn := strings.ToLower(spec.call.FnName.O)
	def, ok := generators[fn]
	if !ok {
		return nil, &GeneratorError{Func: fn, Problem: "is not a table-generating function (explode, posexplode, inline and their _outer forms, stack and json_tuple are)"}
	}
	if def.table != nil {
		return b.bindTableGenerator(left, spec, fn, def, outer, sub)
	}
	if len(spec.call.Args) != 1 {
		return nil, &GeneratorError{Func: fn, Problem: fmt.Sprintf("takes 1 argument, got %d", len(spec.call.Args))}
	}
	if containsAggregate(spec.call.Args[0]) {
		return nil, &GeneratorError{Func: fn, Problem: "aggregate functions are not allowed in a generator's argument"}
	}
	sc := &scope{cols: left.Columns(), outer: outer, sub: sub}
	arg, err := b.bindExpr(spec.call.Args[0], sc)
	if err != nil {
		return nil, err
	}
	cols, err := generatorResult(fn, def.kind, arg.DataType())
	if err != nil {
		return nil, err
	}
	return finishLateral(left, spec, fn, def, arg, cols)
}

// finishLateral names the generated columns and builds the Generate.
func finishLateral(left Plan, spec *lateralSpec, fn string, def generatorDef, arg Expr, cols []Column) (Plan, error) {
	if len(spec.names) > 0 {
		if len(spec.names) != len(cols) {
			return nil, &GeneratorError{Func: fn, Problem: fmt.Sprintf("produces %d columns but %d aliases were given", len(cols), len(spec.names))}
		}
		for i, n := range spec.names {
			cols[i].Name = n
		}
	}
	for i := range cols {
		cols[i].Qualifier = spec.alias
	}
	return &Generate{Input: left, Kind: def.kind, Func: fn, Arg: arg, Outer: def.outer || spec.outer, Cols: cols}, nil
}
