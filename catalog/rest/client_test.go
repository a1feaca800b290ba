package rest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sync"
	"testing"

	"github.com/icesql/icesql/catalog"
	restcat "github.com/icesql/icesql/catalog/rest"
	"github.com/icesql/icesql/catalog/sqlite"
	_ "github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/internal/restapi"
	"github.com/icesql/icesql/server/rest"
)

// served is icesql's REST server over a SQLite catalog in warehouse dir,
// on 127.0.0.1; dsn opens an engine whose catalog is that server.
type served struct {
	dir, url string
}

func serve(t testing.TB, opts rest.Options) *served {
	t.Helper()
	dir := t.TempDir()
	cat, err := sqlite.Open(context.Background(), filepath.Join(dir, "catalog.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if opts.Warehouse, err = fileio.LocalURI(dir); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(rest.New(cat, &fileio.Local{}, opts))
	t.Cleanup(hs.Close)
	return &served{dir: dir, url: hs.URL}
}

func (s *served) open(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("iceberg", s.dir+"?catalog_uri="+url.QueryEscape(s.url))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func exec(t testing.TB, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func count(t testing.TB, db *sql.DB, q string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// TestEngineOverREST runs the engine with the REST client as its catalog:
// DDL, appends, schema evolution, row-level DML, a transaction over two
// tables (one POST /v1/transactions/commit), views; and a second engine on
// the SQLite file behind the server sees the same tables.
func TestEngineOverREST(t *testing.T) {
	s := serve(t, rest.Options{})
	db := s.open(t)
	exec(t, db,
		"CREATE TABLE a (id BIGINT, v STRING)",
		"CREATE TABLE b (id BIGINT)",
		"INSERT INTO a VALUES (1, 'x'), (2, 'y'), (3, 'z')",
		"ALTER TABLE a ADD COLUMN w INT",
		"INSERT INTO a VALUES (4, 'w', 40)",
		"DELETE FROM a WHERE id = 2",
		"UPDATE a SET v = 'X' WHERE id = 1",
	)
	if n := count(t, db, "SELECT count(*) FROM a WHERE v <> 'y'"); n != 3 {
		t.Fatalf("a has %d rows, want 3", n)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"INSERT INTO a VALUES (5, 'v', 5)", "INSERT INTO b VALUES (5)"} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	exec(t, db, "CREATE VIEW big AS SELECT id FROM a WHERE id > 3")
	if n := count(t, db, "SELECT count(*) FROM big"); n != 2 {
		t.Fatalf("view: %d rows", n)
	}

	direct, err := sql.Open("iceberg", s.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	if got := fmt.Sprint(count(t, direct, "SELECT count(*) FROM a"), count(t, direct, "SELECT count(*) FROM b"),
		count(t, direct, "SELECT count(*) FROM a WHERE v = 'X'")); got != "4 1 1" {
		t.Fatalf("the catalog behind the server has %s", got)
	}
	exec(t, db, "DROP TABLE b")
	if _, err := direct.Exec("SELECT * FROM b"); !errors.Is(err, iceberg.ErrNoSuchTable) {
		t.Fatalf("dropped over REST, still there: %v", err)
	}
}

// TestConcurrentWritersOverREST: engines of their own (separate caches),
// all through one server, append at once; no row is lost.
func TestConcurrentWritersOverREST(t *testing.T) {
	s := serve(t, rest.Options{})
	exec(t, s.open(t), "CREATE TABLE t (w INT, i INT)")
	const writers, each = 4, 8
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			db := s.open(t)
			for i := 0; i < each; i++ {
				if _, err := db.Exec(fmt.Sprintf("INSERT INTO t VALUES (%d, %d)", w, i)); err != nil {
					errs <- fmt.Errorf("writer %d insert %d: %w", w, i, err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	db := s.open(t)
	if n := count(t, db, "SELECT count(*) FROM t"); n != writers*each {
		t.Fatalf("%d rows, want %d", n, writers*each)
	}
	if n := count(t, db, "SELECT count(DISTINCT w * 100 + i) FROM t"); n != writers*each {
		t.Fatalf("%d distinct rows, want %d", n, writers*each)
	}
}

func TestClientErrors(t *testing.T) {
	ctx := context.Background()
	s := serve(t, rest.Options{Token: "tok"})
	if _, err := restcat.Open(ctx, s.url, restcat.Options{}); !errors.Is(err, restcat.ErrNotAuthorized) {
		t.Fatalf("no token: %v", err)
	}
	if _, err := restcat.Open(ctx, "ftp://x", restcat.Options{}); !errors.Is(err, restcat.ErrInvalidURI) {
		t.Fatalf("bad URI: %v", err)
	}
	// OAuth2 client credentials against the server's token endpoint.
	c, err := restcat.Open(ctx, s.url, restcat.Options{Properties: map[string]string{"credential": "me:tok"}})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Supports(restapi.EndpointCommitTransaction) {
		t.Fatal("endpoints not read from /v1/config")
	}
	ns := []string{"db"}
	if err := c.CreateNamespace(ctx, ns, map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateNamespace(ctx, ns, nil); !errors.Is(err, iceberg.ErrNamespaceExists) {
		t.Fatalf("twice: %v", err)
	}
	if _, err := c.LoadTable(ctx, catalog.Identifier{Namespace: ns, Name: "none"}); !errors.Is(err, iceberg.ErrNoSuchTable) {
		t.Fatalf("missing table: %v", err)
	}
	if _, err := c.ListTables(ctx, []string{"nope"}); !errors.Is(err, iceberg.ErrNoSuchNamespace) {
		t.Fatalf("missing namespace: %v", err)
	}
	db, err := sql.Open("iceberg", s.dir+"?catalog_uri="+url.QueryEscape(s.url))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err == nil {
		t.Fatal("an engine without the token reached the catalog")
	}
}

// TestStaleCommit: a commit based on an old version is a 409, returned as
// iceberg.ErrCommitFailed, and changes nothing.
func TestStaleCommit(t *testing.T) {
	ctx := context.Background()
	s := serve(t, rest.Options{})
	db := s.open(t)
	exec(t, db, "CREATE TABLE t (i INT)", "INSERT INTO t VALUES (1)")
	c, err := restcat.Open(ctx, s.url, restcat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := catalog.Identifier{Namespace: []string{"default"}, Name: "t"}
	old, err := c.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	exec(t, db, "INSERT INTO t VALUES (2)")
	mid, _ := c.LoadTable(ctx, id)
	exec(t, db, "INSERT INTO t VALUES (3)")
	// Replaying old -> mid (snapshot 2's change) on top of snapshot 3 is stale.
	if err := c.CommitTable(ctx, id, old.MetadataLocation, mid.MetadataLocation); !errors.Is(err, iceberg.ErrCommitFailed) {
		t.Fatalf("stale commit: %v", err)
	}
	if n := count(t, db, "SELECT count(*) FROM t"); n != 3 {
		t.Fatalf("%d rows", n)
	}
}

func restOptions() rest.Options { return rest.Options{} }

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
