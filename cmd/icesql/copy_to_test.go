package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopyToAndOutput writes results out through the shell: COPY in SQL,
// \copy ... TO in psql's spellings, and \o.
func TestCopyToAndOutput(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "wh")
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	script := strings.Join([]string{
		"CREATE TABLE t (id BIGINT, name STRING);",
		"INSERT INTO t VALUES (1, 'a'), (2, NULL);",
		"COPY (SELECT * FROM t ORDER BY id) TO '" + p("sql.csv") + "';",
		"COPY t TO '" + p("sql.parquet") + "' (FORMAT parquet);",
		`\copy (SELECT id, name FROM t ORDER BY id) TO ` + p("bare.csv") + ` CSV HEADER`,
		`\copy t TO '` + p("with.txt") + `' WITH (FORMAT csv, HEADER false, DELIMITER '|')`,
		`\copy (SELECT name FROM t WHERE id = 1) TO '` + p("j.json") + `'`,
		`\copy (SELECT 'to stdout' AS s) TO STDOUT`,
		`\o ` + p("out.txt"),
		"SELECT id FROM t ORDER BY id;",
		`\o`,
		"SELECT 'after' AS x;",
		// the round trip: the written CSV loads back
		"CREATE TABLE back (id BIGINT, name STRING);",
		`\copy back FROM '` + p("bare.csv") + `' WITH (HEADER)`,
		"SELECT count(*) AS n FROM back;",
	}, "\n")
	stdout, stderr, code := runShell(t, script, wh)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	read := func(name string) string {
		b, err := os.ReadFile(p(name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for name, want := range map[string]string{
		"sql.csv":  "id,name\n1,a\n2,\n",
		"bare.csv": "id,name\n1,a\n2,\n",
		"with.txt": "1|a\n2|\n",
		"j.json":   "{\"name\":\"a\"}\n",
		"out.txt":  " id\n----\n  1\n  2\n(2 rows)\n",
	} {
		if got := read(name); !strings.Contains(got, want) && got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if b := read("sql.parquet"); !strings.HasPrefix(b, "PAR1") {
		t.Errorf("sql.parquet is no Parquet file")
	}
	for _, want := range []string{"s\nto stdout\n", "after", "2\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "(2 rows)") {
		t.Errorf("\\o output reached stdout:\n%s", stdout)
	}
	// SQL COPY refuses to replace a file; \copy replaces it, as psql's.
	_, stderr, code = runShell(t, "COPY t TO '"+p("sql.csv")+"';", wh)
	if code != 1 || !strings.Contains(stderr, "OVERWRITE") {
		t.Fatalf("COPY over a file: exit %d, %s", code, stderr)
	}
	if _, stderr, code = runShell(t, `\copy (SELECT 9 AS z) TO '`+p("sql.csv")+`'`, wh); code != 0 {
		t.Fatalf("\\copy over a file: %s", stderr)
	}
	if got := read("sql.csv"); got != "z\n9\n" {
		t.Fatalf("sql.csv = %q", got)
	}
}
