package sqlexec

import (
	"context"
	"fmt"
	"testing"

	"github.com/icesql/icesql/iceberg/table"
)

func TestTableCacheEvictsLeastRecent(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	c := newTableCache(2)
	var tabs []*table.Table
	for i := 0; i < 3; i++ {
		mustExec(t, s, fmt.Sprintf("CREATE TABLE t%d (id BIGINT)", i))
		tab, err := s.engine.loadTable(ctx, table.Identifier{Namespace: []string{"default"}, Name: fmt.Sprintf("t%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		tabs = append(tabs, tab)
	}
	c.put(tabs[0])
	c.put(tabs[1])
	if c.get(tabs[0].Ident(), tabs[0].MetadataLocation()) != tabs[0] {
		t.Fatal("t0 not cached")
	}
	c.put(tabs[2]) // evicts t1, the least recently used
	tests := []struct {
		tab  *table.Table
		want bool
	}{{tabs[0], true}, {tabs[1], false}, {tabs[2], true}}
	for _, tc := range tests {
		t.Run(tc.tab.Ident().Name, func(t *testing.T) {
			got := c.get(tc.tab.Ident(), tc.tab.MetadataLocation()) != nil
			if got != tc.want {
				t.Fatalf("cached = %v, want %v", got, tc.want)
			}
		})
	}
	if c.get(tabs[0].Ident(), tabs[2].MetadataLocation()) != nil {
		t.Fatal("a location of another table hit")
	}
}

// A commit by another engine on the same catalog moves the pointer, so
// the cached version is not used.
func TestTableCacheSeesOtherWriters(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	open := func() *Session {
		e, err := Open(ctx, Config{Warehouse: dir})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e.NewSession()
	}
	a, b := open(), open()
	mustExec(t, a, "CREATE TABLE t (id BIGINT)")
	mustExec(t, a, "INSERT INTO t VALUES (1)")
	if n := count(t, a, "SELECT count(*) FROM t"); n != 1 {
		t.Fatalf("a sees %d rows", n)
	}
	mustExec(t, b, "INSERT INTO t VALUES (2), (3)")
	if n := count(t, a, "SELECT count(*) FROM t"); n != 3 {
		t.Fatalf("a sees %d rows after b's commit, want 3", n)
	}
	mustExec(t, b, "DROP TABLE t")
	mustExec(t, b, "CREATE TABLE t (id BIGINT, s STRING)")
	if n := count(t, a, "SELECT count(*) FROM t"); n != 0 {
		t.Fatalf("a sees %d rows of the re-created table, want 0", n)
	}
}
