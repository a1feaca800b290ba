package plannertest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

// runWith plans sql and runs it with the given worker count, returning
// the rows as text and the root operator.
func runWith(ctx context.Context, t testing.TB, db *DB, sql string, workers int) ([]string, exec.RecordIterator, error) {
	t.Helper()
	stmt, err := parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.PlanQuery(ctx, db.Cat, stmt, planner.BindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ec := planner.NewEvalContext(ctx, db.Mem)
	ec.Workers = workers
	it, err := planner.Execute(ctx, ec, p)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := exec.Collect(ctx, it)
	if err != nil {
		return nil, it, err
	}
	defer exec.ReleaseAll(bs)
	var rows []string
	for _, b := range bs {
		for r := 0; r < int(b.NumRows()); r++ {
			row := ""
			for c := 0; c < int(b.NumCols()); c++ {
				row += exec.FormatValue(exec.ValueAt(b.Column(c), r), b.Column(c).DataType()) + "|"
			}
			rows = append(rows, row)
		}
	}
	slices.Sort(rows)
	return rows, it, nil
}

func joinFixture(t testing.TB, mem memory.Allocator, rows int) *DB {
	db := NewDB(mem)
	for _, s := range []string{"CREATE TABLE f (k BIGINT, v BIGINT)", "CREATE TABLE d (k BIGINT, name VARCHAR(5))"} {
		if err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	ins := func(table string, n int, row func(i int) string) {
		for lo := 0; lo < n; lo += 500 {
			q := "INSERT INTO " + table + " VALUES "
			for i := lo; i < min(n, lo+500); i++ {
				if i > lo {
					q += ", "
				}
				q += row(i)
			}
			if err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
	}
	ins("f", rows, func(i int) string {
		if i%13 == 0 {
			return fmt.Sprintf("(NULL, %d)", i)
		}
		return fmt.Sprintf("(%d, %d)", i%37, i)
	})
	ins("d", 30, func(i int) string {
		if i == 29 {
			return "(NULL, 'none')"
		}
		return fmt.Sprintf("(%d, 'n%d')", i, i%4)
	})
	return db
}

func TestParallelJoinMatchesSerial(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	db := joinFixture(t, mem, 3000)
	defer db.Cat.Close()
	queries := []string{
		"SELECT d.name, count(*), sum(f.v) FROM f JOIN d ON f.k = d.k GROUP BY d.name",
		"SELECT d.name, count(*), min(f.v) FROM f LEFT JOIN d ON f.k = d.k WHERE f.v > 10 GROUP BY d.name",
		"SELECT count(*), sum(v) FROM f WHERE k IN (SELECT k FROM d WHERE name = 'n1')",
		"SELECT count(*), max(v) FROM f WHERE k NOT IN (SELECT k FROM d)",
		"SELECT count(*) FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.k = f.k)",
		"SELECT a.name, count(*) FROM f JOIN d a ON f.k = a.k JOIN d b ON f.k = b.k + 1 AND a.name <> b.name GROUP BY a.name",
		"SELECT count(*), sum(f.v) FROM f, d WHERE f.v < d.k * 10",
	}
	for _, q := range queries {
		t.Run(q, func(t *testing.T) {
			ctx := context.Background()
			want, _, err := runWith(ctx, t, db, q, 1)
			if err != nil {
				t.Fatal(err)
			}
			got, it, err := runWith(ctx, t, db, q, 4)
			if err != nil {
				t.Fatal(err)
			}
			if !usesParallelJoin(it) {
				t.Fatalf("plan does not probe in parallel: %T", it)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("parallel %v\nserial   %v", got, want)
			}
		})
	}
}

// usesParallelJoin finds a ParallelAggregate sharing a join build.
func usesParallelJoin(it exec.RecordIterator) bool {
	switch x := it.(type) {
	case *exec.ParallelAggregate:
		return len(x.Builds) > 0
	case *exec.Project:
		return usesParallelJoin(x.Input)
	case *exec.Filter:
		return usesParallelJoin(x.Input)
	case *exec.Sort:
		return usesParallelJoin(x.Input)
	}
	return false
}

func TestParallelCrossJoinCancels(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	db := joinFixture(t, mem, 2000)
	defer db.Cat.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		// 2000^3 rows
		_, _, err := runWith(ctx, t, db, "SELECT count(*) FROM f a, f b, f c", 4)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute): // a watchdog, not a speed check
		t.Fatal("parallel cross join did not stop after cancellation")
	}
}

// peakAllocator records the most bytes ever outstanding.
type peakAllocator struct {
	memory.Allocator
	mu        sync.Mutex
	cur, peak int
}

func (p *peakAllocator) add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur += n
	p.peak = max(p.peak, p.cur)
}

func (p *peakAllocator) Allocate(n int) []byte { p.add(n); return p.Allocator.Allocate(n) }
func (p *peakAllocator) Reallocate(n int, b []byte) []byte {
	p.add(n - len(b))
	return p.Allocator.Reallocate(n, b)
}
func (p *peakAllocator) Free(b []byte) { p.add(-len(b)); p.Allocator.Free(b) }

func TestCrossJoinCountMemoryBounded(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	mem := &peakAllocator{Allocator: checked}
	db := joinFixture(t, mem, 150)
	defer db.Cat.Close()
	base := mem.peak
	for _, workers := range []int{1, 4} {
		// 150^3 = 3.4M rows of two BIGINT columns: 54 MB if materialised
		rows, _, err := runWith(context.Background(), t, db, "SELECT count(*), sum(a.v + b.v + c.v) FROM f a, f b, f c", workers)
		if err != nil {
			t.Fatal(err)
		}
		if want := "3375000|754312500|"; len(rows) != 1 || rows[0] != want {
			t.Fatalf("workers=%d: %v, want %s", workers, rows, want)
		}
	}
	if grew := mem.peak - base; grew > 8<<20 {
		t.Fatalf("peak grew by %d bytes running the cross join", grew)
	}
}
