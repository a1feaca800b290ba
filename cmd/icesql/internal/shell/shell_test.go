package shell

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "github.com/icesql/icesql/driver"
)

func TestReturnsRows(t *testing.T) {
	for stmt, want := range map[string]bool{
		"SELECT 1": true, "  -- c\n select 1": true, "/* x */ SHOW TABLES": true, "(SELECT 1)": true,
		"with a as (select 1) select * from a": true, "INSERT INTO t VALUES (1)": false,
		"CREATE TABLE t (a INT)": false, "describe t": true, "": false,
		"CALL system.expire_snapshots(table => 't')": true,
	} {
		if got := returnsRows(stmt); got != want {
			t.Errorf("returnsRows(%q) = %v", stmt, got)
		}
	}
}

func TestHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h")
	h := OpenHistory(path)
	for _, l := range []string{"a", "", "b", "b", "c"} {
		h.Add(l)
	}
	h.Close()
	h = OpenHistory(path)
	defer h.Close()
	if h.Len() != 3 || h.At(0) != "c" || h.At(2) != "a" {
		t.Fatalf("reloaded %d entries, newest %q", h.Len(), h.At(0))
	}
}

func newTestShell(t *testing.T) (*Shell, *bytes.Buffer) {
	t.Helper()
	db, err := sql.Open("iceberg", filepath.Join(t.TempDir(), "wh"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var out bytes.Buffer
	return New(conn, &out, &out), &out
}

func TestCompleteAndMeta(t *testing.T) {
	s, out := newTestShell(t)
	ctx := context.Background()
	if err := s.RunScript(ctx, "CREATE TABLE orders (order_id BIGINT, amount DOUBLE); INSERT INTO orders VALUES (1, 2.5);", "test"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line string
		want []string
	}{
		{"SELECT * FROM ord", []string{"orders"}},
		{"SELECT * FROM default.o", []string{"default.orders"}},
		{"SELECT ord", []string{"ORDER"}},
		{"SELECT order_ FROM orders", nil}, // cursor at end: no column starts with "orders"
		{`\sn`, []string{`\snapshots`}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			_, got := s.Complete(ctx, tt.line, len(tt.line))
			if tt.want != nil && !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Complete(%q) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
	line := "SELECT order_ FROM orders"
	if _, got := s.Complete(ctx, line, len("SELECT order_")); !reflect.DeepEqual(got, []string{"order_id"}) {
		t.Fatalf("column completion = %v", got)
	}
	if nl, pos, ok := s.AutoComplete("sel", 3, '\t'); !ok || nl != "select " || pos != 7 {
		t.Fatalf("AutoComplete = %q %d %v", nl, pos, ok)
	}
	out.Reset()
	if err := s.RunScript(ctx, "\\d orders\n\\snapshots orders\n\\dt\n\\dn\n", "test"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Table orders", "order_id", "Properties:", "Current snapshot:", "append", "orders", "default"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("meta output lacks %q:\n%s", want, out)
		}
	}
}
