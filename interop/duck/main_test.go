package duck

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
	_ "github.com/icesql/icesql/driver"
)

// shellBin is the icesql shell, built once for the \copy tests.
var shellBin string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "icesql-duck-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	shellBin = filepath.Join(dir, "icesql")
	cmd := exec.Command("go", "build", "-o", shellBin, "github.com/icesql/icesql/cmd/icesql")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the icesql shell:", err)
		return 1
	}
	return m.Run()
}

// openDuck opens an in-memory DuckDB whose clock reads UTC.
func openDuck(tb testing.TB) *sql.DB {
	tb.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		tb.Fatal(err)
	}
	db.SetMaxOpenConns(1) // one in-memory database, one session setting
	tb.Cleanup(func() { db.Close() })
	if _, err := db.Exec("SET TimeZone = 'UTC'"); err != nil {
		tb.Logf("DuckDB without time zones (ICU): %v", err)
	}
	return db
}

// openIce opens an icesql warehouse in dir.
func openIce(tb testing.TB, dir string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("iceberg", dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func mustExec(tb testing.TB, db *sql.DB, query string, args ...any) {
	tb.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
}

// shell runs the icesql shell on the warehouse with -c.
func shell(tb testing.TB, warehouse, commands string) string {
	tb.Helper()
	out, err := exec.Command(shellBin, warehouse, "-c", commands).CombinedOutput()
	if err != nil {
		tb.Fatalf("icesql -c %q: %v\n%s", commands, err, out)
	}
	return string(out)
}
