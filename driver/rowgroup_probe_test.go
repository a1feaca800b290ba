package driver_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/sqltest"
)

// A selective filter on a column the file is not ordered by: statistics
// prune nothing, so the scan decodes the filter's columns of each row
// group first and skips the groups where no row matches (EXPLAIN ANALYZE
// counts them), with and without the filter's column in the output,
// with deleted rows, and across a split file. A filter matching in every
// row group stops the probing. Answers equal a plan the probe cannot
// touch (the filter above the scan, on an expression).
func TestRowGroupProbeSkipsGroupsWithoutAMatch(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, dir+"/lake")
	execAll(t, db,
		"CREATE TABLE d (x BIGINT)",
		"INSERT INTO d VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)",
		"CREATE TABLE p (id BIGINT, k BIGINT, s STRING) TBLPROPERTIES ('icesql.write.parquet.row-group-row-limit'='500', 'write.delete.mode'='merge-on-read')",
		// k is twice a permutation of the ids: no row group's bounds
		// exclude much, and odd keys are missing within them
		`INSERT INTO p SELECT a.x + 10*b.x + 100*c.x + 1000*e.x, (a.x + 10*b.x + 100*c.x + 1000*e.x) * 7919 % 10000 * 2,
			concat('s', CAST(a.x AS STRING)) FROM d a, d b, d c, d e`,
		"DELETE FROM p WHERE id % 97 = 0",
	)
	analyze := func(q string) string {
		t.Helper()
		for _, l := range sqltest.QueryStrings(t, db, "EXPLAIN ANALYZE "+q) {
			if strings.Contains(l, "row groups:") {
				return strings.TrimSpace(l)
			}
		}
		t.Fatalf("no row groups line for %s", q)
		return ""
	}
	same := func(q, general string) {
		t.Helper()
		got, want := sqltest.QueryStrings(t, db, q), sqltest.QueryStrings(t, db, general)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %v, want %v (%s)", q, got, want, general)
		}
	}
	for _, tc := range []struct {
		name, q, general string
		probed           bool
	}{
		{"lookup, filter column projected", "SELECT id, k, s FROM p WHERE k = 15838", "SELECT id, k, s FROM p WHERE k + 0 = 15838", true},
		{"lookup, filter column not projected", "SELECT id, s FROM p WHERE k = 6", "SELECT id, s FROM p WHERE k + 0 = 6", true},
		{"a deleted row's key", fmt.Sprintf("SELECT id FROM p WHERE k = %d", 97*7919%10000*2), fmt.Sprintf("SELECT id FROM p WHERE k + 0 = %d", 97*7919%10000*2), true},
		{"no match anywhere, within every group's bounds", "SELECT id FROM p WHERE k = 7", "SELECT id FROM p WHERE k + 0 = 7", true},
		{"dense: probing stops", "SELECT count(*), min(id) FROM p WHERE k % 4 = 0", "SELECT count(*), min(id) FROM p WHERE k % 4 + 0 = 0", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			same(tc.q, tc.general)
			line := analyze(tc.q)
			if probed := strings.Contains(line, "skipped after the filter's columns matched no row"); probed != tc.probed {
				t.Fatalf("probed %v, want %v: %s", probed, tc.probed, line)
			}
		})
	}
	if line := analyze("SELECT id, k, s FROM p WHERE k = 15838"); !strings.Contains(line, "read 1 of 20 (skipped 0 by statistics); 19 skipped") {
		t.Fatalf("lookup: %s", line)
	}
}
