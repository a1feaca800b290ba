package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// TestCreateOnWrite: a missing file is created by the first write, not by
// Open or reads, which see an empty catalog.
func TestCreateOnWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wh", "catalog.db")
	c, err := Open(ctx, path, Options{CreateOnWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ok, err := c.NamespaceExists(ctx, []string{"default"}); ok || err != nil {
		t.Fatalf("NamespaceExists = %v, %v", ok, err)
	}
	if nss, err := c.ListNamespaces(ctx, nil); len(nss) != 0 || err != nil {
		t.Fatalf("ListNamespaces = %v, %v", nss, err)
	}
	id := Identifier{Namespace: []string{"default"}, Name: "t"}
	if _, err := c.LoadTable(ctx, id); !errors.Is(err, iceberg.ErrNoSuchTable) {
		t.Fatalf("LoadTable = %v", err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("reads created %s: %v", filepath.Dir(path), err)
	}
	if !c.Pending() {
		t.Fatal("not pending before the first write")
	}
	if err := c.CreateNamespace(ctx, []string{"default"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil || c.Pending() {
		t.Fatalf("the first write did not create the file: %v, pending %v", err, c.Pending())
	}
	if err := c.CreateTable(ctx, id, "file:///x/metadata/00000.metadata.json"); err != nil {
		t.Fatal(err)
	}
	c2, err := Open(ctx, path, Options{CreateOnWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if rec, err := c2.LoadTable(ctx, id); err != nil || rec.MetadataLocation == "" {
		t.Fatalf("reopened: %+v, %v", rec, err)
	}
}
