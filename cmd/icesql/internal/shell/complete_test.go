package shell

import (
	"context"
	"os"
	"path/filepath"
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

// TestCompleteColumnsFirst: where a column is expected, Tab lists the
// columns of the tables named before the keywords.
func TestCompleteColumnsFirst(t *testing.T) {
	s, _ := newTestShell(t)
	ctx := context.Background()
	if err := s.RunScript(ctx, "CREATE TABLE orders (order_id BIGINT, amount DOUBLE, origin STRING);", "test"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line      string
		wantFirst []string
	}{
		{"SELECT * FROM orders WHERE o", []string{"order_id", "origin", "OF"}},
		{"SELECT * FROM orders WHERE amount > 1 AND ", []string{"amount", "order_id", "origin", "ADD"}},
		{"SELECT count(*) FROM orders GROUP BY o", []string{"order_id", "origin", "OF"}},
		{"UPDATE orders SET a", []string{"amount", "ADD"}},
		// Elsewhere columns and keywords sort together.
		{"SELECT * FROM orders o", []string{"OF", "OFFSET"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			_, got := s.Complete(ctx, tt.line, len(tt.line))
			if len(got) < len(tt.wantFirst) || !reflect.DeepEqual(got[:len(tt.wantFirst)], tt.wantFirst) {
				t.Fatalf("Complete(%q) = %v, want it to start %v", tt.line, got, tt.wantFirst)
			}
		})
	}
}

// TestCompleteCopyFileNames: in \copy, the word after FROM or TO (or
// any quoted word) completes as a file name.
func TestCompleteCopyFileNames(t *testing.T) {
	s, _ := newTestShell(t)
	dir := t.TempDir()
	for _, f := range []string{"data.csv", "data2.csv", "Other.parquet", ".hidden"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := dir + "/"
	tests := []struct {
		name, line, want string
	}{
		{"quoted, to the common prefix", `\copy t FROM '` + d + "d", `\copy t FROM '` + d + "data"},
		{"quoted, one file closes the quote", `\copy t FROM '` + d + "data.", `\copy t FROM '` + d + "data.csv' "},
		{"unquoted after FROM", `\copy t FROM ` + d + "O", `\copy t FROM ` + d + "Other.parquet "},
		{"case matters", `\copy t FROM ` + d + "o", `\copy t FROM ` + d + "o"},
		{"a directory ends in a slash", `\copy (SELECT 1) TO '` + d + "su", `\copy (SELECT 1) TO '` + d + "sub/"},
		{"hidden files only after a dot", `\copy t FROM '` + d + ".h", `\copy t FROM '` + d + ".hidden' "},
		{"closing quote already there", `\copy t FROM '` + d + "data.'", `\copy t FROM '` + d + "data.csv '"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := len(tt.line)
			if strings.HasSuffix(tt.line, "'") && strings.Count(tt.line, "'") == 2 {
				pos--
			}
			got, _, _ := s.AutoComplete(tt.line, pos, '\t')
			if got == "" {
				got = tt.line
			}
			if got != tt.want {
				t.Fatalf("AutoComplete(%q) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
	if _, c := s.Complete(context.Background(), `\copy t FROM '`+d, len(`\copy t FROM '`+d)); !reflect.DeepEqual(c, []string{d + "Other.parquet", d + "data.csv", d + "data2.csv", d + "sub/"}) {
		t.Fatalf("listing %v", c)
	}
}
