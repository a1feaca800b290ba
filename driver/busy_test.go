package driver_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// TestCatalogWriteLockHeldElsewhere: while another connection to the
// catalog file (as another process) holds its write lock, a new handle
// opens the warehouse and reads; writes fail after the busy timeout
// matching catalog.ErrBusy (a commit also iceberg.ErrCommitFailed),
// leaving no directory of the failed CREATE TABLE and the pointer where
// it was.
func TestCatalogWriteLockHeldElsewhere(t *testing.T) {
	wh := t.TempDir()
	setup := openDB(t, wh)
	mustExec(t, setup, "CREATE TABLE t (x INT) TBLPROPERTIES ('commit.retry.num-retries'='0')")
	mustExec(t, setup, "INSERT INTO t VALUES (1), (2)")
	setup.Close()

	cat, err := sql.Open("sqlite3", filepath.Join(wh, "catalog.db")+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	lock, err := cat.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback()
	if _, err := lock.Exec("UPDATE iceberg_tables SET table_name = table_name WHERE 0"); err != nil {
		t.Fatal(err)
	}

	db := openDB(t, wh)
	if got := queryStrings(t, db, "SELECT x FROM t ORDER BY x"); !slices.Equal(got, []string{"1", "2"}) {
		t.Fatalf("read under another writer: %v", got)
	}
	before := queryStrings(t, db, "SELECT snapshot_id FROM t.snapshots")

	_, err = db.Exec("CREATE TABLE u (x INT)")
	if !errors.Is(err, catalog.ErrBusy) {
		t.Fatalf("CREATE TABLE under another writer: %v, want catalog.ErrBusy", err)
	}
	if _, serr := os.Stat(filepath.Join(wh, "default.db", "u")); !os.IsNotExist(serr) {
		t.Errorf("the failed CREATE TABLE left its directory behind (%v)", serr)
	}
	_, err = db.Exec("INSERT INTO t VALUES (3)")
	if !errors.Is(err, catalog.ErrBusy) || !errors.Is(err, iceberg.ErrCommitFailed) {
		t.Fatalf("INSERT under another writer: %v, want catalog.ErrBusy and iceberg.ErrCommitFailed", err)
	}
	if after := queryStrings(t, db, "SELECT snapshot_id FROM t.snapshots"); !slices.Equal(after, before) {
		t.Fatalf("snapshots %v after a failed INSERT, were %v", after, before)
	}

	lock.Rollback()
	mustExec(t, db, "CREATE TABLE u (x INT)")
	mustExec(t, db, "INSERT INTO t VALUES (3)")
}
