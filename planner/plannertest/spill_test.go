package plannertest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/sqlexec/exec"
)

// ORDER BY and window queries give the same rows whether their sorts
// spill (a tiny limit carried in the context) or not.
func TestSortSpillThroughPlanner(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	db := NewDB(mem)
	if err := db.Exec("CREATE TABLE t (id BIGINT, k BIGINT, s VARCHAR(10))"); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for lo := 0; lo < 3000; lo += 500 {
		var rows []string
		for i := lo; i < lo+500; i++ {
			k, s := fmt.Sprint(r.IntN(30)), fmt.Sprintf("'s%d'", r.IntN(8))
			if r.IntN(9) == 0 {
				k = "NULL"
			}
			if r.IntN(11) == 0 {
				s = "NULL"
			}
			rows = append(rows, fmt.Sprintf("(%d, %s, %s)", i, k, s))
		}
		if err := db.Exec("INSERT INTO t VALUES " + strings.Join(rows, ", ")); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	spill := exec.WithMemoryConfig(context.Background(), exec.MemoryConfig{Limit: 8 << 10, SpillDir: dir})
	for _, q := range []string{
		"SELECT id, k, s FROM t ORDER BY k DESC, s",
		"SELECT id, k, s FROM t ORDER BY s NULLS FIRST, k NULLS LAST",
		"SELECT id, k * 2 AS k2 FROM t ORDER BY k2, id DESC",
		"SELECT id, row_number() OVER (PARTITION BY k ORDER BY s, id) FROM t ORDER BY id",
	} {
		t.Run(q, func(t *testing.T) {
			want := queryRows(t, db, context.Background(), q)
			got := queryRows(t, db, spill, q)
			if len(got) != 3000 || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("spilled %d rows, in-memory %d", len(got), len(want))
			}
			if es, _ := os.ReadDir(dir); len(es) != 0 {
				t.Fatalf("%d spill files left", len(es))
			}
		})
	}
	db.Cat.Close()
	mem.AssertSize(t, 0)
}

func queryRows(t *testing.T, db *DB, ctx context.Context, q string) []string {
	t.Helper()
	_, bs, err := db.QueryBatches(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	defer exec.ReleaseAll(bs)
	var out []string
	for _, b := range bs {
		for r := 0; r < int(b.NumRows()); r++ {
			row := ""
			for c := 0; c < int(b.NumCols()); c++ {
				row += exec.FormatValue(exec.ValueAt(b.Column(c), r), b.Column(c).DataType()) + "|"
			}
			out = append(out, row)
		}
	}
	return out
}
