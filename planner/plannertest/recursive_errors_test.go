package plannertest

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

func TestRecursiveCTEErrors(t *testing.T) {
	db := NewDB(nil)
	defer db.Cat.Close()
	if err := db.Exec("CREATE TABLE e (src BIGINT, dst BIGINT)"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		sql    string
		target error
		cte    string // the RecursiveCTEError's CTE, "" when another error type is expected
	}{
		{"two references", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT a.n FROM c a JOIN c b ON a.n = b.n) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"column count", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n, n FROM c) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"column type", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT 'x' FROM c) SELECT n FROM c", planner.ErrType, "c"},
		{"reference in the anchor", "WITH RECURSIVE c(n) AS (SELECT n FROM c UNION ALL SELECT 1) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"no union", "WITH RECURSIVE c(n) AS (SELECT n + 1 FROM c) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"in a subquery", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT 2 WHERE EXISTS (SELECT 1 FROM c)) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"under an aggregate", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM c) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"under GROUP BY", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n FROM c GROUP BY n) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"under DISTINCT", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT DISTINCT n FROM c) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"under a window", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT rank() OVER (ORDER BY n) FROM c) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"in a derived table under LIMIT", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n FROM (SELECT n FROM c LIMIT 1) s) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"nullable side of a left join", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT e.dst FROM e LEFT JOIN c ON c.n = e.src) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"nullable side of a right join", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT e.dst FROM c RIGHT JOIN e ON c.n = e.src) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"under EXCEPT", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n FROM (SELECT n FROM c EXCEPT SELECT 5) s) SELECT n FROM c", planner.ErrInvalidQuery, "c"},
		{"ORDER BY", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3 ORDER BY n) SELECT n FROM c", planner.ErrUnsupported, "c"},
		{"column list length", "WITH RECURSIVE c(n, m) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n FROM c", planner.ErrInvalidQuery, ""},
		{"name twice", "WITH RECURSIVE c AS (SELECT 1), c AS (SELECT 2) SELECT 1", planner.ErrInvalidQuery, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := db.Query(tc.sql)
			if !errors.Is(err, tc.target) {
				t.Fatalf("err = %v, want %v", err, tc.target)
			}
			var re *planner.RecursiveCTEError
			if got := errors.As(err, &re); got != (tc.cte != "") || (got && re.CTE != tc.cte) {
				t.Fatalf("err = %#v, want a RecursiveCTEError for %q", err, tc.cte)
			}
		})
	}
}

func TestRecursiveCTERunawayLimits(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	db := NewDB(mem)
	defer db.Cat.Close()
	tests := []struct {
		name  string
		ctx   context.Context
		sql   string
		bound string
	}{
		{"iterations", context.Background(), "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c", "iterations"},
		// the working table doubles every step
		{"memory", exec.WithMemoryConfig(context.Background(), exec.MemoryConfig{Limit: 1 << 20}),
			"WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + k FROM c, (SELECT 0 AS k UNION ALL SELECT 1) two) SELECT count(*) FROM c", "memory"},
		{"memory of UNION's seen rows", exec.WithMemoryConfig(context.Background(), exec.MemoryConfig{Limit: 1 << 16}),
			"WITH RECURSIVE c(n) AS (SELECT 1 UNION SELECT n + 1 FROM c) SELECT count(*) FROM c", "memory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, bs, err := db.QueryBatches(tc.ctx, tc.sql)
			exec.ReleaseAll(bs)
			var le *exec.RecursionLimitError
			if !errors.As(err, &le) || le.Bound != tc.bound || le.CTE != "c" || !errors.Is(err, exec.ErrRecursionLimit) {
				t.Fatalf("err = %v, want a %s limit on c", err, tc.bound)
			}
		})
	}
}

// A recursion stops when its query's context is cancelled.
func TestRecursiveCTECancellation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	db := NewDB(mem)
	defer db.Cat.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stmt, err := parse("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n FROM c")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.PlanQuery(ctx, db.Cat, stmt, planner.BindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	it, err := planner.Execute(ctx, planner.NewEvalContext(ctx, mem), p)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for i := 0; i < 3; i++ {
		b, err := it.Next(ctx)
		if err != nil || b == nil {
			t.Fatalf("batch %d: %v, %v", i, b, err)
		}
		b.Release()
	}
	cancel()
	if _, err := it.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
