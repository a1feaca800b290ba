package driver_test

import (
	"path/filepath"
	"testing"
)

// With history.expire.on-commit.enabled, INSERTs expire snapshots past
// the history.expire.* policy once 50 of them are: the history stays
// bounded, every row stays, and the expired snapshots' files are gone.
func TestExpireOnCommit(t *testing.T) {
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE t (id BIGINT) TBLPROPERTIES ('history.expire.on-commit.enabled'='true', "+
		"'history.expire.max-snapshot-age-ms'='0', 'history.expire.min-snapshots-to-keep'='3')")
	metaDir := filepath.Join(wh, "default.db", "t", "metadata")
	maxSnaps := int64(0)
	for i := 1; i <= 120; i++ {
		mustExec(t, db, "INSERT INTO t VALUES (?)", i)
		maxSnaps = max(maxSnaps, queryInt(t, db, "SELECT count(*) FROM t.snapshots"))
	}
	if n := queryInt(t, db, "SELECT count(*) FROM t"); n != 120 {
		t.Fatalf("rows = %d, want 120", n)
	}
	if n := queryInt(t, db, "SELECT sum(id) FROM t"); n != 120*121/2 {
		t.Fatalf("sum = %d", n)
	}
	if maxSnaps > 3+50 {
		t.Fatalf("history grew to %d snapshots", maxSnaps)
	}
	snaps := queryInt(t, db, "SELECT count(*) FROM t.snapshots")
	if snaps >= 120 {
		t.Fatalf("nothing expired: %d snapshots", snaps)
	}
	lists, err := filepath.Glob(filepath.Join(metaDir, "snap-*.avro"))
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(lists)) != snaps {
		t.Fatalf("%d manifest lists for %d snapshots", len(lists), snaps)
	}

	// Off (the default), nothing expires.
	mustExec(t, db, "CREATE TABLE u (id BIGINT) TBLPROPERTIES ('history.expire.max-snapshot-age-ms'='0')")
	for i := 1; i <= 60; i++ {
		mustExec(t, db, "INSERT INTO u VALUES (?)", i)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM u.snapshots"); n != 60 {
		t.Fatalf("u has %d snapshots, want 60", n)
	}
}
