package driver_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// TestCreateTableAsSelectIsOneCommit: CTAS creates the table and its
// first snapshot in one commit, as Java's staged create does: one
// metadata.json, holding the snapshot; a query that fails at run time
// leaves no table, no file and no directory; an empty result creates the
// table alone; a taken name fails before the query runs.
func TestCreateTableAsSelectIsOneCommit(t *testing.T) {
	dir := t.TempDir()
	// No data file cache: a file removed below must be missed.
	db := openDB(t, dir+"?data_file_cache=0")
	mustExec(t, db, "CREATE TABLE src (id BIGINT, v STRING)")
	mustExec(t, db, "INSERT INTO src VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	mustExec(t, db, "CREATE TABLE dst AS SELECT * FROM src WHERE id > 1")
	if n := queryInt(t, db, "SELECT count(*) FROM dst"); n != 2 {
		t.Fatalf("dst has %d rows", n)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM dst.snapshots"); n != 1 {
		t.Fatalf("dst has %d snapshots", n)
	}
	if files := metadataFiles(t, dir, "dst"); len(files) != 1 || !strings.HasPrefix(files[0], "00000-") {
		t.Fatalf("dst's metadata files: %v, want one version 0", files)
	}

	mustExec(t, db, "CREATE TABLE none AS SELECT * FROM src WHERE id > 10")
	if n := queryInt(t, db, "SELECT count(*) FROM none.snapshots"); n != 0 {
		t.Fatalf("an empty CTAS made %d snapshots", n)
	}

	before := listTree(t, dir)
	if _, err := db.Exec("CREATE TABLE src AS SELECT 1 AS x"); !errors.Is(err, iceberg.ErrTableAlreadyExists) {
		t.Fatalf("CTAS onto a table: %v", err)
	}
	if after := listTree(t, dir); !slices.Equal(before, after) {
		t.Fatalf("CTAS onto a taken name wrote files:\nbefore %v\nafter  %v", before, after)
	}
	// A source whose data file is gone fails while the query runs.
	var file string
	if err := db.QueryRow("SELECT file_path FROM src.files").Scan(&file); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(strings.TrimPrefix(file, "file://")); err != nil {
		t.Fatal(err)
	}
	before = listTree(t, dir)
	if _, err := db.Exec("CREATE TABLE broken AS SELECT * FROM src"); err == nil {
		t.Fatal("CTAS over a missing data file succeeded")
	}
	if _, err := db.Exec("SELECT * FROM broken"); !errors.Is(err, iceberg.ErrNoSuchTable) {
		t.Fatalf("a failed CTAS left a table: %v", err)
	}
	if after := listTree(t, dir); !slices.Equal(before, after) {
		t.Fatalf("a failed CTAS left files:\nbefore %v\nafter  %v", before, after)
	}
}

// metadataFiles lists the metadata.json files of a table of the default
// namespace under warehouse dir.
func metadataFiles(t *testing.T, dir, table string) []string {
	t.Helper()
	var out []string
	for _, p := range listTree(t, dir) {
		if strings.HasSuffix(p, ".metadata.json") && filepath.Base(filepath.Dir(filepath.Dir(p))) == table {
			out = append(out, filepath.Base(p))
		}
	}
	return out
}
