package driver_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec"
)

// listTree is every path below dir, relative and sorted.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// withoutCatalog drops the catalog's own files, which SQLite may add or
// remove (-wal, -shm) at any statement.
func withoutCatalog(paths []string) []string {
	return slices.DeleteFunc(slices.Clone(paths), func(p string) bool {
		return strings.HasPrefix(filepath.Base(p), "catalog.db")
	})
}

func TestNamesWithPathSyntaxRefused(t *testing.T) {
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE ok (id int)")
	mustExec(t, db, "INSERT INTO ok VALUES (1)")
	before := withoutCatalog(listTree(t, filepath.Dir(wh)))
	for _, stmt := range []string{
		"CREATE TABLE `..` (id int)",
		"CREATE TABLE `.` (id int)",
		"CREATE TABLE `a/b` (id int)",
		"CREATE TABLE `../../x` (id int)",
		"CREATE TABLE `a\\b` (id int)",
		"CREATE TABLE `ok/data` (id int)",
		"CREATE TABLE `tab\tname` (id int)",
		"CREATE TABLE `nul\x00` (id int)",
		"CREATE TABLE `" + strings.Repeat("n", 256) + "` (id int)",
		"CREATE TABLE `..`.t (id int)",
		"CREATE TABLE `x/y`.t (id int)",
		"CREATE TABLE `..` AS SELECT 1 AS id",
		"CREATE NAMESPACE `..`",
		"CREATE NAMESPACE `a/b`",
		"CREATE NAMESPACE `bell\a`",
		"CREATE VIEW `..` AS SELECT 1 AS id",
		"ALTER TABLE ok RENAME TO `..`",
		"ALTER TABLE ok RENAME TO `a/b`",
		"CALL system.register_table(table => 'default.`..`', metadata_file => '/nonexistent.metadata.json')",
	} {
		t.Run(stmt, func(t *testing.T) {
			_, err := db.Exec(stmt)
			if !errors.Is(err, iceberg.ErrInvalidIdentifier) {
				t.Fatalf("err = %v, want iceberg.ErrInvalidIdentifier", err)
			}
			if after := withoutCatalog(listTree(t, filepath.Dir(wh))); !slices.Equal(after, before) {
				t.Fatalf("files changed:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
	t.Run("a create the catalog refuses leaves no directory", func(t *testing.T) {
		_, err := db.Exec("CREATE TABLE nosuch.t (id int)")
		if !errors.Is(err, iceberg.ErrNoSuchNamespace) {
			t.Fatalf("err = %v, want iceberg.ErrNoSuchNamespace", err)
		}
		_, err = db.Exec("CREATE TABLE ok (id int)")
		if !errors.Is(err, iceberg.ErrTableAlreadyExists) {
			t.Fatalf("err = %v, want iceberg.ErrTableAlreadyExists", err)
		}
		if after := withoutCatalog(listTree(t, filepath.Dir(wh))); !slices.Equal(after, before) {
			t.Fatalf("files changed:\nbefore %q\nafter  %q", before, after)
		}
	})
	var n int
	if err := db.QueryRow("SELECT count(*) FROM ok").Scan(&n); err != nil || n != 1 {
		t.Fatalf("ok has %d rows, %v", n, err)
	}
}

func TestCreateTableLocationConfined(t *testing.T) {
	wh := t.TempDir()
	outside := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE a (id int)")
	nonEmpty := filepath.Join(wh, "custom", "full")
	os.MkdirAll(nonEmpty, 0o755)
	os.WriteFile(filepath.Join(nonEmpty, "keep.txt"), []byte("x"), 0o644)
	refused := []struct{ name, loc string }{
		{"outside the warehouse", filepath.Join(outside, "t")},
		{"the warehouse itself", wh},
		{"above the warehouse", filepath.Dir(wh)},
		{"inside another table", filepath.Join(wh, "default.db", "a", "data", "sub")},
		{"another table's location", filepath.Join(wh, "default.db", "a")},
		{"a namespace directory", filepath.Join(wh, "default.db", "other")},
		{"escaping with ..", filepath.Join(wh, "custom", "..", "..", filepath.Base(outside), "t")},
		{"a non-empty directory", nonEmpty},
		{"a file", filepath.Join(nonEmpty, "keep.txt")},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			_, err := db.Exec("CREATE TABLE b (id int) LOCATION '" + tc.loc + "'")
			if !errors.Is(err, sqlexec.ErrLocation) {
				t.Fatalf("LOCATION %s: err = %v, want sqlexec.ErrLocation", tc.loc, err)
			}
		})
	}
	if got := listTree(t, outside); len(got) != 0 {
		t.Fatalf("files written outside the warehouse: %q", got)
	}
	t.Run("write.data.path outside", func(t *testing.T) {
		_, err := db.Exec("CREATE TABLE c (id int) TBLPROPERTIES ('write.data.path' = '" + outside + "')")
		if !errors.Is(err, sqlexec.ErrLocation) {
			t.Fatalf("err = %v, want sqlexec.ErrLocation", err)
		}
		_, err = db.Exec("ALTER TABLE a SET TBLPROPERTIES ('write.metadata.path' = '" + outside + "')")
		if !errors.Is(err, sqlexec.ErrLocation) {
			t.Fatalf("err = %v, want sqlexec.ErrLocation", err)
		}
	})
	t.Run("a new directory inside the warehouse", func(t *testing.T) {
		mustExec(t, db, "CREATE TABLE d (id int) LOCATION '"+filepath.Join(wh, "custom", "d")+"'")
		mustExec(t, db, "INSERT INTO d VALUES (4)")
	})
	t.Run("allow_external_locations", func(t *testing.T) {
		ext := openDB(t, wh+"?allow_external_locations=true")
		mustExec(t, ext, "CREATE TABLE e (id int) LOCATION '"+filepath.Join(outside, "e")+"'")
		mustExec(t, ext, "INSERT INTO e VALUES (5)")
		var n int
		if err := ext.QueryRow("SELECT id FROM e").Scan(&n); err != nil || n != 5 {
			t.Fatalf("e: %d, %v", n, err)
		}
		// Still never over the warehouse, another table, or a full directory.
		for _, loc := range []string{wh, filepath.Join(wh, "default.db", "a"), nonEmpty} {
			if _, err := ext.Exec("CREATE TABLE f (id int) LOCATION '" + loc + "'"); !errors.Is(err, sqlexec.ErrLocation) {
				t.Fatalf("LOCATION %s: err = %v, want sqlexec.ErrLocation", loc, err)
			}
		}
	})
}

func TestRemoveOrphanFilesConfined(t *testing.T) {
	wh := t.TempDir()
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.txt")
	os.WriteFile(victim, []byte("x"), 0o644)
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE a (id int)")
	mustExec(t, db, "INSERT INTO a VALUES (1)")
	mustExec(t, db, "CREATE TABLE b (id int)")
	mustExec(t, db, "INSERT INTO b VALUES (2)")
	const far = "TIMESTAMP '2999-01-01 00:00:00'"
	for _, loc := range []string{outside, wh, filepath.Join(wh, "default.db", "b"), filepath.Join(wh, "default.db", "a", "..", "b")} {
		_, err := db.Exec("CALL system.remove_orphan_files(table => 'a', older_than => " + far + ", location => '" + loc + "')")
		if !errors.Is(err, sqlexec.ErrProcedureArgument) || !errors.Is(err, sqlexec.ErrLocation) {
			t.Fatalf("location %s: err = %v, want a procedure argument error matching sqlexec.ErrLocation", loc, err)
		}
	}
	// A table whose metadata names the warehouse as its location (as a
	// table named `..` once got): registered, it must not clean the warehouse.
	var metaLoc string
	if err := db.QueryRow("SELECT file FROM a.metadata_log_entries ORDER BY timestamp DESC LIMIT 1").Scan(&metaLoc); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(strings.TrimPrefix(metaLoc, "file://"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(raw, &m)
	m["location"] = wh
	forged, _ := json.Marshal(m)
	forgedPath := filepath.Join(wh, "forged.metadata.json")
	os.WriteFile(forgedPath, forged, 0o644)
	mustExec(t, db, "CALL system.register_table(table => 'default.wide', metadata_file => '"+forgedPath+"')")
	_, err = db.Exec("CALL system.remove_orphan_files(table => 'wide', older_than => " + far + ")")
	if !errors.Is(err, sqlexec.ErrLocation) {
		t.Fatalf("remove_orphan_files of a table located at the warehouse: err = %v, want sqlexec.ErrLocation", err)
	}
	for _, p := range []string{victim, filepath.Join(wh, "catalog.db"), forgedPath} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	for _, tbl := range []string{"a", "b"} {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM " + tbl).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%s: %d rows, %v", tbl, n, err)
		}
	}
	// Inside the table's own location it still works.
	mustExec(t, db, "CALL system.remove_orphan_files(table => 'a', older_than => "+far+", location => '"+filepath.Join(wh, "default.db", "a", "data")+"')")
}
