package driver_test

import (
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/sqltest"
)

// Filters on uuid and binary columns prune files by their bounds, as
// filters on other types do.
func TestUUIDAndBinaryFiltersPruneFiles(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE t (id INT, u UUID, b BINARY)")
	mustExec(t, db, "INSERT INTO t VALUES (1, CAST('6ba7b810-9dad-11d1-80b4-00c04fd430c8' AS UUID), CAST('a' AS BINARY))")
	mustExec(t, db, "INSERT INTO t VALUES (2, CAST('6ba7b811-9dad-11d1-80b4-00c04fd430c8' AS UUID), CAST('b' AS BINARY))")
	for _, tc := range []struct{ where, id string }{
		{"u = CAST('6ba7b810-9dad-11d1-80b4-00c04fd430c8' AS UUID)", "1"},
		{"u = '6ba7b811-9dad-11d1-80b4-00c04fd430c8'", "2"},
		{"b = CAST('b' AS BINARY)", "2"},
	} {
		t.Run(tc.where, func(t *testing.T) {
			plan := strings.Join(sqltest.QueryStrings(t, db, "EXPLAIN SELECT id FROM t WHERE "+tc.where), "\n")
			if !strings.Contains(plan, "files 1/2") {
				t.Errorf("plan does not prune to one file:\n%s", plan)
			}
			if got := sqltest.QueryStrings(t, db, "SELECT id FROM t WHERE "+tc.where); len(got) != 1 || got[0] != tc.id {
				t.Errorf("rows %v, want [%s]", got, tc.id)
			}
		})
	}
}
