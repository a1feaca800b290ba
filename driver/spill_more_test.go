package driver_test

import (
	"database/sql"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/icesql/icesql/sqlexec/exec"
)

// Under a 1 MiB memory_limit, an aggregate over a join (which runs as
// parallel partial aggregations probing one shared build side) spills
// the build side rather than holding 200k rows, and returns what the
// default limit returns; no spill file outlives its query.
func TestMemoryLimitSpillsJoinsUnderParallelAggregates(t *testing.T) {
	if testing.Short() {
		t.Skip("two 200k-row tables")
	}
	// parallel aggregation needs at least two workers
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	dir, spill, roomy := newSpillFixture(t)
	createJoinTables(t, roomy)
	tight := openDB(t, dir+"/lake?memory_limit=1MiB&spill_dir="+spill)
	tests := []struct {
		name, query string
		rows        int
	}{
		{"inner join grouped", "SELECT m.t, count(*), sum(n.k), min(n.s) FROM n JOIN m ON n.k = m.k GROUP BY m.t", 1000},
		{"left join grouped", "SELECT n.s, count(m.k), max(m.t) FROM n LEFT JOIN m ON n.k = m.k GROUP BY n.s", 100},
		{"semi join global", "SELECT count(*), sum(k) FROM n WHERE k IN (SELECT k FROM m)", 1},
		{"anti join grouped", "SELECT s, count(*) FROM n WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.k = n.k) GROUP BY s", 100},
		{"two joins grouped", "SELECT a.t, count(*) FROM n JOIN m a ON n.k = a.k JOIN m b ON n.k + 1 = b.k WHERE n.k % 3 = 0 GROUP BY a.t", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkSpilledAggregate(t, roomy, tight, tc.query, spill, tc.rows)
		})
	}
}

// checkSpilledAggregate is checkSpilledQuery for a query whose joins end
// before its first row (an aggregate reads them whole): spill files are
// looked for while the query runs, by a watcher polling spill.
func checkSpilledAggregate(t *testing.T, roomy, tight *sql.DB, q, spill string, wantRows int) {
	t.Helper()
	want, _ := spillQueryRows(t, roomy, q, "")
	before := exec.JoinSpillFiles()
	stop := make(chan struct{})
	seen := make(chan int)
	go func() {
		most := 0
		for {
			if es, err := os.ReadDir(spill); err == nil {
				most = max(most, len(es))
			}
			select {
			case <-stop:
				seen <- most
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	got, _ := spillQueryRows(t, tight, q, "")
	close(stop)
	most := <-seen
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
	if exec.JoinSpillFiles() == before {
		t.Fatal("no hash join spilled")
	}
	if most == 0 {
		t.Fatal("no file in spill_dir while the query ran")
	}
	if left, _ := os.ReadDir(spill); len(left) != 0 {
		t.Fatalf("%d spill files left behind", len(left))
	}
}
