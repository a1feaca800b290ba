package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// holdWriteLock takes the write lock of the catalog file at path from a
// connection of its own, as another process's long commit would, until
// the test ends.
func holdWriteLock(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite3", buildDSN(path, false, time.Second, "immediate"))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("UPDATE iceberg_namespace_properties SET property_value = property_value WHERE 0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback(); db.Close() })
}

// TestOpenAndReadUnderAnotherWriter: while another connection holds the
// write lock, opening an existing catalog and reading it work; writes
// fail after the busy timeout with ErrBusy (commits also with
// iceberg.ErrCommitFailed), changing nothing.
func TestOpenAndReadUnderAnotherWriter(t *testing.T) {
	ctx := context.Background()
	c, path := openTest(t, Options{})
	mustCreateNamespace(t, c, "ns")
	id := mustCreateTable(t, c, "ns.t", "file:///x/ns.db/t/metadata/00000.metadata.json")
	c.Close()
	holdWriteLock(t, path)

	c2, err := Open(ctx, path, Options{BusyTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open under another writer: %v", err)
	}
	defer c2.Close()
	if rec, err := c2.LoadTable(ctx, id); err != nil || rec.MetadataLocation != "file:///x/ns.db/t/metadata/00000.metadata.json" {
		t.Fatalf("read under another writer: %+v, %v", rec, err)
	}
	if ids, err := c2.ListTables(ctx, []string{"ns"}); err != nil || len(ids) != 1 {
		t.Fatalf("list under another writer: %v, %v", ids, err)
	}
	writes := map[string]func() error{
		"create namespace": func() error { return c2.CreateNamespace(ctx, []string{"other"}, nil) },
		"create table":     func() error { return c2.CreateTable(ctx, ident(t, "ns.u"), "file:///x/ns.db/u/m.json") },
		"commit": func() error {
			return c2.CommitTable(ctx, id, "file:///x/ns.db/t/metadata/00000.metadata.json", "file:///x/ns.db/t/metadata/00001.metadata.json")
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			err := write()
			var ce *CatalogError
			if !errors.Is(err, catalog.ErrBusy) || !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a *CatalogError matching catalog.ErrBusy", err)
			}
			if name == "commit" && !errors.Is(err, iceberg.ErrCommitFailed) {
				t.Fatalf("commit err = %v, want it to match iceberg.ErrCommitFailed too", err)
			}
		})
	}
	if rec, _ := c2.LoadTable(ctx, id); rec.MetadataLocation != "file:///x/ns.db/t/metadata/00000.metadata.json" {
		t.Fatalf("pointer moved to %s", rec.MetadataLocation)
	}
}

// TestOpenNewCatalogUnderAnotherWriter: a catalog whose tables are
// missing needs the lock to create them; that wait ends in ErrBusy.
func TestOpenNewCatalogUnderAnotherWriter(t *testing.T) {
	path := t.TempDir() + "/catalog.db"
	db, err := sql.Open("sqlite3", buildDSN(path, false, time.Second, "immediate"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA journal_mode = WAL; CREATE TABLE unrelated (x)"); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("INSERT INTO unrelated VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), path, Options{BusyTimeout: 200 * time.Millisecond})
	if !errors.Is(err, catalog.ErrBusy) {
		t.Fatalf("Open of a catalog without tables under another writer: %v, want catalog.ErrBusy", err)
	}
}
