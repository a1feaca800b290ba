package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/pgtest"
	"github.com/icesql/icesql/internal/s3test"
)

// TestShellOnS3: the shell on a warehouse in an S3 bucket (a real
// S3-compatible server on loopback) with a Postgres catalog, given as one
// DSN argument; neither the catalog's password nor the S3 secret key is
// ever printed, in \conninfo or in errors.
func TestShellOnS3(t *testing.T) {
	st := s3test.Bucket(t)
	const password = "pgsecretpw"
	pg, err := url.Parse(pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	pg.User = url.UserPassword(pg.User.Username(), password) // trust auth: accepted, never needed
	dsnFor := func(catalogURI string) string {
		q := url.Values{"catalog_uri": {catalogURI}}
		for k, v := range st.Props {
			q.Set(k, v)
		}
		return st.Warehouse("wh") + "?" + q.Encode()
	}
	dsn := dsnFor(pg.String())
	secrets := []string{password, st.Props["s3.secret-access-key"]}
	noSecrets := func(t *testing.T, outs ...string) {
		t.Helper()
		for _, out := range outs {
			for _, s := range secrets {
				if strings.Contains(out, s) {
					t.Fatalf("a secret is printed:\n%s", out)
				}
			}
		}
	}

	out, errOut, code := runShell(t, "", "-c", "CREATE TABLE t (id BIGINT, name STRING); INSERT INTO t VALUES (1, 'a'), (2, 'b')", dsn)
	if code != 0 {
		t.Fatalf("create and insert: exit %d: %s%s", code, out, errOut)
	}
	noSecrets(t, out, errOut)
	out, errOut, code = runShell(t, "", "-c", "SELECT * FROM t ORDER BY id", dsn)
	if code != 0 || out != " id | name\n----+------\n  1 | a\n  2 | b\n(2 rows)\n" {
		t.Fatalf("select: exit %d: %q %s", code, out, errOut)
	}
	out, errOut, code = runShell(t, "", "-c", `\conninfo`, dsn)
	if code != 0 || !strings.Contains(out, st.Warehouse("wh")) || !strings.Contains(out, "postgres://") {
		t.Fatalf("conninfo: exit %d: %s%s", code, out, errOut)
	}
	noSecrets(t, out, errOut)
	out, errOut, code = runShell(t, "", "-c", "SELECT * FROM nope", dsn)
	if code == 0 || !strings.Contains(errOut, "nope") {
		t.Fatalf("unknown table: exit %d: %s%s", code, out, errOut)
	}
	noSecrets(t, out, errOut)

	// A catalog that cannot be reached: the error names it, password hidden.
	down := *pg
	down.Host = "127.0.0.1:1"
	out, errOut, code = runShell(t, "", "-c", "SELECT 1", dsnFor(down.String()))
	if code == 0 || !strings.Contains(errOut, "127.0.0.1:1") {
		t.Fatalf("unreachable catalog: exit %d: %s%s", code, out, errOut)
	}
	t.Logf("unreachable catalog: %s", errOut)
	noSecrets(t, out, errOut)
	// Wrong S3 keys: the error names the bucket, not the key.
	bad := strings.Replace(dsn, url.QueryEscape(st.Props["s3.secret-access-key"]), "wrongsecretkey", 1)
	secrets = append(secrets, "wrongsecretkey")
	out, errOut, code = runShell(t, "", "-c", "SELECT * FROM t", bad)
	if code == 0 {
		t.Fatalf("wrong S3 secret key: exit 0: %s", out)
	}
	t.Logf("wrong S3 secret key: %s", errOut)
	noSecrets(t, out, errOut)
}
