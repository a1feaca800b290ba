package driver_test

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
)

// deepShapes are the nesting shapes of statements that overflowed the Go
// stack: each repeats open and close around a leaf.
var deepShapes = []struct{ open, leaf, close string }{
	{"1+", "1", ""},
	{"- ", "1", ""},
	{"abs(", "1", ")"},
	{"(", "1", ")"},
	{"CASE WHEN x = 1 THEN ", "1", " END"},
	{"x IN (SELECT x FROM t WHERE ", "x = 1", ")"},
	{"(SELECT ", "1", ")"},
	{"NOT ", "x = 1", ""},
	{"x = 1 AND ", "x = 1", ""},
	{"'a' || ", "'a'", ""},
}

// FuzzDeepExpressions parses and binds statements of the shapes above at
// fuzzed depths, with a fuzzed leaf: whatever the outcome, no panic, and a
// shape nested past planner.MaxExprDepth is refused as too deep.
func FuzzDeepExpressions(f *testing.F) {
	for i := range deepShapes {
		for _, n := range []uint16{1, 100, 20_000} {
			f.Add(uint8(i), n, "")
		}
	}
	f.Add(uint8(0), uint16(5), "x")
	f.Add(uint8(6), uint16(3), "count(*)")
	db := openFuzzDB(f, f.TempDir())
	for _, q := range []string{"CREATE TABLE t (x int)", "INSERT INTO t VALUES (1), (2)"} {
		if _, err := db.Exec(q); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, shape uint8, n uint16, leaf string) {
		s := deepShapes[int(shape)%len(deepShapes)]
		if leaf == "" {
			leaf = s.leaf
		}
		q := "SELECT count(*) FROM t WHERE (" + deep(int(n), s.open, leaf, s.close) + ") IS NOT NULL"
		err := execOrQuery(t.Context(), db, q)
		if int(n) > planner.MaxExprDepth && leaf == s.leaf && !errors.Is(err, planner.ErrTooDeep) {
			t.Fatalf("%d levels of %q: err = %.200v, want planner.ErrTooDeep", n, s.open, err)
		}
	})
}

// FuzzTableNames creates tables of fuzzed names: a name is refused as an
// invalid identifier, or its table's files lie inside the warehouse, in
// a directory of their own.
func FuzzTableNames(f *testing.F) {
	for _, s := range []string{"t", "..", ".", "a/b", `a\b`, "../../x", "a\x00b", "a\nb", "é", "名前", "a..b", " ", "a.b", "CON", strings.Repeat("x", 300)} {
		f.Add("default", s)
		f.Add(s, "t")
	}
	wh := f.TempDir()
	db := openFuzzDB(f, wh)
	f.Fuzz(func(t *testing.T, ns, name string) {
		id := parser.QuoteIdent(ns) + "." + parser.QuoteIdent(name)
		if _, err := db.Exec("CREATE NAMESPACE IF NOT EXISTS " + parser.QuoteIdent(ns)); err != nil {
			return
		}
		if _, err := db.Exec("CREATE TABLE " + id + " (x int)"); err != nil {
			return
		}
		defer db.Exec("DROP TABLE " + id + " PURGE")
		if _, err := db.Exec("INSERT INTO " + id + " VALUES (1)"); err != nil {
			t.Fatalf("INSERT INTO %s: %v", id, err)
		}
		var loc string
		if err := db.QueryRow("SELECT file_path FROM " + parser.QuoteIdent(ns) + "." + parser.QuoteIdent(name+"$files")).Scan(&loc); err != nil {
			if err := db.QueryRow("SELECT file_path FROM " + id + ".data_files").Scan(&loc); err != nil {
				t.Fatalf("files of %s: %v", id, err)
			}
		}
		p := filepath.Clean(localPath(t, loc))
		if rel, err := filepath.Rel(wh, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			t.Fatalf("table %s wrote %s outside the warehouse %s", id, p, wh)
		}
	})
}

// FuzzProcedureArguments calls system procedures with fuzzed arguments:
// any error is fine, but the catalog and the other table's files stay.
func FuzzProcedureArguments(f *testing.F) {
	procs := []string{"remove_orphan_files", "expire_snapshots", "rewrite_data_files", "rewrite_manifests", "rollback_to_snapshot", "set_current_snapshot", "add_files", "snapshot", "migrate", "register_table", "create_changelog_view", "ancestors_of", "cherrypick_snapshot", "fast_forward", "publish_changes", "rewrite_position_delete_files"}
	for i := range procs {
		f.Add(uint8(i), "table => 'default.t'")
		f.Add(uint8(i), "'default.t', older_than => TIMESTAMP '2999-01-01 00:00:00'")
		f.Add(uint8(i), "table => 'default.`..`', location => '/'")
		f.Add(uint8(i), "table => 'default.t', location => '../..', dry_run => false")
		f.Add(uint8(i), "'default.t', 1, 2, 3")
		f.Add(uint8(i), "table => 'default.t', source_table => '`parquet`.`/`'")
	}
	wh := f.TempDir()
	db := openFuzzDB(f, wh)
	for _, q := range []string{"CREATE TABLE t (x int)", "INSERT INTO t VALUES (1)", "CREATE TABLE keep (x int)", "INSERT INTO keep VALUES (7)"} {
		if _, err := db.Exec(q); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, proc uint8, args string) {
		q := fmt.Sprintf("CALL system.%s(%s)", procs[int(proc)%len(procs)], args)
		_ = execOrQuery(t.Context(), db, q)
		if _, err := os.Stat(filepath.Join(wh, "catalog.db")); err != nil {
			t.Fatalf("%s: the catalog is gone: %v", q, err)
		}
		var n int
		if err := db.QueryRow("SELECT sum(x) FROM keep").Scan(&n); err != nil || n != 7 {
			t.Fatalf("%s: the other table reads %d, %v", q, n, err)
		}
	})
}

func openFuzzDB(f *testing.F, dsn string) *sql.DB {
	db, err := sql.Open("iceberg", dsn)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	return db
}
