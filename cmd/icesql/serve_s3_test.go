package main

import (
	"bufio"
	"context"
	"database/sql"
	"io"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/s3test"
	"github.com/icesql/icesql/server/rest"
	"github.com/icesql/icesql/sqlexec"
)

// noAWSCredentials leaves the process with no storage credentials of its
// own, so only what a server vends reaches the bucket.
func noAWSCredentials(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "",
		"AWS_PROFILE": "", "AWS_EC2_METADATA_DISABLED": "true", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_S3": "",
		"AWS_CONFIG_FILE": filepath.Join(dir, "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "none")} {
		t.Setenv(k, v)
	}
}

func rowCount(t *testing.T, db *sql.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestServeVendsCredentials: `icesql serve -vend-credentials` on an S3
// warehouse gives clients the storage configuration (in /v1/config), so a
// client whose DSN names only the server and a bearer token creates,
// writes and reads tables on the bucket.
func TestServeVendsCredentials(t *testing.T) {
	st := s3test.Bucket(t)
	q := url.Values{"catalog_uri": {filepath.Join(t.TempDir(), "catalog.db")}}
	for k, v := range st.Props {
		q.Set(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, st.Warehouse("lake")+"?"+q.Encode(), "127.0.0.1:0", rest.Options{Token: "tok"}, true, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	endpoint := strings.TrimSpace(line[strings.Index(line, "http://"):])
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	}()

	noAWSCredentials(t)
	db, err := sql.Open("iceberg", st.Warehouse("lake")+"?"+url.Values{"catalog_uri": {endpoint}, "token": {"tok"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range []string{"CREATE TABLE t (id BIGINT, s STRING)", "INSERT INTO t VALUES (1, 'a'), (2, 'b')", "INSERT INTO t VALUES (3, 'c')"} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if n := rowCount(t, db, "t"); n != 3 {
		t.Fatalf("count = %d, want 3", n)
	}

	bad, err := sql.Open("iceberg", st.Warehouse("lake")+"?"+url.Values{"catalog_uri": {endpoint}, "token": {"wrong"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	if err := bad.Ping(); err == nil || !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "authori") {
		t.Fatalf("a wrong token: %v, want an authorization error", err)
	}
}

// TestTableConfigCredentials: a server that vends storage credentials
// only in each load-table response (as Polaris and Unity do) lets a
// client without credentials read the table's files: the client mounts
// them on the table's location.
func TestTableConfigCredentials(t *testing.T) {
	st := s3test.Bucket(t)
	catFile := filepath.Join(t.TempDir(), "catalog.db")
	q := url.Values{"catalog_uri": {catFile}}
	for k, v := range st.Props {
		q.Set(k, v)
	}
	own, err := sql.Open("iceberg", st.Warehouse("lake")+"?"+q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{"CREATE TABLE t (id BIGINT)", "INSERT INTO t VALUES (1), (2), (3), (4)"} {
		if _, err := own.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	own.Close()
	ctx := context.Background()
	eng, err := sqlexec.Open(ctx, sqlexec.Config{Warehouse: st.Warehouse("lake"), CatalogFile: catFile, FileIO: st.Props})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	srv := httptest.NewServer(rest.New(eng.Catalog(), eng.Env().IO, rest.Options{Warehouse: st.Warehouse("lake"), TableConfig: st.Props}))
	defer srv.Close()

	noAWSCredentials(t)
	db, err := sql.Open("iceberg", st.Warehouse("lake")+"?"+url.Values{"catalog_uri": {srv.URL}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := rowCount(t, db, "t"); n != 4 {
		t.Fatalf("count = %d, want 4", n)
	}
	if _, err := db.Exec("INSERT INTO t VALUES (5)"); err != nil {
		t.Fatalf("insert with the vended credentials: %v", err)
	}
	if n := rowCount(t, db, "t"); n != 5 {
		t.Fatalf("count = %d, want 5", n)
	}
}
