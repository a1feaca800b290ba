package sqlexec

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
)

func viewExec(t *testing.T, s *Session, sqls ...string) {
	t.Helper()
	for _, q := range sqls {
		if _, err := s.Exec(context.Background(), q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// viewQueryText returns the first column of every row, as text.
func viewQueryText(t *testing.T, s *Session, q string) []string {
	t.Helper()
	rows, err := s.Query(context.Background(), q, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []string
	for _, v := range collectRows(t, rows) {
		out = append(out, strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(toText(v), "\n", "\\n"), "\t", " ")))
	}
	return out
}

func toText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return i64toa(x)
	case int32:
		return itoa(int(x))
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func viewTestIdent(ns, name string) table.Identifier {
	return table.Identifier{Namespace: []string{ns}, Name: name}
}

func TestShowCreateView(t *testing.T) {
	s := newSession(t)
	viewExec(t, s, "CREATE TABLE t (id BIGINT, r STRING)",
		"CREATE VIEW v (r COMMENT 'it''s', n) COMMENT 'per r' TBLPROPERTIES ('b' = '2', 'a' = '1') AS SELECT r, count(*) FROM t GROUP BY r")
	want := "CREATE VIEW `default`.`default`.v (\\n  r COMMENT 'it''s',\\n  n)\\nCOMMENT 'per r'\\n" +
		"TBLPROPERTIES (\\n  'a' = '1',\\n  'b' = '2')\\nAS SELECT r, count(*) FROM t GROUP BY r\\n"
	for _, q := range []string{"SHOW CREATE VIEW v", "SHOW CREATE TABLE v"} {
		got := viewQueryText(t, s, q)
		if len(got) != 1 || got[0] != want {
			t.Fatalf("%s =\n%q\nwant\n%q", q, got, want)
		}
	}
}

// viewMetadataFiles lists the metadata files of view name in the
// default namespace.
func viewMetadataFiles(t *testing.T, s *Session, name string) []string {
	t.Helper()
	dir, err := fileio.LocalPath(s.engine.viewLocation(viewTestIdent("default", name)) + "/metadata")
	if err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out
}

// TestViewMetadataFiles checks the files CREATE and CREATE OR REPLACE
// write: their names, the catalog row, and the spec's required fields.
func TestViewMetadataFiles(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	viewExec(t, s, "CREATE TABLE t (id BIGINT)", "CREATE VIEW v AS SELECT id FROM t",
		"CREATE OR REPLACE VIEW v AS SELECT id + 1 AS id FROM t")
	files := viewMetadataFiles(t, s, "v")
	name := regexp.MustCompile(`^0000[01]-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.metadata\.json$`)
	if len(files) != 2 {
		t.Fatalf("files = %v", files)
	}
	for _, f := range files {
		if !name.MatchString(filepath.Base(f)) {
			t.Fatalf("file name %s", f)
		}
	}
	rec, err := s.engine.catalog.LoadView(ctx, viewTestIdent("default", "v"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.MetadataLocation, "/default.db/v/metadata/00001-") || !strings.Contains(rec.PreviousMetadataLocation, "/metadata/00000-") {
		t.Fatalf("catalog row %+v", rec)
	}
	path, err := fileio.LocalPath(rec.MetadataLocation)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"view-uuid", "format-version", "location", "schemas", "current-version-id", "versions", "version-log"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("required field %q missing: %s", k, data)
		}
	}
	m, err := iceberg.ParseViewMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := m.CurrentVersion()
	if m.CurrentVersionID != 2 || len(m.VersionLog) != 2 || v.DefaultCatalog != "" ||
		strings.Join(v.DefaultNamespace, ".") != "default" || v.Summary["engine-name"] != "icesql" {
		t.Fatalf("metadata %s", data)
	}
	if r, ok := v.SQL(); !ok || r.Dialect != "spark" || r.SQL != "SELECT id + 1 AS id FROM t" {
		t.Fatalf("representation %+v", v.Representations)
	}
	var typ string
	db, err := sql.Open("sqlite3", s.engine.cfg.CatalogFile)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow("SELECT iceberg_type FROM iceberg_tables WHERE table_name = 'v'").Scan(&typ); err != nil || typ != "VIEW" {
		t.Fatalf("iceberg_type %q, %v", typ, err)
	}
	viewExec(t, s, "DROP VIEW v")
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("current metadata file kept after DROP VIEW: %v", err)
	}
}

// TestPreparedQueryOverReplacedView: a prepared SELECT of a view sees the
// view's new query (no plan is kept across a view's replacement).
func TestPreparedQueryOverReplacedView(t *testing.T) {
	s := newSession(t)
	viewExec(t, s, "CREATE TABLE t (id BIGINT)", "INSERT INTO t VALUES (1), (2), (3)",
		"CREATE VIEW v AS SELECT id FROM t WHERE id > 1")
	p, err := s.Prepare("SELECT count(*) FROM v WHERE id < ?")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if n := queryInt(t, p, int64(10)); n != 2 {
			t.Fatalf("run %d: count = %d, want 2", i, n)
		}
	}
	viewExec(t, s, "CREATE OR REPLACE VIEW v AS SELECT id FROM t")
	if n := queryInt(t, p, int64(10)); n != 3 {
		t.Fatalf("after replace: count = %d, want 3", n)
	}
}

func TestViewErrorsNameTheView(t *testing.T) {
	cases := []struct {
		name  string
		setup []string
		query string
		want  error
		text  string
	}{
		{"dropped table", []string{"CREATE TABLE t (a INT)", "CREATE VIEW v AS SELECT a FROM t", "DROP TABLE t"},
			"SELECT * FROM v", planner.ErrInvalidView, "view default.v"},
		{"column type changed", []string{"CREATE TABLE t (a STRING)", "CREATE VIEW v AS SELECT a FROM t",
			"ALTER TABLE t DROP COLUMN a", "ALTER TABLE t ADD COLUMN a INT"},
			"SELECT * FROM v", planner.ErrInvalidView, "column a is string in the view"},
		{"inner view broken", []string{"CREATE TABLE t (a INT)", "CREATE VIEW v AS SELECT a FROM t",
			"CREATE VIEW w AS SELECT a FROM v", "DROP TABLE t"},
			"SELECT * FROM w", planner.ErrInvalidView, "view default.v"},
		{"duplicate columns", []string{"CREATE TABLE t (a INT)"},
			"CREATE VIEW v AS SELECT a, a FROM t", ErrInvalidStatement, "two columns named"},
		{"view over a metadata table name", []string{"CREATE TABLE t (a INT)"},
			"CREATE VIEW t.snapshots AS SELECT 1", ErrInvalidStatement, "not a view name"},
		{"placeholder", []string{"CREATE TABLE t (a INT)"},
			"CREATE VIEW v AS SELECT a FROM t WHERE a > ?", ErrInvalidStatement, "placeholders"},
		{"alter missing view", nil, "ALTER VIEW nope AS SELECT 1", iceberg.ErrNoSuchView, "nope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t)
			viewExec(t, s, c.setup...)
			_, err := s.Exec(context.Background(), c.query, nil)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("err = %v, want %v containing %q", err, c.want, c.text)
			}
		})
	}
}

// TestViewInTransaction: inside a transaction a view reads the
// transaction's own writes, like its tables.
func TestViewInTransaction(t *testing.T) {
	s := newSession(t)
	viewExec(t, s, "CREATE TABLE t (id BIGINT)", "CREATE VIEW v AS SELECT id FROM t", "BEGIN", "INSERT INTO t VALUES (7)")
	if got := viewQueryText(t, s, "SELECT id FROM v"); len(got) != 1 || got[0] != "7" {
		t.Fatalf("view in transaction = %v", got)
	}
	viewExec(t, s, "ROLLBACK")
	if got := viewQueryText(t, s, "SELECT id FROM v"); len(got) != 0 {
		t.Fatalf("after rollback = %v", got)
	}
	if _, err := s.Exec(context.Background(), "BEGIN; CREATE VIEW w AS SELECT 1 AS x", nil); err == nil {
		t.Fatal("CREATE VIEW inside a transaction succeeded")
	}
}
