package plannertest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/sqlexec/exec"
)

// A filter on a row number (rn = 1, rn <= 3, rn < 3) lets the window keep
// each partition's top rows only; the rows must be those of the same
// query whose filter the planner cannot read (rn + 0 <= k), in memory
// and under a limit that stops the reduction half way.
func TestWindowTopNThroughPlanner(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	db := NewDB(mem)
	if err := db.Exec("CREATE TABLE t (id BIGINT, k BIGINT, s VARCHAR(10), f DOUBLE)"); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for lo := 0; lo < 4000; lo += 500 {
		var rows []string
		for i := lo; i < lo+500; i++ {
			k, s, f := fmt.Sprint(r.IntN(300)), fmt.Sprintf("'s%d'", r.IntN(6)), fmt.Sprint(r.IntN(5))
			if r.IntN(9) == 0 {
				k = "NULL"
			}
			if r.IntN(7) == 0 {
				s = "NULL"
			}
			if r.IntN(5) == 0 {
				f = "NULL"
			}
			rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s)", i, k, s, f))
		}
		if err := db.Exec("INSERT INTO t VALUES " + strings.Join(rows, ", ")); err != nil {
			t.Fatal(err)
		}
	}
	spill := exec.WithMemoryConfig(context.Background(), exec.MemoryConfig{Limit: 16 << 10, SpillDir: t.TempDir()})
	for _, q := range []string{
		"SELECT id, k, rn FROM (SELECT id, k, row_number() OVER (PARTITION BY k ORDER BY s DESC, id DESC) AS rn FROM t) x WHERE rn <= 3 ORDER BY id",
		"SELECT id, rn FROM (SELECT id, row_number() OVER (PARTITION BY s ORDER BY f DESC, k, id) AS rn FROM t) x WHERE rn = 1 ORDER BY id",
		"SELECT id, rn FROM (SELECT id, row_number() OVER (PARTITION BY s, f ORDER BY k DESC, id) AS rn FROM t) x WHERE rn < 3 ORDER BY id",
		"SELECT count(*), sum(id), min(id), max(id) FROM (SELECT id, row_number() OVER (PARTITION BY k ORDER BY s, id) AS rn FROM t) x WHERE rn = 1",
		"SELECT count(*) FROM (SELECT id, row_number() OVER (PARTITION BY k ORDER BY s) AS rn FROM t WHERE id < 0) x WHERE rn = 1",
	} {
		t.Run(q, func(t *testing.T) {
			general := strings.NewReplacer("rn <= 3", "rn + 0 <= 3", "rn = 1", "rn + 0 = 1", "rn < 3", "rn + 0 < 3").Replace(q)
			if !strings.Contains(explainOf(t, db, q), "top-n") || strings.Contains(explainOf(t, db, general), "top-n") {
				t.Fatalf("EXPLAIN does not mark only the reduced query:\n%s", explainOf(t, db, q))
			}
			want := queryRows(t, db, context.Background(), general)
			for name, ctx := range map[string]context.Context{"in memory": context.Background(), "spilled": spill} {
				if got := queryRows(t, db, ctx, q); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s: %d rows %v, want %d %v", name, len(got), head(got), len(want), head(want))
				}
			}
		})
	}
	db.Cat.Close()
	mem.AssertSize(t, 0)
}

func explainOf(t *testing.T, db *DB, q string) string {
	t.Helper()
	return strings.Join(queryRows(t, db, context.Background(), "EXPLAIN "+q), "\n")
}

func head(rows []string) []string { return rows[:min(len(rows), 5)] }
