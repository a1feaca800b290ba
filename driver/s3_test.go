package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/icesql/icesql/driver"
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
