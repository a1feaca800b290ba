package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
)

func openDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("iceberg", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) sql.Result {
	t.Helper()
	res, err := db.Exec(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return res
}

func queryInt(t *testing.T, db *sql.DB, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func countFiles(t *testing.T, dir string) int {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

func TestMetadataFileCountPerInsert(t *testing.T) {
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE events (id BIGINT, event_ts TIMESTAMP) PARTITIONED BY (days(event_ts))")
	metaDir := filepath.Join(wh, "default.db", "events", "metadata")
	want := []int{1, 4, 7, 10}
	if got := countFiles(t, metaDir); got != want[0] {
		t.Fatalf("after CREATE: %d files under metadata/, want %d", got, want[0])
	}
	for i := 1; i <= 3; i++ {
		res := mustExec(t, db, "INSERT INTO events VALUES (?, ?)", i, time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC))
		if n, _ := res.RowsAffected(); n != 1 {
			t.Fatalf("insert %d: RowsAffected %d, want 1", i, n)
		}
		if got := countFiles(t, metaDir); got != want[i] {
			t.Fatalf("after insert %d: %d files under metadata/, want %d", i, got, want[i])
		}
	}
	if n := queryInt(t, db, "SELECT count(*) FROM events"); n != 3 {
		t.Fatalf("count = %d, want 3", n)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM events.files"); n != 3 {
		t.Fatalf("files = %d, want 3", n)
	}
}

func TestTwoWritersRetry(t *testing.T) {
	wh := t.TempDir()
	a := openDB(t, wh)
	b := openDB(t, wh)
	mustExec(t, a, "CREATE TABLE t (writer INT, n INT) TBLPROPERTIES ('commit.retry.min-wait-ms'='1', 'commit.retry.max-wait-ms'='20', 'commit.retry.num-retries'='50')")
	mustExec(t, a, "INSERT INTO t VALUES (0, 0)")
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for w, db := range []*sql.DB{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 6; i++ {
				if _, err := db.Exec("INSERT INTO t VALUES (?, ?)", w+1, i); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("insert: %v", err)
	}
	if n := queryInt(t, b, "SELECT count(*) FROM t"); n != 13 {
		t.Fatalf("rows = %d, want 13", n)
	}
	if n := queryInt(t, a, "SELECT count(*) FROM t.snapshots"); n != 13 {
		t.Fatalf("snapshots = %d, want 13", n)
	}
}

func TestErrors(t *testing.T) {
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE t (id BIGINT NOT NULL, s STRING)")
	tests := []struct {
		name string
		sql  string
		args []any
		is   error
	}{
		{"missing table", "SELECT * FROM nope", nil, iceberg.ErrNoSuchTable},
		{"null in required column", "INSERT INTO t VALUES (NULL, 'x')", nil, iceberg.ErrNotNullViolation},
		{"null argument in required column", "INSERT INTO t VALUES (?, 'x')", []any{nil}, iceberg.ErrNotNullViolation},
		{"table exists", "CREATE TABLE t (x INT)", nil, iceberg.ErrTableAlreadyExists},
		{"drop missing", "DROP TABLE nope", nil, iceberg.ErrNoSuchTable},
		{"missing namespace", "CREATE TABLE nons.t (x INT)", nil, iceberg.ErrNoSuchNamespace},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := db.Exec(tc.sql, tc.args...)
			if !errors.Is(err, tc.is) {
				t.Fatalf("%s: err = %v, want %v", tc.sql, err, tc.is)
			}
		})
	}
	if n := queryInt(t, db, "SELECT count(*) FROM t"); n != 0 {
		t.Fatalf("failed inserts wrote %d rows", n)
	}
	if _, err := db.BeginTx(context.Background(), &sql.TxOptions{Isolation: sql.LevelReadCommitted}); !errors.Is(err, driver.ErrIsolationLevel) {
		t.Fatalf("BeginTx read committed: %v", err)
	}
	res := mustExec(t, db, "INSERT INTO t VALUES (1, 'a')")
	if _, err := res.LastInsertId(); !errors.Is(err, driver.ErrNoLastInsertID) {
		t.Fatalf("LastInsertId: %v", err)
	}
}

func TestReadOnlyAndBadDSN(t *testing.T) {
	wh := t.TempDir()
	rw := openDB(t, wh)
	mustExec(t, rw, "CREATE TABLE t (id BIGINT)")
	mustExec(t, rw, "INSERT INTO t VALUES (1)")
	ro := openDB(t, wh+"?mode=ro")
	if n := queryInt(t, ro, "SELECT count(*) FROM t"); n != 1 {
		t.Fatalf("ro count = %d", n)
	}
	for _, q := range []string{"INSERT INTO t VALUES (2)", "CREATE TABLE u (x INT)", "DROP TABLE t"} {
		if _, err := ro.Exec(q); !errors.Is(err, driver.ErrReadOnly) {
			t.Fatalf("%s on ro: %v", q, err)
		}
	}
	if _, err := sql.Open("iceberg", wh+"?bogus=1"); !errors.Is(err, driver.ErrBadDSN) {
		t.Fatalf("bad DSN: %v", err)
	}
}

func TestPreparedStatementAndTypes(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE t (i INT, l BIGINT, d DOUBLE, s STRING, b BOOLEAN, dt DATE, `dec` DECIMAL(10, 2))")
	st, err := db.Prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := 0; i < 3; i++ {
		if _, err := st.Exec(i, int64(i)*10, float64(i)/2, "s", i%2 == 0, "2024-01-0"+string(rune('1'+i)), "1.25"); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
	rows, err := db.Query("SELECT i, l, d, s, b, dt, `dec` FROM t WHERE i = ?", 2)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	wantTypes := []string{"INT", "BIGINT", "DOUBLE", "STRING", "BOOLEAN", "DATE", "DECIMAL"}
	for i, ct := range types {
		if ct.DatabaseTypeName() != wantTypes[i] {
			t.Errorf("column %d type %s, want %s", i, ct.DatabaseTypeName(), wantTypes[i])
		}
	}
	if p, s, ok := types[6].DecimalSize(); !ok || p != 10 || s != 2 {
		t.Errorf("decimal size %d,%d,%v", p, s, ok)
	}
	if !rows.Next() {
		t.Fatal("no row")
	}
	var (
		i   int32
		l   int64
		d   float64
		s   string
		b   bool
		dt  time.Time
		dec string
	)
	if err := rows.Scan(&i, &l, &d, &s, &b, &dt, &dec); err != nil {
		t.Fatal(err)
	}
	if i != 2 || l != 20 || d != 1 || s != "s" || !b || !dt.Equal(time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC)) || dec != "1.25" {
		t.Fatalf("got %v %v %v %v %v %v %v", i, l, d, s, b, dt, dec)
	}
}

func TestCancelledContext(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE t (id BIGINT)")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := db.QueryContext(ctx, "SELECT * FROM t"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled query: %v", err)
	}
}
