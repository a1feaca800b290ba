package shell

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestCompleteCandidates(t *testing.T) {
	s, _ := newTestShell(t)
	ctx := context.Background()
	if err := s.RunScript(ctx, "CREATE TABLE orders (order_id BIGINT, amount DOUBLE); CREATE TABLE origins (origin_id BIGINT);", "test"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, soFar, line string
		want              []string
	}{
		{"metadata table after t.", "", "SELECT * FROM orders.sn", []string{"orders.snapshots"}},
		{"metadata table, qualified", "", "SELECT * FROM default.orders.hi", []string{"default.orders.history"}},
		{"no metadata for unknown table", "", "SELECT nope.sn", nil},
		{"columns of a table on an earlier line", "SELECT *\nFROM orders\n", "WHERE amo", []string{"amount"}},
		{"namespaces and tables", "", "SELECT * FROM or", []string{"orders", "origins"}},
		{"meta-commands", "", `\d`, []string{`\d`, `\dn`, `\dt`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.SetStatementSoFar(tt.soFar)
			defer s.SetStatementSoFar("")
			_, got := s.Complete(ctx, tt.line, len(tt.line))
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Complete(%q) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
}

// TestSecondTabLists: the first Tab completes the common prefix, the
// next (with nothing more to add) lists the candidates.
func TestSecondTabLists(t *testing.T) {
	s, _ := newTestShell(t)
	if err := s.RunScript(context.Background(), "CREATE TABLE orders (a INT); CREATE TABLE origins (b INT);", "test"); err != nil {
		t.Fatal(err)
	}
	var listed []string
	s.ShowCandidates = func(list string) { listed = append(listed, list) }
	line := "SELECT * FROM o"
	nl, pos, ok := s.AutoComplete(line, len(line), '\t')
	if !ok || nl != "SELECT * FROM or" || pos != len(nl) || len(listed) != 0 {
		t.Fatalf("first Tab = %q %d %v, listed %q", nl, pos, ok, listed)
	}
	nl, _, _ = s.AutoComplete(nl, len(nl), '\t')
	if len(listed) != 0 {
		t.Fatalf("listed on the first Tab without progress: %q", listed)
	}
	s.AutoComplete(nl, len(nl), '\t')
	if len(listed) != 1 || !strings.Contains(listed[0], "orders") || !strings.Contains(listed[0], "origins") {
		t.Fatalf("second Tab listed %q", listed)
	}
	// Any other key in between starts over.
	s.AutoComplete(nl, len(nl), 'x')
	s.AutoComplete(nl, len(nl), '\t')
	if len(listed) != 1 {
		t.Fatalf("listed after an intervening key: %q", listed)
	}
}

func TestCandidateColumns(t *testing.T) {
	tests := []struct {
		cands []string
		width int
		want  string
	}{
		{[]string{"a", "b", "c"}, 80, "a  b  c\n"},
		{[]string{"aa", "bb", "cc", "dd", "ee"}, 8, "aa  dd\nbb  ee\ncc\n"},
		{[]string{"toolongforthewidth"}, 5, "toolongforthewidth\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.cands, ","), func(t *testing.T) {
			if got := candidateColumns(tt.cands, tt.width); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}
