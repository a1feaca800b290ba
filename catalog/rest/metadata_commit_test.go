package rest_test

import (
	"context"
	"database/sql"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/server/rest"
)

// TestEngineWritesNoMetadataOverREST: over a REST catalog the engine
// creates tables with POST .../tables (never registers them) and commits
// requirements and updates, so the server writes every metadata.json and
// each one is a version of the table: the current one or one its metadata
// log lists. Single-table commits, metadata-only changes, row-level DML
// and a two-table transaction all go this way.
func TestEngineWritesNoMetadataOverREST(t *testing.T) {
	dir := t.TempDir()
	cat, err := sqlite.Open(context.Background(), filepath.Join(dir, "catalog.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	wh, err := fileio.LocalURI(dir)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var calls []string
	h := rest.New(cat, &fileio.Local{}, rest.Options{Warehouse: wh})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls = append(calls, r.Method+" "+r.URL.Path)
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer hs.Close()
	db, err := sql.Open("iceberg", dir+"?catalog_uri="+url.QueryEscape(hs.URL))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec(t, db,
		"CREATE TABLE a (id BIGINT, v STRING) TBLPROPERTIES ('format-version'='3')",
		"CREATE TABLE b (id BIGINT)",
		"INSERT INTO a VALUES (1, 'x'), (2, 'y')",
		"ALTER TABLE a ADD COLUMN w INT",
		"ALTER TABLE a SET TBLPROPERTIES ('k'='v')",
		"DELETE FROM a WHERE id = 2",
		"INSERT INTO b VALUES (1)",
	)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"INSERT INTO a VALUES (3, 'z', 3)", "INSERT INTO b VALUES (3)", "INSERT INTO b VALUES (4)"} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	// CTAS: one commit with assert-create (stage-create's second half)
	exec(t, db, "CREATE TABLE c AS SELECT id, v FROM a WHERE id > 1",
		"CREATE TABLE e AS SELECT id FROM a WHERE id > 100")
	if got := count(t, db, "SELECT count(*) FROM c") + 10*count(t, db, "SELECT count(*) FROM c.snapshots"); got != 11 {
		t.Fatalf("c: rows + 10*snapshots = %d, want 11", got)
	}
	if got := count(t, db, "SELECT count(*) FROM a") + 10*count(t, db, "SELECT count(*) FROM b"); got != 32 {
		t.Fatalf("a + 10*b = %d rows, want 32", got)
	}
	mu.Lock()
	for _, c := range calls {
		if strings.HasSuffix(c, "/register") {
			t.Errorf("the engine registered a table: %s", c)
		}
	}
	creates := 0
	for _, c := range calls {
		if c == "POST /v1/namespaces/default/tables" {
			creates++
		}
	}
	if creates != 3 || !slices.Contains(calls, "POST /v1/transactions/commit") || !slices.Contains(calls, "POST /v1/namespaces/default/tables/c") {
		t.Errorf("want 3 creates (a, b, and e without rows), a transaction commit and c's create-commit, requests were %q", calls)
	}
	mu.Unlock()

	direct, err := sql.Open("iceberg", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	if v := count(t, direct, "SELECT count(*) FROM a.snapshots"); v != 3 {
		t.Errorf("a has %d snapshots, want 3", v)
	}
	for _, tbl := range []string{"a", "b", "c", "e"} {
		versions := map[string]bool{}
		rows, err := direct.Query("SELECT file FROM " + tbl + ".metadata_log_entries")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var f string
			if err := rows.Scan(&f); err != nil {
				t.Fatal(err)
			}
			versions[filepath.Base(f)] = true
		}
		rows.Close()
		var files []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".metadata.json") && filepath.Base(filepath.Dir(filepath.Dir(p))) == tbl {
				files = append(files, filepath.Base(p))
			}
			return nil
		})
		if len(files) == 0 {
			t.Fatalf("%s: no metadata files found", tbl)
		}
		for _, f := range files {
			if !versions[f] {
				t.Errorf("%s: %s is no version of the table (versions %v)", tbl, f, versions)
			}
		}
		if len(files) != len(versions) {
			t.Errorf("%s: %d metadata files, %d versions", tbl, len(files), len(versions))
		}
	}
}
