package driver_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/icesql/icesql/sqlexec/exec"
)

// spillQueryRows runs q and returns its rows as text; after the first row
// it reports how many files dir held (-1 when dir is "").
func spillQueryRows(t *testing.T, db *sql.DB, q, dir string) (rows []string, filesMidQuery int) {
	t.Helper()
	rs, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	filesMidQuery = -1
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, fmt.Sprint(vals...))
		if filesMidQuery < 0 && dir != "" {
			es, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			filesMidQuery = len(es)
		}
	}
	if err := rs.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return rows, filesMidQuery
}

// newSpillFixture opens a lake holding the digit table d (x = 0..9) and
// makes an empty spill directory beside it.
func newSpillFixture(t *testing.T) (dir, spill string, roomy *sql.DB) {
	t.Helper()
	dir = t.TempDir()
	spill = filepath.Join(dir, "spill")
	if err := os.MkdirAll(spill, 0o755); err != nil {
		t.Fatal(err)
	}
	roomy = openDB(t, dir+"/lake")
	mustExec(t, roomy, "CREATE TABLE d (x BIGINT)")
	mustExec(t, roomy, "INSERT INTO d VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)")
	return dir, spill, roomy
}

// checkSpilledQuery runs q on roomy and on tight (whose spill_dir is
// spill) and checks they return the same rows, wantRows of them when it
// is positive; that spill held files mid-query and holds none after;
// and, when spillFiles is not nil, that its count of the operator's
// spill files grew.
func checkSpilledQuery(t *testing.T, roomy, tight *sql.DB, q, spill string, wantRows int, spillFiles func() int64) {
	t.Helper()
	want, _ := spillQueryRows(t, roomy, q, "")
	var before int64
	if spillFiles != nil {
		before = spillFiles()
	}
	got, mid := spillQueryRows(t, tight, q, spill)
	slices.Sort(want)
	slices.Sort(got)
	if wantRows > 0 && len(want) != wantRows {
		t.Fatalf("%d rows, want %d", len(want), wantRows)
	}
	if len(want) == 0 {
		t.Fatal("no rows; the test proves nothing")
	}
	if !slices.Equal(got, want) {
		t.Fatalf("1 MiB limit: %d rows, default limit %d", len(got), len(want))
	}
	if mid <= 0 {
		t.Fatalf("%d files in spill_dir during the query: nothing spilled", mid)
	}
	if spillFiles != nil && spillFiles() == before {
		t.Fatal("the operator created no spill files")
	}
	if left, _ := os.ReadDir(spill); len(left) != 0 {
		t.Fatalf("%d spill files left behind", len(left))
	}
}

// Under a 1 MiB memory_limit, a GROUP BY over 200k distinct keys and a
// window over 5000 partitions spill to spill_dir and return what the
// default limit returns; no spill file outlives its query.
func TestMemoryLimitSpillsAggregatesAndWindows(t *testing.T) {
	dir, spill, roomy := newSpillFixture(t)
	mustExec(t, roomy, "CREATE TABLE n (k BIGINT, s STRING)")
	mustExec(t, roomy, `INSERT INTO n SELECT a.x + 10*b.x + 100*c.x + 1000*e.x + 10000*f.x + 100000*(g.x % 2),
		CASE WHEN a.x = 3 THEN NULL ELSE concat('s', CAST(b.x + 10*c.x AS STRING)) END
		FROM d a, d b, d c, d e, d f, d g WHERE g.x < 2`)
	if n := queryInt(t, roomy, "SELECT count(*) FROM n"); n != 200000 {
		t.Fatalf("%d rows, want 200000", n)
	}
	tight := openDB(t, dir+"/lake?memory_limit=1MiB&spill_dir="+spill)
	tests := []struct {
		name, query string
		groups      int
		aggregate   bool
	}{
		{"group by 200k keys", "SELECT k, count(*), sum(k * 3), min(s), max(k) FROM n GROUP BY k", 200000, true},
		{"group by with distinct", "SELECT k % 150000, count(DISTINCT s), avg(k), count(s) FROM n GROUP BY k % 150000", 150000, true},
		{"group by string and expression", "SELECT s, k % 40000, count(*) FROM n GROUP BY s, k % 40000", 0, true},
		{"window over 5000 partitions", `SELECT k, row_number() OVER (PARTITION BY k % 5000 ORDER BY k),
			sum(k) OVER (PARTITION BY k % 5000 ORDER BY k ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
			lag(s) OVER (PARTITION BY k % 5000 ORDER BY k DESC) FROM n`, 200000, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var spillFiles func() int64
			if tc.aggregate {
				spillFiles = exec.AggregateSpillFiles
			}
			checkSpilledQuery(t, roomy, tight, tc.query, spill, tc.groups, spillFiles)
		})
	}
}
