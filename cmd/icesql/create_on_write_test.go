package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCreateOnFirstWrite: a warehouse path that does not exist is created
// by the first write, not by reads, and the shell says so once; a
// namespace= that does not exist is not created by a read.
func TestCreateOnFirstWrite(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "typo")
	out, errOut, code := runShell(t, "", "-c", "SHOW TABLES; SHOW NAMESPACES; SELECT 1 AS one;", wh)
	if code != 0 || !strings.Contains(out, "one") {
		t.Fatalf("reads on a new path: exit %d, %s %s", code, out, errOut)
	}
	if _, err := os.Stat(wh); !os.IsNotExist(err) {
		t.Fatalf("reads created the warehouse: %v", err)
	}
	if strings.Contains(errOut, "created warehouse") {
		t.Fatalf("reads said %q", errOut)
	}
	_, errOut, code = runShell(t, "", "-c", "SELECT * FROM t;", wh)
	if code != 1 || !strings.Contains(errOut, "table default.t does not exist") {
		t.Fatalf("unknown table: exit %d, %s", code, errOut)
	}
	_, errOut, code = runShell(t, "", "-c", "CREATE TABLE t (x INT); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);", wh)
	if code != 0 || strings.Count(errOut, "created warehouse "+wh) != 1 {
		t.Fatalf("first write: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(wh, "catalog.db")); err != nil {
		t.Fatal(err)
	}
	_, errOut, _ = runShell(t, "", "-c", "INSERT INTO t VALUES (3);", wh)
	if strings.Contains(errOut, "created warehouse") {
		t.Fatalf("an existing warehouse: %q", errOut)
	}
	// A read through a mistyped namespace creates no namespace.
	runShell(t, "", "-c", "SELECT * FROM t;", wh+"?namespace=tpyo")
	out, _, _ = runShell(t, "", "-c", "SHOW NAMESPACES;", wh)
	if strings.Contains(out, "tpyo") || !strings.Contains(out, "default") {
		t.Fatalf("namespaces after a read in namespace=tpyo:\n%s", out)
	}
}
