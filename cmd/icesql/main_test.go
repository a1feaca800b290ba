package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/pgtest"
	"github.com/icesql/icesql/internal/s3test"
)

// binary is the shell built once for the tests that run it as a process.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "icesql-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "icesql")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	s3test.Stop()
	pgtest.Stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runShell runs the binary without a terminal and returns its output and
// exit status.
func runShell(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Env = append(os.Environ(), "ICESQL_HISTORY="+filepath.Join(t.TempDir(), "hist"))
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestBatchModes(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "wh")
	script := filepath.Join(t.TempDir(), "s.sql")
	os.WriteFile(script, []byte("-- setup\nCREATE TABLE f (x INT);\nINSERT INTO f VALUES (1), (2);\n\nSELECT\n  nope FROM f;\nSELECT 99;\n"), 0o644)
	csvFile := filepath.Join(t.TempDir(), "in.csv")
	os.WriteFile(csvFile, []byte("id,name\n1,a\n2,\n"), 0o644)
	nestedFile := filepath.Join(t.TempDir(), "n.jsonl")
	os.WriteFile(nestedFile, []byte(`{"id":1,"tags":["a","b"],"s":{"x":2}}`+"\n"), 0o644)
	naCSV := filepath.Join(t.TempDir(), "na.csv")
	os.WriteFile(naCSV, []byte("id,name\n7,NA\n8,\n"), 0o644)
	badCSV := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(badCSV, []byte("id,name\n1,a\nz,b\n"), 0o644)

	tests := []struct {
		name       string
		stdin      string
		args       []string
		code       int
		wantOut    string
		wantErr    string
		notWantOut string
	}{
		{"c creates", "", []string{"-c", "CREATE TABLE t (id BIGINT, name STRING); INSERT INTO t VALUES (1, 'a'), (2, NULL)", wh}, 0, "", "", ""},
		{"c aligned", "", []string{"-c", "SELECT * FROM t ORDER BY id", wh}, 0, " id | name\n----+------\n  1 | a\n  2 | NULL\n(2 rows)\n", "", ""},
		{"c csv", "", []string{"-format", "csv", "-c", "SELECT * FROM t ORDER BY id;", wh}, 0, "id,name\n1,a\n2,\n", "", ""},
		{"c json meta", "", []string{"-c", "\\format json\nSELECT id FROM t ORDER BY id", wh}, 0, "{\"id\":1}\n{\"id\":2}\n", "", ""},
		{"c error position", "", []string{"-c", "SELECT 1;\n  SELECT nope FROM t;", wh}, 1, "", "-c:2:3: ERROR:", ""},
		{"c unterminated string", "", []string{"-c", "SELECT 'abc", wh}, 1, "", "-c:1:1: ERROR:", ""},
		{"stdin", "SELECT count(*) AS n FROM t;\n", []string{wh}, 0, " n\n---\n 2\n(1 row)\n", "", ""},
		{"stdin error stops", "SELECT 1 AS a;\nSELECT bad FROM t;\nSELECT 2 AS b;\n", []string{wh}, 1, " a\n", "stdin:2:1: ERROR:", " b\n"},
		{"f stops at error", "", []string{"-f", script, wh}, 1, "", "s.sql:5:1: ERROR:", "99"},
		{"f missing", "", []string{"-f", filepath.Join(t.TempDir(), "none.sql"), wh}, 1, "", "no such file", ""},
		{"copy csv", "", []string{"-c", "CREATE TABLE l (id BIGINT, name STRING); \\copy l FROM '" + csvFile + "'\nSELECT count(*) AS n FROM l", wh}, 0, " n\n---\n 2\n", "", ""},
		{"copy bad value", "", []string{"-c", "\\copy l FROM '" + badCSV + "'", wh}, 1, "", "line 3, column 1 (id)", ""},
		{"copy bad value commits nothing", "", []string{"-c", "SELECT count(*) AS n FROM l", wh}, 0, " n\n---\n 2\n", "", ""},
		{"copy nested jsonl", "", []string{"-format", "csv", "-c", "CREATE TABLE nest (id BIGINT, tags ARRAY<STRING>, s STRUCT<x: INT>); \\copy nest FROM '" + nestedFile + "'\nSELECT tags, s FROM nest", wh}, 0, `"[""a"",""b""]","{""x"":2}"`, "", ""},
		{"copy NULL option", "", []string{"-format", "csv", "-c", "\\copy l FROM '" + naCSV + "' WITH (NULL 'NA')\nSELECT id, name IS NULL AS null_name FROM l WHERE id > 6 ORDER BY id", wh}, 0, "7,true\n8,false\n", "", ""},
		{"unknown meta", "", []string{"-c", "\\nope", wh}, 1, "", "unknown meta-command", ""},
		{"bad format flag", "", []string{"-format", "xml", wh}, 2, "", "unknown output format", ""},
		{"help", "", []string{"-help"}, 0, "", "Usage: icesql", ""},
		{"describe not null", "", []string{"-c", "CREATE TABLE nn (id BIGINT NOT NULL, note STRING COMMENT 'free text', ts TIMESTAMP); \\d nn", wh}, 0, " id       | bigint not null |\n note     | string          | free text\n ts       | timestamp       |\n", "", "NULL"},
		{"insert error names column and row", "", []string{"-c", "INSERT INTO nn (id, ts) VALUES (1, '2026-01-01'), (2, 'soon')", wh}, 1, "", `column ts (TIMESTAMP), row 2: cannot cast STRING value "soon" to TIMESTAMP`, ""},
		{"flags after DSN", "", []string{wh, "-c", "SELECT 1 AS one"}, 0, " one\n-----\n   1\n", "", ""},
		{"flags both sides of DSN", "", []string{"-format", "csv", wh, "-c", "SELECT count(*) AS n FROM t"}, 0, "n\n2\n", "", ""},
		{"DSN after --", "", []string{"-c", "SELECT 2 AS two", "--", wh}, 0, " two\n", "", ""},
		{"two DSNs", "", []string{wh, "-c", "SELECT 1", wh}, 2, "", "Usage: icesql", ""},
		{"unknown flag after DSN", "", []string{wh, "-nope"}, 2, "", "flag provided but not defined: -nope", ""},
		{"read-only", "", []string{"-c", "INSERT INTO t VALUES (3, 'c')", wh + "?mode=ro"}, 1, "", "read-only", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runShell(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			if !strings.Contains(out, tt.wantOut) {
				t.Errorf("stdout %q does not contain %q", out, tt.wantOut)
			}
			if !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.wantErr)
			}
			if tt.notWantOut != "" && strings.Contains(out, tt.notWantOut) {
				t.Errorf("stdout %q contains %q", out, tt.notWantOut)
			}
		})
	}
}
