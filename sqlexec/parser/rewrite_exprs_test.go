package parser

import (
	"errors"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

func TestSparkCastAndConstructors(t *testing.T) {
	tests := []rewriteCase{
		{"select cast(x as int) from a", CastMarker + "(`x`,'int')"},
		{"select CAST(x AS BIGINT), cast(y as long)", CastMarker + "(`x`,'long')," + CastMarker + "(`y`,'long')"},
		{"select cast(x as string)", "'string'"},
		{"select cast(x as varchar(10))", "'string'"},
		{"select cast(x as decimal(10, 2))", "cast(`x`asdecimal(10,2))"},
		{"select cast(x as timestamp)", "'timestamptz'"},
		{"select cast(x as timestamp_ntz)", "'timestamp'"},
		{"select cast(x as smallint), cast(y as tinyint)", "'smallint')," + CastMarker + "(`y`,'tinyint')"},
		{"select cast(x as signed)", "cast(`x`assigned)"},
		{"select cast(cast(x as int) as string)", CastMarker + "(" + CastMarker + "(`x`,'int'),'string')"},
		{"select cast((select max(v) from b) as boolean)", CastMarker + "((select max(`v`)from`b`),'boolean')"},
		{"select cast(x as uuid)", "'uuid'"},
		{"select array(1, 2), ARRAY()", "array(1,2),array()"},
		{"select map('k', 'v')", "map('k','v')"},
		{"select array(cast(x as int))", "array(" + CastMarker + "(`x`,'int'))"},
	}
	checkRestoredContains(t, tests)
}

func TestSparkCastErrors(t *testing.T) {
	for _, in := range []string{
		"select cast(x as int(",
		"select cast(x as varchar(10) y)",
		"select cast(x as decimal(50, 2) from a",
	} {
		t.Run(in, func(t *testing.T) {
			_, err := ParseOne(in)
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("got %v, want a ParseError", err)
			}
		})
	}
}

func TestArrayCallName(t *testing.T) {
	st, err := ParseOne("select ARRAY(1, 2)")
	if err != nil {
		t.Fatal(err)
	}
	sel := st.(*TiDBStmt).Node.(*ast.SelectStmt)
	f, ok := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "array" || len(f.Args) != 2 {
		t.Fatalf("got %T %+v, want a call of array with 2 arguments", sel.Fields.Fields[0].Expr, f)
	}
}
