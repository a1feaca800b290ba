package parser

import (
	"errors"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// restoreNode prints a TiDB node back as SQL text.
func restoreNode(t *testing.T, n ast.Node) string {
	t.Helper()
	return strings.ToLower(restore(n))
}

func TestFullJoinAndNullsOrder(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"select * from a full join b on a.x = b.x", "straight_join"},
		{"select * from a FULL OUTER JOIN b using (x)", "straight_join"},
		{"select * from a left join b on a.x = b.x", "left join"},
		{"select x from a order by x nulls first", NullsFirstMarker + "()"},
		{"select x from a order by x desc NULLS LAST, y", "desc," + NullsLastMarker + "()"},
		{"select (select max(x) from b order by x nulls last limit 1) from a", NullsLastMarker},
		{"select nulls first from a", "`nulls` as `first`"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			st, err := ParseOne(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			got := restoreNode(t, st.(*TiDBStmt).Node)
			if !strings.Contains(strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(tc.want, " ", "")) {
				t.Errorf("got %s, want it to contain %s", got, tc.want)
			}
		})
	}
}

func TestStraightJoinRejected(t *testing.T) {
	_, err := ParseOne("select * from a straight_join b on a.x = b.x")
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "STRAIGHT_JOIN") {
		t.Fatalf("got %v, want a ParseError about STRAIGHT_JOIN", err)
	}
}
