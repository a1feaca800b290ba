package driver_test

import (
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	_ "github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/internal/pgtest"
	"github.com/icesql/icesql/internal/s3test"
)

// TestMain stops the Postgres cluster and S3 server the tests may have started.
func TestMain(m *testing.M) {
	code := m.Run()
	s3test.Stop()
	pgtest.Stop()
	os.Exit(code)
}

// TestPostgresCatalog: the same SQL on a warehouse whose catalog is a
// Postgres database (catalog_uri=postgres://...), including DDL, DML in
// both write modes, a transaction across two tables, time travel, and
// concurrent writers of separate connection pools (as separate machines).
func TestPostgresCatalog(t *testing.T) {
	uri := pgtest.Database(t)
	dsn := filepath.Join(t.TempDir(), "lake") + "?catalog_uri=" + url.QueryEscape(uri)
	db, err := sql.Open("iceberg", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(db *sql.DB, q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	one := func(db *sql.DB, q string) int64 {
		t.Helper()
		var n int64
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	exec(db, "CREATE TABLE a (id BIGINT, v BIGINT)")
	exec(db, "CREATE TABLE b (id BIGINT, v BIGINT) TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')")
	exec(db, "INSERT INTO a VALUES (1, 10), (2, 20), (3, 30)")
	exec(db, "INSERT INTO b VALUES (1, 100), (2, 200)")
	first := one(db, "SELECT max(snapshot_id) FROM default.a.snapshots")
	exec(db, "UPDATE a SET v = v + 1 WHERE id = 1")
	exec(db, "DELETE FROM b WHERE id = 2")
	exec(db, "MERGE INTO a USING b ON a.id = b.id WHEN MATCHED THEN UPDATE SET v = b.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (b.id, b.v)")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO a VALUES (4, 40)"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO b VALUES (4, 400)"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := one(db, "SELECT sum(v) FROM a"); got != 100+20+30+40 {
		t.Fatalf("sum(a.v) = %d", got)
	}
	if got := one(db, "SELECT sum(v) FROM b"); got != 100+400 {
		t.Fatalf("sum(b.v) = %d", got)
	}
	if got := one(db, "SELECT sum(v) FROM a VERSION AS OF "+strconv.FormatInt(first, 10)); got != 60 {
		t.Fatalf("time travel sum = %d", got)
	}
	exec(db, "CREATE VIEW big AS SELECT id FROM a WHERE v >= 30")
	if got := one(db, "SELECT count(*) FROM big"); got != 3 {
		t.Fatalf("view count = %d", got)
	}

	// Writers on separate pools append concurrently; no row is lost or duplicated.
	const writers, each = 4, 5
	appendFromPools(t, dsn, writers, each)
	if got := one(db, "SELECT count(*) FROM b WHERE id >= 1000"); got != writers*each {
		t.Fatalf("%d appended rows, want %d", got, writers*each)
	}
	if got := one(db, "SELECT count(DISTINCT id) FROM b WHERE id >= 1000"); got != writers*each {
		t.Fatalf("%d distinct appended rows, want %d", got, writers*each)
	}
}

// appendFromPools has writers goroutines, each on a *sql.DB of its own
// (separate engines, caches and catalog connections, as separate machines
// would be), append each rows (id 1000+w*100+i, 1) to table b of dsn.
func appendFromPools(t *testing.T, dsn string, writers, each int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			other, err := sql.Open("iceberg", dsn)
			if err != nil {
				errs <- err
				return
			}
			defer other.Close()
			for i := range each {
				if _, err := other.Exec("INSERT INTO b VALUES (?, 1)", 1000+w*100+i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
