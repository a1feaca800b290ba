package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg/fileio"
	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
	"github.com/icesql/icesql/internal/pgtest"
	"github.com/icesql/icesql/internal/s3test"
)

// s3DSN is a warehouse in a new bucket of the test S3 server, with a new
// Postgres database as its catalog.
func s3DSN(t *testing.T) (string, s3test.Store) {
	st := s3test.Bucket(t)
	pg := pgtest.Database(t)
	q := url.Values{"catalog_uri": {pg}}
	for k, v := range st.Props {
		q.Set(k, v)
	}
	return st.Warehouse("lake") + "?" + q.Encode(), st
}

func objects(t *testing.T, st s3test.Store, prefix string) []string {
	t.Helper()
	cfg, err := s3io.ConfigFromProperties(st.Props)
	if err != nil {
		t.Fatal(err)
	}
	fio, err := s3io.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for fi, err := range fio.List(context.Background(), st.Warehouse(prefix)) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fi.Location)
	}
	sort.Strings(out)
	return out
}

// TestS3Warehouse: the same SQL on a warehouse in an S3 bucket (a real
// S3-compatible server on loopback) with a Postgres catalog: every
// commit writes three metadata objects, DML in both write modes, a
// transaction across two tables, time travel, maintenance (orphan
// removal lists the bucket prefix), and concurrent writers of separate
// pools, as separate machines would be.
func TestS3Warehouse(t *testing.T) {
	dsn, st := s3DSN(t)
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
	exec(db, "CREATE TABLE a (id BIGINT, v BIGINT, cat STRING) PARTITIONED BY (cat)")
	exec(db, "CREATE TABLE b (id BIGINT, v BIGINT) TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')")
	before := len(objects(t, st, "lake/default.db/a/metadata"))
	exec(db, "INSERT INTO a VALUES (1, 10, 'x'), (2, 20, 'y'), (3, 30, 'x')")
	if n := len(objects(t, st, "lake/default.db/a/metadata")) - before; n != 3 {
		t.Fatalf("one INSERT wrote %d metadata objects, want 3", n)
	}
	if data := objects(t, st, "lake/default.db/a/data"); len(data) != 2 {
		t.Fatalf("data objects %v, want one per partition", data)
	}
	exec(db, "INSERT INTO b VALUES (1, 100), (2, 200)")
	first := one(db, "SELECT max(snapshot_id) FROM default.a.snapshots")
	exec(db, "UPDATE a SET v = v + 1 WHERE id = 1")
	exec(db, "DELETE FROM b WHERE id = 2")
	exec(db, "MERGE INTO a USING b ON a.id = b.id WHEN MATCHED THEN UPDATE SET v = b.v WHEN NOT MATCHED THEN INSERT (id, v, cat) VALUES (b.id, b.v, 'z')")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO a VALUES (4, 40, 'y')"); err != nil {
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
	if got := one(db, "SELECT count(*) FROM default.b.delete_files"); got == 0 {
		t.Fatal("merge-on-read DELETE wrote no delete file")
	}

	// Maintenance: compaction, expiry and orphan removal on the bucket.
	exec(db, "CALL system.rewrite_data_files(table => 'default.a')")
	exec(db, "CALL system.expire_snapshots(table => 'default.a', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)")
	if got := one(db, "SELECT count(*) FROM default.a.snapshots"); got != 1 {
		t.Fatalf("%d snapshots after expiry, want 1", got)
	}
	orphan := st.Warehouse("lake/default.db/a/data/orphan.parquet")
	cfg, _ := s3io.ConfigFromProperties(st.Props)
	fio, err := s3io.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	out, err := fio.Create(context.Background(), orphan)
	if err != nil {
		t.Fatal(err)
	}
	out.Write([]byte("nobody references me"))
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	var removed []string
	rows, err := db.Query("CALL system.remove_orphan_files(table => 'default.a', older_than => TIMESTAMP '2999-01-01 00:00:00')")
	if err != nil {
		t.Fatal(err)
	}
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
	if len(removed) == 0 || !contains(removed, orphan) {
		t.Fatalf("remove_orphan_files removed %v, want the orphan %s among them", removed, orphan)
	}
	if _, err := fio.Open(context.Background(), orphan); !errors.Is(err, fileio.ErrNotFound) {
		t.Fatalf("orphan still there: %v", err)
	}
	if got := one(db, "SELECT sum(v) FROM a"); got != 100+20+30+40 {
		t.Fatalf("sum(a.v) after maintenance = %d", got)
	}

	// Writers on separate pools append concurrently; no row is lost or duplicated.
	const writers, each = 4, 5
	appendFromPools(t, dsn, writers, each)
	if got := one(db, "SELECT count(DISTINCT id) FROM b WHERE id >= 1000"); got != writers*each {
		t.Fatalf("%d distinct appended rows, want %d", got, writers*each)
	}
	if got := one(db, "SELECT count(*) FROM b WHERE id >= 1000"); got != writers*each {
		t.Fatalf("%d appended rows, want %d", got, writers*each)
	}
}

// TestS3LocationConfinement: on object storage too, LOCATION stays in the
// warehouse prefix unless allowed, and must be an empty prefix.
func TestS3LocationConfinement(t *testing.T) {
	dsn, st := s3DSN(t)
	db, err := sql.Open("iceberg", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, loc := range []string{
		st.Warehouse("elsewhere/t"),         // outside the warehouse prefix
		"s3://other-bucket/lake/t",          // another bucket
		st.Warehouse("lake/../elsewhere/t"), // climbs out
		st.Warehouse("lake"),                // the warehouse itself
	} {
		_, err := db.Exec("CREATE TABLE t (id BIGINT) LOCATION '" + loc + "'")
		if err == nil || !strings.Contains(err.Error(), "location") {
			t.Errorf("LOCATION %s: %v, want a refusal", loc, err)
		}
	}
	if _, err := db.Exec("CREATE TABLE t (id BIGINT) LOCATION '" + st.Warehouse("lake/custom/t") + "'"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	if got := objects(t, st, "lake/custom/t/data"); len(got) != 1 {
		t.Fatalf("data objects under the LOCATION: %v", got)
	}
	_, err = db.Exec("CREATE TABLE u (id BIGINT) LOCATION '" + st.Warehouse("lake/custom/t") + "'")
	if err == nil {
		t.Fatal("a second table over a non-empty prefix was created")
	}
}

func TestS3DSN(t *testing.T) {
	const dsn = "s3://bucket/lake?catalog_uri=postgres%3A%2F%2Fu%3Apw%40h%2Fdb&s3.endpoint=http%3A%2F%2F127.0.0.1%3A7070&s3.secret-access-key=SECRET&s3.access-key-id=AK&s3.path-style-access=true"
	cfg, err := driver.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Warehouse != "s3://bucket/lake" || cfg.FileIO["s3.endpoint"] != "http://127.0.0.1:7070" || cfg.CatalogFile != "" {
		t.Fatalf("parsed %+v", cfg)
	}
	again, err := driver.ParseDSN(cfg.FormatDSN())
	if err != nil || again.FormatDSN() != cfg.FormatDSN() || again.FileIO["s3.secret-access-key"] != "SECRET" {
		t.Fatalf("round trip: %v %+v", err, again)
	}
	if r := cfg.RedactedDSN(); strings.Contains(r, "SECRET") || strings.Contains(r, "pw") {
		t.Fatalf("RedactedDSN shows a secret: %s", r)
	}
	for _, bad := range []string{
		"s3://bucket/lake",                       // no catalog
		"s3:///lake?catalog_uri=postgres://h/db", // no bucket
		"s3://b/l?catalog_uri=postgres://h/db&s3.path-style-access=maybe",
		"s3://b/l?catalog_uri=postgres://h/db&s3.secret-access-key=TOPSECRET", // key without id
	} {
		_, err := driver.ParseDSN(bad)
		if !errors.Is(err, driver.ErrBadDSN) {
			t.Errorf("%s: %v, want ErrBadDSN", bad, err)
		}
		if err != nil && strings.Contains(err.Error(), "TOPSECRET") {
			t.Errorf("error shows the secret: %v", err)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
