package driver_test

import (
	"database/sql"
	"testing"

	"github.com/icesql/icesql/sqlexec/exec"
)

// Under a 1 MiB memory_limit, joins of two 200k-row tables spill their
// build side to spill_dir and return what the default limit returns; no
// spill file outlives its query.
func TestMemoryLimitSpillsJoins(t *testing.T) {
	if testing.Short() {
		t.Skip("two 200k-row tables")
	}
	dir, spill, roomy := newSpillFixture(t)
	createJoinTables(t, roomy)
	if n := queryInt(t, roomy, "SELECT count(*) FROM m"); n != 200000 {
		t.Fatalf("%d rows, want 200000", n)
	}
	tight := openDB(t, dir+"/lake?memory_limit=1MiB&spill_dir="+spill)
	tests := []struct {
		name, query string
		rows        int
	}{
		{"inner", "SELECT n.k, n.s, m.t FROM n JOIN m ON n.k = m.k", 0},
		{"full outer with residual", "SELECT n.k, m.k, m.t FROM n FULL JOIN m ON n.k = m.k AND n.s <> m.t", 0},
		{"right outer", "SELECT n.s, m.k FROM n RIGHT JOIN m ON n.k = m.k", 200000},
		{"not in", "SELECT k FROM n WHERE k NOT IN (SELECT k FROM m WHERE k IS NOT NULL)", 71429},
		{"not exists", "SELECT k FROM n WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.k = n.k)", 71429},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkSpilledQuery(t, roomy, tight, tc.query, spill, tc.rows, exec.JoinSpillFiles)
		})
	}
}

// createJoinTables makes the two 200k-row tables of the join spill tests:
// n.k is 0..199999 (s has 100 values); m.k is 50000..249999 with every
// 7th NULL (t has 1,000 values).
func createJoinTables(t *testing.T, db *sql.DB) {
	t.Helper()
	mustExec(t, db, "CREATE TABLE n (k BIGINT, s STRING)")
	mustExec(t, db, `INSERT INTO n SELECT a.x + 10*b.x + 100*c.x + 1000*e.x + 10000*f.x + 100000*g.x,
		concat('s', CAST(b.x + 10*c.x AS STRING))
		FROM d a, d b, d c, d e, d f, d g WHERE g.x < 2`)
	mustExec(t, db, "CREATE TABLE m (k BIGINT, t STRING)")
	mustExec(t, db, `INSERT INTO m SELECT CASE WHEN k % 7 = 3 THEN NULL ELSE k + 50000 END, concat('t', CAST(k % 1000 AS STRING)) FROM n`)
}
