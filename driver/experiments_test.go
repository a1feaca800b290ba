package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/internal/pgtest"
	"github.com/icesql/icesql/internal/s3test"
	restserver "github.com/icesql/icesql/server/rest"
	"github.com/icesql/icesql/sqlexec"
)

// testWarehouse is a warehouse of one kind: its DSN, its location, and a
// FileIO of its own that reaches its files (to list and plant objects as
// another machine would, not through the engine under test).
type testWarehouse struct {
	dsn  string
	root string // the warehouse's location: a directory, or s3://bucket/lake
	fio  fileio.FileIO
}

// warehouseKinds are the warehouses the seed's experiments run on: a local
// directory with its SQLite catalog (the default), a bucket of a real
// S3-compatible server with a Postgres catalog, and a local directory
// whose catalog is icesql's REST server.
var warehouseKinds = []struct {
	name string
	open func(t *testing.T) *testWarehouse
}{
	{"local", func(t *testing.T) *testWarehouse {
		dir := filepath.Join(t.TempDir(), "lake")
		return &testWarehouse{dsn: dir, root: dir, fio: &fileio.Local{}}
	}},
	{"s3+postgres", func(t *testing.T) *testWarehouse {
		st := s3test.Bucket(t)
		q := url.Values{"catalog_uri": {pgtest.Database(t)}}
		for k, v := range st.Props {
			q.Set(k, v)
		}
		cfg, err := s3io.ConfigFromProperties(st.Props)
		if err != nil {
			t.Fatal(err)
		}
		fio, err := s3io.New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return &testWarehouse{dsn: st.Warehouse("lake") + "?" + q.Encode(), root: st.Warehouse("lake"), fio: fio}
	}},
	{"rest", func(t *testing.T) *testWarehouse {
		// icesql's REST server (the handler icesql serve runs) over a
		// SQLite catalog on loopback; the engine's catalog is the server.
		dir := filepath.Join(t.TempDir(), "lake")
		cat, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "catalog.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cat.Close() })
		wh, err := fileio.LocalURI(dir)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(restserver.New(cat, &fileio.Local{}, restserver.Options{Warehouse: wh}))
		t.Cleanup(hs.Close)
		return &testWarehouse{dsn: dir + "?catalog_uri=" + url.QueryEscape(hs.URL), root: dir, fio: &fileio.Local{}}
	}},
}

// loc is the location of rel (slash-separated) below the warehouse.
func (w *testWarehouse) loc(rel string) string {
	if s3io.IsLocation(w.root) {
		return w.root + "/" + rel
	}
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// files lists the files below rel; none when it does not exist.
func (w *testWarehouse) files(t *testing.T, rel string) []string {
	t.Helper()
	var out []string
	for fi, err := range w.fio.List(context.Background(), w.loc(rel)) {
		if errors.Is(err, fileio.ErrNotFound) {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fi.Location)
	}
	sort.Strings(out)
	return out
}

func (w *testWarehouse) plant(t *testing.T, rel, content string) string {
	t.Helper()
	loc := w.loc(rel)
	out, err := w.fio.Create(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestWarehouseExperiments runs the seed's experiments through sql.Open on
// every kind of warehouse: the same SQL, the same outcomes.
func TestWarehouseExperiments(t *testing.T) {
	experiments := []struct {
		name string
		run  func(t *testing.T, w *testWarehouse)
	}{
		{"ThreeMetadataFilesPerCommit", expThreeMetadataFiles},
		{"WritersWithRetries", expWritersWithRetries},
		{"WritersWithoutRetries", expWritersWithoutRetries},
		{"MergeIsolation", expMergeIsolation},
		{"DMLBothModes", expDMLBothModes},
		{"TransactionAcrossTables", expTransactionAcrossTables},
		{"TimeTravel", expTimeTravel},
		{"Maintenance", expMaintenance},
	}
	for _, kind := range warehouseKinds {
		t.Run(kind.name, func(t *testing.T) {
			for _, e := range experiments {
				t.Run(e.name, func(t *testing.T) { e.run(t, kind.open(t)) })
			}
		})
	}
}

// Every commit writes exactly three metadata files: the table metadata,
// the manifest list and one manifest.
func expThreeMetadataFiles(t *testing.T, w *testWarehouse) {
	db := openDB(t, w.dsn)
	mustExec(t, db, "CREATE TABLE events (id BIGINT, ts TIMESTAMP) PARTITIONED BY (days(ts))")
	const meta = "default.db/events/metadata"
	if got := len(w.files(t, meta)); got != 1 {
		t.Fatalf("after CREATE: %d files under metadata/, want 1", got)
	}
	for i := 1; i <= 3; i++ {
		before := len(w.files(t, meta))
		mustExec(t, db, "INSERT INTO events VALUES (?, TIMESTAMP '2024-01-01 12:00:00')", i)
		if got := len(w.files(t, meta)) - before; got != 3 {
			t.Fatalf("insert %d wrote %d metadata files, want 3: %v", i, got, w.files(t, meta))
		}
	}
	if n := queryInt(t, db, "SELECT count(*) FROM events"); n != 3 {
		t.Fatalf("count = %d, want 3", n)
	}
}

// Writers on separate engines (as separate machines) append concurrently
// with retries: every row lands, each in its own snapshot.
func expWritersWithRetries(t *testing.T, w *testWarehouse) {
	db := openDB(t, w.dsn)
	mustExec(t, db, "CREATE TABLE b (id BIGINT, v BIGINT) TBLPROPERTIES ('commit.retry.num-retries'='50', 'commit.retry.min-wait-ms'='1', 'commit.retry.max-wait-ms'='50')")
	const writers, each = 4, 5
	appendFromPools(t, w.dsn, writers, each)
	if got := queryInt(t, db, "SELECT count(*) FROM b"); got != writers*each {
		t.Fatalf("%d rows, want %d", got, writers*each)
	}
	if got := queryInt(t, db, "SELECT count(DISTINCT id) FROM b"); got != writers*each {
		t.Fatalf("%d distinct rows, want %d", got, writers*each)
	}
	if got := queryInt(t, db, "SELECT count(*) FROM b.snapshots"); got != writers*each {
		t.Fatalf("%d snapshots, want one per row (%d)", got, writers*each)
	}
}

// With commit.retry.num-retries=0 a commit that loses the race fails with
// iceberg.ErrCommitFailed, and nothing of it is visible: deterministically
// (a transaction overtaken by another writer) and under concurrency.
func expWritersWithoutRetries(t *testing.T, w *testWarehouse) {
	b := openDB(t, w.dsn)
	mustExec(t, b, "CREATE TABLE r (w INT, n INT) TBLPROPERTIES ('commit.retry.num-retries'='0')")
	mustExec(t, b, "INSERT INTO r VALUES (0, 0)")
	// Engine a's commit is overtaken by b's between writing its metadata
	// and swapping the pointer.
	cfg, err := driver.ParseDSN(w.dsn)
	if err != nil {
		t.Fatal(err)
	}
	e, err := sqlexec.Open(context.Background(), sqlexec.Config{Warehouse: cfg.Warehouse, CatalogFile: cfg.CatalogFile,
		CatalogURI: cfg.CatalogURI, FileIO: cfg.FileIO})
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	e.Env().Faults = &table.Faults{Hook: func(step table.FaultStep, ident table.Identifier) error {
		if step == table.FaultAfterMetadata && ident.Name == "r" {
			once.Do(func() { mustExec(t, b, "INSERT INTO r VALUES (2, 1)") })
		}
		return nil
	}}
	a := sql.OpenDB(driver.NewEngineConnector(e))
	defer a.Close()
	dataBefore := len(w.files(t, "default.db/r/data"))
	if _, err := a.Exec("INSERT INTO r VALUES (1, 1)"); !errors.Is(err, iceberg.ErrCommitFailed) {
		t.Fatalf("overtaken commit: %v, want ErrCommitFailed", err)
	}
	if got := queryInt(t, b, "SELECT count(*) FROM r"); got != 2 {
		t.Fatalf("%d rows, want the first and the overtaking writer's", got)
	}
	if got := queryInt(t, a, "SELECT count(*) FROM r WHERE w = 1"); got != 0 {
		t.Fatalf("the failed commit's row is visible")
	}
	if got := len(w.files(t, "default.db/r/data")); got > dataBefore+1 {
		t.Fatalf("the failed commit left %d data files", got-dataBefore-1)
	}

	// Concurrent writers: each INSERT lands whole or fails with ErrCommitFailed.
	const writers, each = 3, 4
	var mu sync.Mutex
	landed := map[string]bool{}
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for wr := range writers {
		wg.Go(func() {
			db, err := sql.Open("iceberg", w.dsn)
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			for n := range each {
				_, err := db.Exec("INSERT INTO r VALUES (?, ?)", 10+wr, n)
				if err == nil {
					mu.Lock()
					landed[fmt.Sprint(10+wr, n)] = true
					mu.Unlock()
				} else if !errors.Is(err, iceberg.ErrCommitFailed) {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("insert: %v, want success or ErrCommitFailed", err)
	}
	rows, err := a.Query("SELECT w, n FROM r WHERE w >= 10")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var wr, n int
		if err := rows.Scan(&wr, &n); err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprint(wr, n)
		if seen[key] || !landed[key] {
			t.Fatalf("row %s: duplicated or from a failed commit", key)
		}
		seen[key] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(landed) {
		t.Fatalf("%d rows visible, %d commits succeeded", len(seen), len(landed))
	}
}

// MERGE with a concurrent writer appending a row the MERGE would have
// matched: serializable refuses the MERGE's commit, snapshot isolation
// allows it (Iceberg checks only conflicting deletes then). A concurrent
// delete of a row the MERGE rewrote conflicts under both.
func expMergeIsolation(t *testing.T, w *testWarehouse) {
	ctx := context.Background()
	a, b := openDB(t, w.dsn), openDB(t, w.dsn)
	mustExec(t, a, "CREATE TABLE src (id BIGINT, v BIGINT)")
	mustExec(t, a, "INSERT INTO src VALUES (1, 11), (3, 33)")
	const merge = "MERGE INTO m USING src ON m.id = src.id WHEN MATCHED THEN UPDATE SET v = src.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (src.id, src.v)"
	for _, tc := range []struct {
		level, concurrent string
		conflict          bool
		want              int64 // sum(v) afterwards
	}{
		{"serializable", "INSERT INTO m VALUES (3, 300)", true, 10 + 20 + 300},
		{"snapshot", "INSERT INTO m VALUES (3, 300)", false, 11 + 20 + 33 + 300},
		{"serializable", "DELETE FROM m WHERE id = 1", true, 20},
		{"snapshot", "DELETE FROM m WHERE id = 1", true, 20},
	} {
		t.Run(tc.level+"/"+strings.Fields(tc.concurrent)[0], func(t *testing.T) {
			mustExec(t, a, "DROP TABLE IF EXISTS m")
			mustExec(t, a, "CREATE TABLE m (id BIGINT, v BIGINT) TBLPROPERTIES ('write.merge.isolation-level'='"+tc.level+"')")
			mustExec(t, a, "INSERT INTO m VALUES (1, 10), (2, 20)")
			tx, err := a.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.Exec(merge); err != nil {
				t.Fatal(err)
			}
			mustExec(t, b, tc.concurrent)
			err = tx.Commit()
			var verr *iceberg.ValidationError
			if tc.conflict != errors.As(err, &verr) || (!tc.conflict && err != nil) {
				t.Fatalf("MERGE commit: %v (conflict expected: %v)", err, tc.conflict)
			}
			if got := queryInt(t, b, "SELECT sum(v) FROM m"); got != tc.want {
				t.Fatalf("sum = %d, want %d", got, tc.want)
			}
		})
	}
}

// UPDATE, DELETE and MERGE in copy-on-write and merge-on-read: the same
// rows either way; only merge-on-read writes delete files.
func expDMLBothModes(t *testing.T, w *testWarehouse) {
	db := openDB(t, w.dsn)
	mustExec(t, db, "CREATE TABLE src (id BIGINT, v BIGINT)")
	mustExec(t, db, "INSERT INTO src VALUES (2, 200), (9, 900)")
	for i, mode := range []string{"copy-on-write", "merge-on-read"} {
		t.Run(mode, func(t *testing.T) {
			tbl := "d" + strconv.Itoa(i)
			mustExec(t, db, "CREATE TABLE "+tbl+" (id BIGINT, v BIGINT, cat STRING) PARTITIONED BY (cat) TBLPROPERTIES ("+
				"'write.delete.mode'='"+mode+"', 'write.update.mode'='"+mode+"', 'write.merge.mode'='"+mode+"')")
			mustExec(t, db, "INSERT INTO "+tbl+" VALUES (1, 10, 'x'), (2, 20, 'y'), (3, 30, 'x'), (4, 40, 'y')")
			mustExec(t, db, "UPDATE "+tbl+" SET v = v + 1 WHERE id = 1")
			mustExec(t, db, "DELETE FROM "+tbl+" WHERE id = 3")
			mustExec(t, db, "MERGE INTO "+tbl+" t USING src ON t.id = src.id WHEN MATCHED THEN UPDATE SET v = src.v "+
				"WHEN NOT MATCHED THEN INSERT (id, v, cat) VALUES (src.id, src.v, 'z')")
			if got := queryInt(t, db, "SELECT sum(v) FROM "+tbl); got != 11+200+40+900 {
				t.Fatalf("sum = %d, want %d", got, 11+200+40+900)
			}
			if got := queryInt(t, db, "SELECT count(*) FROM "+tbl); got != 4 {
				t.Fatalf("count = %d, want 4", got)
			}
			deletes := queryInt(t, db, "SELECT count(*) FROM default."+tbl+".delete_files")
			if (mode == "merge-on-read") != (deletes > 0) {
				t.Fatalf("%s wrote %d delete files", mode, deletes)
			}
		})
	}
}

// A transaction over two tables commits both or neither.
func expTransactionAcrossTables(t *testing.T, w *testWarehouse) {
	ctx := context.Background()
	db := openDB(t, w.dsn)
	mustExec(t, db, "CREATE TABLE a (id BIGINT)")
	mustExec(t, db, "CREATE TABLE b (id BIGINT)")
	for _, commit := range []bool{false, true} {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec("INSERT INTO a VALUES (1)"); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec("INSERT INTO b VALUES (1)"); err != nil {
			t.Fatal(err)
		}
		if commit {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
		if err != nil {
			t.Fatal(err)
		}
		want := int64(0)
		if commit {
			want = 1
		}
		other := openDB(t, w.dsn) // another engine sees the same
		for _, tbl := range []string{"a", "b"} {
			if got := queryInt(t, other, "SELECT count(*) FROM "+tbl); got != want {
				t.Fatalf("commit=%v: %d rows in %s, want %d", commit, got, tbl, want)
			}
		}
	}
}

// VERSION AS OF reads an older snapshot, after later DML.
func expTimeTravel(t *testing.T, w *testWarehouse) {
	db := openDB(t, w.dsn)
	mustExec(t, db, "CREATE TABLE tt (id BIGINT, v BIGINT)")
	mustExec(t, db, "INSERT INTO tt VALUES (1, 10), (2, 20)")
	first := queryInt(t, db, "SELECT snapshot_id FROM default.tt.snapshots")
	mustExec(t, db, "UPDATE tt SET v = 0 WHERE id = 1")
	mustExec(t, db, "INSERT INTO tt VALUES (3, 30)")
	if got := queryInt(t, db, "SELECT sum(v) FROM tt VERSION AS OF "+strconv.FormatInt(first, 10)); got != 30 {
		t.Fatalf("sum as of the first snapshot = %d, want 30", got)
	}
	if got := queryInt(t, db, "SELECT sum(v) FROM tt"); got != 50 {
		t.Fatalf("current sum = %d, want 50", got)
	}
}

// Compaction, expiry and orphan removal (which lists the table's prefix).
func expMaintenance(t *testing.T, w *testWarehouse) {
	db := openDB(t, w.dsn)
	mustExec(t, db, "CREATE TABLE a (id BIGINT, v BIGINT, cat STRING) PARTITIONED BY (cat)")
	for i := range 4 {
		mustExec(t, db, "INSERT INTO a VALUES (?, ?, ?)", i, 10*i, []string{"x", "y"}[i%2])
	}
	mustExec(t, db, "CALL system.rewrite_data_files(table => 'default.a', options => map('min-input-files', '2'))")
	if got := queryInt(t, db, "SELECT count(*) FROM default.a.files"); got != 2 {
		t.Fatalf("%d data files after compaction, want one per partition", got)
	}
	mustExec(t, db, "CALL system.expire_snapshots(table => 'default.a', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)")
	if got := queryInt(t, db, "SELECT count(*) FROM default.a.snapshots"); got != 1 {
		t.Fatalf("%d snapshots after expiry, want 1", got)
	}
	if got := len(w.files(t, "default.db/a/data")); got != 2 {
		t.Fatalf("%d data files stored after expiry, want the 2 compacted ones", got)
	}
	orphan := w.plant(t, "default.db/a/data/orphan.parquet", "nobody references me")
	rows, err := db.Query("CALL system.remove_orphan_files(table => 'default.a', older_than => TIMESTAMP '2999-01-01 00:00:00')")
	if err != nil {
		t.Fatal(err)
	}
	var removed []string
	for rows.Next() {
		var loc string
		if err := rows.Scan(&loc); err != nil {
			t.Fatal(err)
		}
		removed = append(removed, loc)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || !strings.HasSuffix(removed[0], "/default.db/a/data/orphan.parquet") {
		t.Fatalf("remove_orphan_files removed %v, want just the orphan %s", removed, orphan)
	}
	if got := w.files(t, "default.db/a/data"); len(got) != 2 || contains(got, orphan) {
		t.Fatalf("data files after orphan removal: %v", got)
	}
	if got := queryInt(t, db, "SELECT sum(v) FROM a"); got != 0+10+20+30 {
		t.Fatalf("sum after maintenance = %d", got)
	}
}
