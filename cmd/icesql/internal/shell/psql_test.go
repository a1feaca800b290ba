package shell

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPsqlMetaCommands: \i, \e, \!, \conninfo, \dv and \pset as psql's.
func TestPsqlMetaCommands(t *testing.T) {
	s, out := newTestShell(t)
	s.Info = ConnInfo{Warehouse: "./lake", Catalog: "./lake/catalog.db", CatalogName: "default", Namespace: "default", Mode: "rw"}
	ctx := context.Background()
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc.sql")
	os.WriteFile(inc, []byte("CREATE TABLE t (x INT);\nINSERT INTO t VALUES (1), (NULL);\nCREATE VIEW v AS SELECT x FROM t;\n"), 0o644)
	editor := filepath.Join(dir, "editor.sh")
	// The editor appends to what it is given: the last statement, then its own.
	os.WriteFile(editor, []byte("#!/bin/sh\necho 'SELECT 42 AS edited;' >> \"$1\"\n"), 0o755)
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", editor)
	tests := []struct {
		script string
		want   []string
		not    []string
	}{
		{`\i ` + inc + "\nSELECT count(*) AS n FROM t;", []string{" n\n---\n 2\n"}, nil},
		{`\! echo from-the-shell`, []string{"from-the-shell\n"}, nil},
		{`\conninfo`, []string{`warehouse "./lake"`, `namespace "default"`, "mode rw"}, nil},
		{`\dv`, []string{"viewName", " v "}, nil},
		{"\\pset null '(nil)'\nSELECT x FROM t ORDER BY x;", []string{"(nil)"}, []string{"NULL"}},
		{"\\pset format csv\nSELECT x FROM t ORDER BY x;\n\\pset format aligned", []string{"x\n\n1\n"}, []string{"(nil)"}},
		{`\pset`, []string{"format is aligned", `null is "(nil)"`, "pager is on"}, nil},
		{"\\pset pager off\n\\pset", []string{"pager is off"}, nil},
		{"SELECT 7 AS seven;\n\\e", []string{"seven", "edited\n--------\n     42"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			out.Reset()
			if err := s.RunScript(ctx, tt.script+"\n", "test"); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(out.String(), w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
	for _, bad := range []string{`\i`, `\i ` + filepath.Join(dir, "missing.sql"), `\pset border 2`, `\pset pager sometimes`, `\! exit 3`} {
		if err := s.RunScript(ctx, bad+"\n", "test"); err == nil {
			t.Errorf("%s succeeded", bad)
		}
	}
}

// TestHistoryStatements: a statement typed over several lines is one entry.
func TestHistoryStatements(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h")
	h := OpenHistory(path)
	h.KeepStatements()
	for _, l := range []string{"SELECT a,", "  b", "FROM t;"} {
		h.Add(l)
	}
	h.EndStatement()
	h.Add(`\dt`)
	h.EndStatement()
	h.Close()
	b, _ := os.ReadFile(path)
	if got, want := string(b), "SELECT a, b FROM t;\n\\dt\n"; got != want {
		t.Fatalf("history file %q, want %q", got, want)
	}
}

// TestTimingLeavesOutThePager: time spent in the pager is counted apart.
func TestTimingLeavesOutThePager(t *testing.T) {
	s, _ := newTestShell(t)
	s.Terminal, s.Pager, s.PagerMode = true, "cat > /dev/null", PagerAlways
	s.Height = func() int { return 10 }
	if err := s.RunScript(context.Background(), "SELECT 1 AS one;\n", "test"); err != nil {
		t.Fatal(err)
	}
	if s.pagerTime <= 0 {
		t.Fatal("the pager's time was not counted apart from the statement's")
	}
}
