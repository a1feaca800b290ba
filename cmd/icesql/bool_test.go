package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// SELECT true prints true, as Spark and DuckDB print it (not MySQL's 1).
func TestBooleanLiteralsPrint(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "wh")
	out, stderr, code := runShell(t, "", wh, "-c", "SELECT true AS a, false AS b")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 || strings.Join(strings.Fields(lines[2]), " ") != "true | false" {
		t.Fatalf("output:\n%s\nwant a row true | false", out)
	}
}
