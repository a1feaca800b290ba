// Package replaceclone checks README's instructions for depending on the
// module before it is published: a new module with a replace directive
// pointing at a clone builds and runs.
package replaceclone

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const program = `package main

import (
	"database/sql"
	"fmt"
	"os"

	_ "github.com/icesql/icesql/driver"
)

func main() {
	db, err := sql.Open("iceberg", os.Args[1])
	if err != nil {
		panic(err)
	}
	if _, err := db.Exec("CREATE TABLE t (x INT)"); err != nil {
		panic(err)
	}
	var n int
	if err := db.QueryRow("SELECT 40 + 2").Scan(&n); err != nil {
		panic(err)
	}
	fmt.Println(n)
}
`

func TestReplaceToAClone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program against the module")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644)
	// The module's own go.sum covers its dependencies, so no network is needed.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// README: go mod edit -require=...@v0.0.0 -replace=...=../icesql; go mod tidy
	run("go", "mod", "edit", "-require=github.com/icesql/icesql@v0.0.0", "-replace=github.com/icesql/icesql="+root)
	run("go", "mod", "tidy")
	run("go", "build", "-o", "app", ".")
	if got := run(filepath.Join(dir, "app"), filepath.Join(dir, "wh")); strings.TrimSpace(got) != "42" {
		t.Fatalf("program printed %q", got)
	}
}
