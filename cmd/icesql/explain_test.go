package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// EXPLAIN ANALYZE in the shell: the plan column keeps the tree's
// indentation, operators carry their counters and the summary follows.
func TestExplainAnalyze(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "wh")
	out, stderr, code := runShell(t, "", wh, "-c",
		"CREATE TABLE t (id INT); INSERT INTO t VALUES (1), (2), (3); EXPLAIN ANALYZE SELECT id FROM t WHERE id > 1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, re := range []string{
		`(?m)^ Project id#0 AS id  \(actual rows=2 batches=1 time=\d+\.\d{3}ms self=\d+\.\d{3}ms\)`,
		`(?m)^   Scan t \[id\] filters=\[\(id#0 > 1\)\]  \(actual rows=2 batches=1 time=`,
		`(?m)^     files: planned 1 of 1 \(pruned 0 by partition, 0 by metrics\), read 1`,
		`(?m)^     bytes read: [1-9]\d*`,
		`(?m)^ Execution time: \d+\.\d{3}ms`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output does not match %s:\n%s", re, out)
		}
	}
	if strings.Contains(out, "ERROR") {
		t.Errorf("error in output:\n%s", out)
	}
}
