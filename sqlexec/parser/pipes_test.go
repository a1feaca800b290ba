package parser

import (
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

func TestPipesConcatPrecedence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"'a' || 'b'", "concat(_utf8mb4'a', _utf8mb4'b')"},
		{"a || b || c", "concat(concat(`a`, `b`), `c`)"},
		{"1 + 2 || x", "concat(1+2, `x`)"},
		{"x || 1 + 2", "concat(`x`, 1)+2"},
		{"a * b || c * d", "concat(`a`*`b`, `c`*`d`)"},
		{"a - b || c", "concat(`a`-`b`, `c`)"},
		{"a || b = c", "concat(`a`, `b`)=`c`"},
		{"a = b || c", "`a`=concat(`b`, `c`)"},
		{"a || b & c", "concat(`a`, `b`)&`c`"},
		{"(a * b) || c", "concat((`a`*`b`), `c`)"},
		{"-a || b", "concat(-`a`, `b`)"},
		{"x LIKE a || '%'", "`x` like concat(`a`, _utf8mb4'%')"},
		{"f(a || b * c)", "f(concat(`a`, `b`*`c`))"},
		{"a || b OR c", "concat(`a`, `b`) or `c`"},
		// a written concat() is an ordinary call, never re-associated
		{"2 * concat(a, b)", "2*concat(`a`, `b`)"},
		// chains without || keep their shape
		{"a + b * c", "`a`+`b`*`c`"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			st, err := ParseOne("SELECT " + tt.in)
			if err != nil {
				t.Fatal(err)
			}
			sel := st.(*TiDBStmt).Node.(*ast.SelectStmt)
			if got := restoreNode(t, sel.Fields.Fields[0].Expr); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestReservedWordHint(t *testing.T) {
	for _, q := range []string{"SELECT key FROM t", "SELECT a, order FROM t"} {
		_, err := ParseOne(q)
		pe, ok := err.(*ParseError)
		if !ok || !strings.Contains(pe.Msg, "back-quote") {
			t.Errorf("%s: %v, want a hint to back-quote", q, err)
		}
	}
	if _, err := ParseOne("SELECT partition FROM t.partitions"); err != nil {
		t.Errorf("partition as a name: %v", err)
	}
}
