package driver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// metadataJSONFiles lists a table's metadata.json files (plain or gzipped).
func metadataJSONFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"*.metadata.json", "*.metadata.json.gz"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	return out
}

func globCount(t *testing.T, pattern string) int64 {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return int64(len(m))
}

// With history.expire.on-commit.enabled every INSERT also expires what
// the history.expire.* policy no longer keeps, in the same commit: one
// metadata.json per INSERT, the history never longer than
// min-snapshots-to-keep (past a zero max age), every row kept, the
// expired snapshots' manifest lists gone, and time travel to each
// retained snapshot reading what it held.
func TestExpireOnCommit(t *testing.T) {
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE t (id BIGINT) TBLPROPERTIES ('history.expire.on-commit.enabled'='true', "+
		"'history.expire.max-snapshot-age-ms'='0', 'history.expire.min-snapshots-to-keep'='3')")
	metaDir := filepath.Join(wh, "default.db", "t", "metadata")
	const keep, n = 3, 30
	for i := int64(1); i <= n; i++ {
		mustExec(t, db, "INSERT INTO t VALUES (?)", i)
		if got, want := queryInt(t, db, "SELECT count(*) FROM t.snapshots"), min(i, keep); got != want {
			t.Fatalf("after INSERT %d: %d snapshots, want %d", i, got, want)
		}
		if got := int64(len(metadataJSONFiles(t, metaDir))); got != i+1 {
			t.Fatalf("after INSERT %d: %d metadata files, want %d (one per commit)", i, got, i+1)
		}
		if got := globCount(t, filepath.Join(metaDir, "snap-*.avro")); got != min(i, keep) {
			t.Fatalf("after INSERT %d: %d manifest lists, want %d", i, got, min(i, keep))
		}
	}
	if got := queryInt(t, db, "SELECT sum(id) FROM t"); got != n*(n+1)/2 {
		t.Fatalf("sum = %d", got)
	}
	// Each retained snapshot reads the rows it held; an expired one is gone.
	rows, err := db.Query("SELECT snapshot_id FROM t.snapshots ORDER BY committed_at")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	for k, id := range ids {
		want := int64(n - keep + 1 + k)
		if got := queryInt(t, db, fmt.Sprintf("SELECT count(*) FROM t VERSION AS OF %d", id)); got != want {
			t.Errorf("VERSION AS OF %d: %d rows, want %d", id, got, want)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("SELECT count(*) FROM t VERSION AS OF %d", ids[0]-1)); err == nil {
		t.Error("time travel to an expired snapshot worked")
	}

	// A DELETE's removed files go once no retained snapshot has them, and
	// no file a retained snapshot reads goes before.
	dataDir := filepath.Join(wh, "default.db", "t", "data")
	mustExec(t, db, "DELETE FROM t WHERE id <= 10")
	for i := int64(1); i <= keep; i++ {
		mustExec(t, db, "INSERT INTO t VALUES (?)", 100+i)
		if got := queryInt(t, db, "SELECT count(*) FROM t.snapshots"); got != keep {
			t.Fatalf("%d snapshots, want %d", got, keep)
		}
		rows, err := db.Query("SELECT snapshot_id FROM t.snapshots")
		if err != nil {
			t.Fatal(err)
		}
		var snaps []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			snaps = append(snaps, id)
		}
		rows.Close()
		for _, id := range snaps {
			queryInt(t, db, fmt.Sprintf("SELECT count(*) FROM t VERSION AS OF %d", id)) // every file there
		}
	}
	onDisk := globCount(t, filepath.Join(dataDir, "*.parquet")) + globCount(t, filepath.Join(dataDir, "*.puffin"))
	if live := queryInt(t, db, "SELECT count(*) FROM t.files"); onDisk != live {
		t.Fatalf("%d data and delete files on disk, %d live: the DELETE's removed files stayed", onDisk, live)
	}
	if got := queryInt(t, db, "SELECT sum(id) FROM t"); got != n*(n+1)/2-55+3*100+6 {
		t.Fatalf("sum after DELETE = %d", got)
	}

	// Off (the default), nothing expires.
	mustExec(t, db, "CREATE TABLE u (id BIGINT) TBLPROPERTIES ('history.expire.max-snapshot-age-ms'='0')")
	for i := 1; i <= 5; i++ {
		mustExec(t, db, "INSERT INTO u VALUES (?)", i)
	}
	if got := queryInt(t, db, "SELECT count(*) FROM u.snapshots"); got != 5 {
		t.Fatalf("u has %d snapshots, want 5", got)
	}
}

// Expiry on commit keeps what refs need: a tag's snapshot and a branch's
// head stay readable however many commits follow, and a transaction's
// COMMIT expires too; with history.expire.max-ref-age-ms a tag past that
// age is dropped by the next commit, its snapshot with it.
func TestExpireOnCommitKeepsRefs(t *testing.T) {
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE t (id BIGINT) TBLPROPERTIES ('history.expire.on-commit.enabled'='true', "+
		"'history.expire.max-snapshot-age-ms'='0', 'history.expire.min-snapshots-to-keep'='1')")
	mustExec(t, db, "INSERT INTO t VALUES (1)")
	mustExec(t, db, "ALTER TABLE t CREATE TAG first")
	mustExec(t, db, "INSERT INTO t VALUES (2)")
	mustExec(t, db, "ALTER TABLE t CREATE BRANCH side")
	for i := 3; i <= 10; i++ {
		mustExec(t, db, "INSERT INTO t VALUES (?)", i)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	mustExecTx(t, tx, "INSERT INTO t VALUES (11)")
	mustExecTx(t, tx, "INSERT INTO t VALUES (12)")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	// main's head, the tag's and the branch's snapshot.
	if got := queryInt(t, db, "SELECT count(*) FROM t.snapshots"); got != 3 {
		t.Fatalf("%d snapshots, want 3 (main, the tag's, the branch's)", got)
	}
	for _, c := range []struct {
		ref  string
		want int64
	}{{"first", 1}, {"side", 2}} {
		if got := queryInt(t, db, "SELECT count(*) FROM t VERSION AS OF '"+c.ref+"'"); got != c.want {
			t.Errorf("VERSION AS OF '%s': %d rows, want %d", c.ref, got, c.want)
		}
	}
	if got := queryInt(t, db, "SELECT count(*) FROM t"); got != 12 {
		t.Fatalf("%d rows, want 12", got)
	}

	// A tag older than history.expire.max-ref-age-ms goes at the next commit.
	mustExec(t, db, "CREATE TABLE r (id BIGINT) TBLPROPERTIES ('history.expire.on-commit.enabled'='true', "+
		"'history.expire.max-snapshot-age-ms'='0', 'history.expire.min-snapshots-to-keep'='1', "+
		"'history.expire.max-ref-age-ms'='1')")
	mustExec(t, db, "INSERT INTO r VALUES (1)")
	mustExec(t, db, "ALTER TABLE r CREATE TAG old")
	mustExec(t, db, "INSERT INTO r VALUES (2)")
	if got := queryInt(t, db, "SELECT count(*) FROM r.refs"); got != 1 {
		t.Fatalf("r has %d refs, want main only", got)
	}
	if got := queryInt(t, db, "SELECT count(*) FROM r.snapshots"); got != 1 {
		t.Fatalf("r has %d snapshots, want 1", got)
	}
}

// A table with write.metadata.compression-codec=gzip writes its
// metadata.json gzipped, named <version>-<uuid>.gz.metadata.json as Java
// names it, numbered on from the previous file; another engine opening
// the warehouse reads it, and a table registered from a file named the
// older way (.metadata.json.gz) reads too.
func TestGzipMetadataThroughDriver(t *testing.T) {
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE g (id BIGINT, s STRING) TBLPROPERTIES ('write.metadata.compression-codec'='gzip')")
	for i := 1; i <= 3; i++ {
		mustExec(t, db, "INSERT INTO g VALUES (?, ?)", i, fmt.Sprint("v", i))
	}
	metaDir := filepath.Join(wh, "default.db", "g", "metadata")
	files := metadataJSONFiles(t, metaDir)
	if len(files) != 4 {
		t.Fatalf("metadata files %v, want 4", files)
	}
	var newest string
	for v := 0; v <= 3; v++ {
		m, err := filepath.Glob(filepath.Join(metaDir, fmt.Sprintf("%05d-*.metadata.json", v)))
		if err != nil || len(m) != 1 {
			t.Fatalf("version %d: %v (%v)", v, m, err)
		}
		if !strings.HasSuffix(m[0], ".gz.metadata.json") {
			t.Fatalf("%s: not named .gz.metadata.json", m[0])
		}
		b, err := os.ReadFile(m[0])
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Fatalf("%s is not gzip", m[0])
		}
		newest = m[0]
	}

	other := openDB(t, wh)
	if got := queryInt(t, other, "SELECT sum(id) FROM g"); got != 6 {
		t.Fatalf("reopened: sum = %d", got)
	}
	if got := queryInt(t, other, "SELECT count(*) FROM g.snapshots"); got != 3 {
		t.Fatalf("reopened: %d snapshots", got)
	}

	// The same file under the older name registers and reads.
	old := strings.TrimSuffix(newest, ".gz.metadata.json") + "-copy.metadata.json.gz"
	b, err := os.ReadFile(newest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, b, 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, other, "CALL system.register_table('default.g_old', '"+filepath.ToSlash(old)+"')")
	if got := queryInt(t, other, "SELECT sum(id) FROM g_old"); got != 6 {
		t.Fatalf("registered .metadata.json.gz: sum = %d", got)
	}
}
