package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/childtest"
	"github.com/icesql/icesql/planner"
)

// deepCase is a statement nested n levels by repeating an opening piece
// (and a closing one).
func deep(n int, open, leaf, close string) string {
	return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
}

// TestDeepExpressions: statements nested far past the limit are refused
// with planner.ErrTooDeep (they overflowed the Go stack, which ends the
// process), and a chain of 10,000 ANDs below it still binds and answers. In a child process with a capped stack and memory.
func TestDeepExpressions(t *testing.T) {
	if raceEnabled {
		t.Skip("depth limits test no concurrency; skipped under -race (too slow there)")
	}
	childtest.Run(t, "TestDeepExpressions", func(t *testing.T) {
		db := openDB(t, t.TempDir())
		mustExec(t, db, "CREATE TABLE t (x int)")
		mustExec(t, db, "INSERT INTO t VALUES (1), (2)")
		const million = 1_000_000
		refused := map[string]string{
			"1+1+... 1,000,000 terms":  "SELECT 1" + strings.Repeat("+1", million-1),
			"nested unary minus":       "SELECT " + strings.Repeat("- ", million) + "1",
			"nested function calls":    "SELECT " + deep(million, "abs(", "1", ")"),
			"AND chain past the limit": "SELECT count(*) FROM t WHERE x = 1" + strings.Repeat(" AND x = 1", 2*planner.MaxExprDepth),
		}
		for name, q := range refused {
			t.Run(name, func(t *testing.T) {
				err := execOrQuery(t.Context(), db, q)
				if !errors.Is(err, planner.ErrTooDeep) {
					t.Fatalf("err = %.300v, want planner.ErrTooDeep", err)
				}
			})
		}
		t.Run("AND chain of 10,000 terms", func(t *testing.T) {
			var n int
			q := "SELECT count(*) FROM t WHERE x = 1" + strings.Repeat(" AND x = 1", 9_999)
			if err := db.QueryRow(q).Scan(&n); err != nil || n != 1 {
				t.Fatalf("count = %d, %v; want 1", n, err)
			}
		})
	})
}
