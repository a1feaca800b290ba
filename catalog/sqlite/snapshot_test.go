package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

func TestAllTables(t *testing.T) {
	ctx := context.Background()
	c, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.CreateNamespace(ctx, []string{"a", "b"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"t1", "t2"} {
		if err := c.CreateTable(ctx, Identifier{Namespace: []string{"a", "b"}, Name: n}, "loc-"+n); err != nil {
			t.Fatal(err)
		}
	}
	other, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"), Options{CatalogName: "other"})
	if err != nil {
		t.Fatal(err)
	}
	other.Close()
	all, err := c.AllTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all["a.b.t1"].MetadataLocation != "loc-t1" || all["a.b.t2"].MetadataLocation != "loc-t2" {
		t.Fatalf("AllTables = %+v", all)
	}
}
