package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeTour runs README's five-minute tour through the shell, so the
// tour stays true: every statement succeeds, expire_snapshots visibly
// expires, and SHOW CREATE TABLE prints one clause a line.
func TestReadmeTour(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Skip("README.md not found beside the module:", err)
	}
	text := string(b)
	start := strings.Index(text, "## A five-minute tour")
	if start < 0 {
		t.Fatal("README has no tour")
	}
	var script []string
	for _, line := range strings.Split(text[start:], "\n")[1:] {
		if strings.HasPrefix(line, "## ") {
			break
		}
		switch {
		case strings.HasPrefix(line, "icesql> "):
			script = append(script, strings.TrimPrefix(line, "icesql> "))
		case strings.HasPrefix(line, "     -> "):
			script[len(script)-1] += "\n" + strings.TrimPrefix(line, "     -> ")
		}
	}
	if len(script) < 5 {
		t.Fatalf("tour has %d statements", len(script))
	}
	var kept []string
	for _, s := range script {
		// A snapshot id of the reader's own run; the rest runs as written.
		if !strings.Contains(s, "VERSION AS OF") {
			kept = append(kept, s)
		}
	}
	kept = append(kept[:len(kept)-1], "SELECT count(*) AS snapshots_left FROM events.snapshots;", kept[len(kept)-1])
	wh := filepath.Join(t.TempDir(), "warehouse")
	out, errOut, code := runShell(t, strings.Join(kept, "\n")+"\n", wh)
	if code != 0 {
		t.Fatalf("tour failed (exit %d): %s\n%s", code, errOut, out)
	}
	for _, want := range []string{
		"deleted_manifest_lists_count",
		"snapshots_left\n----------------\n              1\n",
		"CREATE TABLE `default`.`default`.events (",
		"   id BIGINT NOT NULL,",
		"PARTITIONED BY (day(event_ts))",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tour output lacks %q:\n%s", want, out)
		}
	}
	// expire_snapshots deleted something: its counts are not all zero.
	i := strings.Index(out, "deleted_manifest_lists_count")
	counts := strings.Split(strings.Split(out[i:], "\n")[2], "|")
	if len(counts) < 5 || strings.TrimSpace(counts[4]) == "0" {
		t.Errorf("expire_snapshots removed no manifest list: %q", counts)
	}
}
