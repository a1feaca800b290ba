package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

func openTest(t *testing.T, opts Options) (*Catalog, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "catalog.db")
	c, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c, path
}

func mustCreateNamespace(t *testing.T, c *Catalog, ns ...string) {
	t.Helper()
	if err := c.CreateNamespace(context.Background(), ns, nil); err != nil {
		t.Fatalf("CreateNamespace %v: %v", ns, err)
	}
}

func mustCreateTable(t *testing.T, c *Catalog, id string, loc string) Identifier {
	t.Helper()
	ident, err := ParseIdentifier(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable(context.Background(), ident, loc); err != nil {
		t.Fatalf("CreateTable %s: %v", id, err)
	}
	return ident
}

func ident(t *testing.T, s string) Identifier {
	t.Helper()
	id, err := ParseIdentifier(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
