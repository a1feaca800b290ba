package sqlexec_test

import (
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg/fileio"
)

// literalPath is the file a location names, read as Java, Spark and
// PyIceberg read it: the path literal (after "file://" if it has that
// scheme), nothing percent-decoded.
func literalPath(t *testing.T, loc string) string {
	t.Helper()
	p := strings.TrimPrefix(loc, "file://")
	if !strings.HasPrefix(p, "/") {
		t.Fatalf("location %q is not an absolute path", loc)
	}
	return filepath.FromSlash(p)
}

// TestLocationsAreLiteralPaths: locations are absolute paths written
// literally (spaces, colons, unicode as they are), and partition values are
// escaped into one directory level as Java's partitionToPath does, so no
// value can create or climb directories; every location in the metadata
// names an existing file as a literal path.
func TestLocationsAreLiteralPaths(t *testing.T) {
	base := t.TempDir()
	wh := filepath.Join(base, "wh dir:1 é")
	db, err := sql.Open("iceberg", wh)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "CREATE NAMESPACE ns")
	mustExec(t, db, "CREATE TABLE ns.t (id BIGINT, s STRING, ts TIMESTAMP) PARTITIONED BY (s, ts)")
	values := []string{"a/b=c", "../../../../escaped", "../x", "..", ".", "/abs", "nul\x00byte", "sp ace", "ü/ñ", "x%2Fy", "%", "a\\b", "", "plus+sign", "?q#f"}
	for i, v := range values {
		mustExec(t, db, "INSERT INTO ns.t VALUES (?, ?, TIMESTAMP '2021-01-01 23:59:59.500')", int64(i), v)
	}
	mustExec(t, db, "INSERT INTO ns.t VALUES (99, NULL, NULL)")
	if got := queryInt64(t, db, "SELECT count(*) FROM ns.t"); got != int64(len(values)+1) {
		t.Fatalf("count = %d", got)
	}
	for i, v := range values {
		var s string
		if err := db.QueryRow("SELECT s FROM ns.t WHERE id = ?", int64(i)).Scan(&s); err != nil || s != v {
			t.Fatalf("row %d: s = %q (%v), want %q", i, s, err, v)
		}
		if n := queryInt64(t, db, "SELECT count(*) FROM ns.t WHERE s = ?", v); n != 1 {
			t.Fatalf("s = %q matches %d rows", v, n)
		}
	}
	// Nothing was created beside the warehouse, and every data file is
	// exactly one partition level per field below data/.
	entries, err := os.ReadDir(base)
	if err != nil || len(entries) != 1 {
		t.Fatalf("entries beside the warehouse: %v (%v)", entries, err)
	}
	files := queryRows(t, db, "SELECT file_path FROM ns.t.files")
	if len(files) != len(values)+1 {
		t.Fatalf("%d files", len(files))
	}
	dataDir := filepath.Join(wh, "ns.db", "t", "data")
	for _, loc := range files {
		if !strings.HasPrefix(loc, filepath.ToSlash(wh)+"/") {
			t.Fatalf("location %q is not the warehouse path written literally", loc)
		}
		p := literalPath(t, loc)
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("location %q names no file as a literal path: %v", loc, err)
		}
		rel, err := filepath.Rel(dataDir, p)
		if err != nil || strings.HasPrefix(rel, "..") || strings.Count(rel, string(filepath.Separator)) != 2 {
			t.Fatalf("file %q is not two partition levels below %q", p, dataDir)
		}
		if !strings.Contains(rel, "ts=2021-01-01T23%3A59%3A59.5") && !strings.Contains(rel, "ts=null") {
			t.Fatalf("file %q: timestamp partition not escaped as Java does", rel)
		}
	}
	if !containsAll(files, "/data/s=a%2Fb%3Dc/", "/data/s=..%2F..%2F..%2F..%2Fescaped/", "/data/s=..%2Fx/", "/data/s=../", "/data/s=./",
		"/data/s=%2Fabs/", "/data/s=nul%00byte/", "/data/s=sp+ace/", "/data/s=%C3%BC%2F%C3%B1/", "/data/s=x%252Fy/", "/data/s=%25/",
		"/data/s=a%5Cb/", "/data/s=/", "/data/s=plus%2Bsign/", "/data/s=%3Fq%23f/", "/data/s=null/") {
		t.Fatalf("partition directories not escaped as Java's partitionToPath: %v", files)
	}
	// Every other location the metadata holds names a file literally too.
	var others []string
	for _, q := range []string{
		"SELECT manifest_list FROM ns.t.snapshots",
		"SELECT path FROM ns.t.all_manifests",
		"SELECT file FROM ns.t.metadata_log_entries",
	} {
		got := queryRows(t, db, q)
		if len(got) == 0 {
			t.Fatalf("%s: no rows", q)
		}
		others = append(others, got...)
	}
	for _, loc := range others {
		if _, err := os.Stat(literalPath(t, loc)); err != nil || !strings.HasPrefix(loc, filepath.ToSlash(wh)+"/") {
			t.Fatalf("location %q names no file below the warehouse as a literal path: %v", loc, err)
		}
	}
	err = filepath.WalkDir(wh, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(p, "escaped") && !strings.HasPrefix(p, dataDir) {
			t.Errorf("%q is outside the data directory", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPartitionValueTooLongForAFileName: a value whose escaped directory
// name exceeds the file system's limit fails the INSERT with the storage
// error (as Java's does), and nothing is committed.
func TestPartitionValueTooLongForAFileName(t *testing.T) {
	db, _ := openWarehouse(t)
	mustExec(t, db, "CREATE TABLE ns.t (id BIGINT, s STRING) PARTITIONED BY (s)")
	_, err := db.Exec("INSERT INTO ns.t VALUES (1, 'ok'), (2, ?)", strings.Repeat("é", 200))
	var pe *fileio.PathError
	if !errors.As(err, &pe) {
		t.Fatalf("INSERT of a too long partition value: %v, want a *fileio.PathError", err)
	}
	if n := queryInt64(t, db, "SELECT count(*) FROM ns.t"); n != 0 {
		t.Fatalf("%d rows committed", n)
	}
}

func containsAll(locs []string, parts ...string) bool {
	for _, part := range parts {
		found := false
		for _, l := range locs {
			found = found || strings.Contains(l, part)
		}
		if !found {
			return false
		}
	}
	return true
}
