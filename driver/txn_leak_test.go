package driver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A transaction re-applied at COMMIT on a table another session appended
// to leaves no manifest list of its first attempt behind: every
// snap-*.avro in the table's metadata is some snapshot's manifest list.
func TestTxnReapplyLeavesNoManifestList(t *testing.T) {
	dir := t.TempDir()
	a := openDB(t, dir)
	b := openDB(t, dir)
	mustExec(t, a, "CREATE TABLE t (id BIGINT)")
	mustExec(t, a, "INSERT INTO t VALUES (0)")
	for round := range 3 {
		tx, err := a.Begin()
		if err != nil {
			t.Fatal(err)
		}
		mustExecTx(t, tx, "INSERT INTO t VALUES (1)")
		mustExecTx(t, tx, "INSERT INTO t VALUES (2)")
		mustExec(t, b, "INSERT INTO t VALUES (3)") // moves main under the transaction
		if err := tx.Commit(); err != nil {
			t.Fatalf("round %d: commit: %v", round, err)
		}
	}
	var n int64
	if err := a.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil || n != 10 {
		t.Fatalf("count = %d, %v; want 10", n, err)
	}
	rows, err := a.Query("SELECT manifest_list FROM t.snapshots")
	if err != nil {
		t.Fatal(err)
	}
	referenced := map[string]bool{}
	for rows.Next() {
		var ml string
		if err := rows.Scan(&ml); err != nil {
			t.Fatal(err)
		}
		referenced[filepath.Base(ml)] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join(dir, "default.db", "t", "metadata"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "snap-") && !referenced[e.Name()] {
			t.Errorf("manifest list %s is referenced by no snapshot", e.Name())
		}
	}
}
