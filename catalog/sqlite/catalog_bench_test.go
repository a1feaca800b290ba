package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

func benchCatalog(b *testing.B) (*Catalog, Identifier) {
	b.Helper()
	ctx := context.Background()
	c, err := Open(ctx, filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		b.Fatal(err)
	}
	id := Identifier{Namespace: []string{"db"}, Name: "t"}
	if err := c.CreateTable(ctx, id, "m0"); err != nil {
		b.Fatal(err)
	}
	return c, id
}

func BenchmarkLoadTable(b *testing.B) {
	c, id := benchCatalog(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.LoadTable(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCommitTable(b *testing.B) {
	c, id := benchCatalog(b)
	ctx := context.Background()
	prev := "m0"
	i := 0
	for b.Loop() {
		i++
		next := fmt.Sprintf("m%d", i)
		if err := c.CommitTable(ctx, id, prev, next); err != nil {
			b.Fatal(err)
		}
		prev = next
	}
}

func BenchmarkCommitTablesTwo(b *testing.B) {
	c, a := benchCatalog(b)
	ctx := context.Background()
	t2 := Identifier{Namespace: []string{"db"}, Name: "t2"}
	if err := c.CreateTable(ctx, t2, "m0"); err != nil {
		b.Fatal(err)
	}
	prev := "m0"
	i := 0
	for b.Loop() {
		i++
		next := fmt.Sprintf("m%d", i)
		if err := c.CommitTables(ctx, []TableCommit{{Ident: a, Expected: prev, New: next}, {Ident: t2, Expected: prev, New: next}}); err != nil {
			b.Fatal(err)
		}
		prev = next
	}
}
