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
	try := func(env []string, name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod"), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	offline := []string{"GOPROXY=off"}
	run := func(name string, args ...string) string {
		t.Helper()
		out, err := try(offline, name, args...)
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return out
	}
	// README: go mod edit -require=...@v0.0.0 -replace=...=../icesql; go mod tidy
	run("go", "mod", "edit", "-require=github.com/icesql/icesql@v0.0.0", "-replace=github.com/icesql/icesql="+root)
	// tidy reads the go.mod of every module in the graph, some of which
	// building the repository never fetched (a fresh module cache lacks
	// them): offline first, else through the configured proxy, as a
	// newcomer's tidy would.
	if out, err := try(offline, "go", "mod", "tidy"); err != nil {
		if !strings.Contains(out, "module lookup disabled") {
			t.Fatalf("go mod tidy: %v\n%s", err, out)
		}
		if out, err := try(nil, "go", "mod", "tidy"); err != nil {
			t.Fatalf("go mod tidy (through GOPROXY): %v\n%s", err, out)
		}
	}
	run("go", "build", "-o", "app", ".")
	if got := run(filepath.Join(dir, "app"), filepath.Join(dir, "wh")); strings.TrimSpace(got) != "42" {
		t.Fatalf("program printed %q", got)
	}
}
