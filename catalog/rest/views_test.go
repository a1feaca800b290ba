package rest_test

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/server/rest"
)

// TestViewsOverREST: over a REST catalog the engine creates views with
// POST .../views and replaces them (CREATE OR REPLACE, ALTER VIEW ... AS,
// SET / UNSET TBLPROPERTIES) with POST .../views/{view}, so the server
// writes every view metadata file and nothing is registered; queries read
// the views, DROP VIEW removes them.
func TestViewsOverREST(t *testing.T) {
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
		"CREATE TABLE t (id BIGINT, v STRING)",
		"INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
		"CREATE VIEW big COMMENT 'ids over 1' TBLPROPERTIES ('owner'='x') AS SELECT id FROM t WHERE id > 1",
	)
	steps := []struct {
		name, stmt, query string
		want              int64
		err               error
	}{
		{"create", "", "SELECT count(*) FROM big", 2, nil},
		{"create again", "CREATE VIEW big AS SELECT id FROM t", "", 0, iceberg.ErrViewAlreadyExists},
		{"create if not exists", "CREATE VIEW IF NOT EXISTS big AS SELECT id FROM t", "SELECT count(*) FROM big", 2, nil},
		{"replace", "CREATE OR REPLACE VIEW big AS SELECT id, v FROM t WHERE id > 2", "SELECT count(*) FROM big WHERE v = 'c'", 1, nil},
		{"set properties", "ALTER VIEW big SET TBLPROPERTIES ('k'='v', 'owner'='y')", "SELECT count(*) FROM big", 1, nil},
		{"unset properties", "ALTER VIEW big UNSET TBLPROPERTIES ('k')", "SELECT count(*) FROM big", 1, nil},
		{"alter as", "ALTER VIEW big AS SELECT id FROM t", "SELECT sum(id) FROM big", 6, nil},
		{"view over view", "CREATE VIEW big2 AS SELECT id * 10 AS x FROM big", "SELECT max(x) FROM big2", 30, nil},
		{"drop", "DROP VIEW big2", "SELECT count(*) FROM big", 3, nil},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.stmt != "" {
				_, err := db.Exec(st.stmt)
				if st.err != nil {
					if !errors.Is(err, st.err) {
						t.Fatalf("%s: %v, want %v", st.stmt, err, st.err)
					}
					return
				}
				if err != nil {
					t.Fatalf("%s: %v", st.stmt, err)
				}
			}
			if got := count(t, db, st.query); got != st.want {
				t.Errorf("%s: %d, want %d", st.query, got, st.want)
			}
		})
	}

	// The server's view metadata has the engine's versions and properties.
	direct, err := sql.Open("iceberg", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	var ddl string
	if err := direct.QueryRow("SHOW CREATE VIEW big").Scan(&ddl); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ddl, "'owner' = 'y'") && !strings.Contains(ddl, "'owner'='y'") || strings.Contains(ddl, "'k'") || !strings.Contains(ddl, "SELECT id FROM t") {
		t.Errorf("SHOW CREATE VIEW through the SQLite catalog: %s", ddl)
	}
	var files []string
	filepath.WalkDir(filepath.Join(dir, "default.db", "big"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".metadata.json") {
			files = append(files, filepath.Base(p))
		}
		return nil
	})

	exec(t, db, "DROP VIEW big", "DROP VIEW IF EXISTS big")
	if _, err := db.Exec("SELECT * FROM big"); err == nil {
		t.Error("SELECT from a dropped view succeeded")
	}

	mu.Lock()
	defer mu.Unlock()
	var creates, replaces int
	for _, c := range calls {
		switch {
		case strings.HasSuffix(c, "/register-view"), strings.HasSuffix(c, "/register"):
			t.Errorf("the engine registered a file the server did not write: %s", c)
		case c == "POST /v1/namespaces/default/views":
			creates++
		case c == "POST /v1/namespaces/default/views/big":
			replaces++
		}
	}
	// big and big2 created (the refused create and IF NOT EXISTS send
	// nothing); replace, set, unset and alter-as are four commits.
	if creates != 2 || replaces != 4 {
		t.Errorf("%d creates and %d replaces, want 2 and 4; requests %q", creates, replaces, calls)
	}
	// Each commit is one file the server wrote, numbered in sequence.
	if len(files) != 1+replaces {
		t.Errorf("view metadata files %v, want %d", files, 1+replaces)
	}
	for i, f := range files {
		if want := []string{"00000-", "00001-", "00002-", "00003-", "00004-"}; i < len(want) && !strings.HasPrefix(f, want[i]) {
			t.Errorf("file %d is %s", i, f)
		}
	}
}
