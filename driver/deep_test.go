package driver_test

import (
	"errors"
	"fmt"
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
			"nested parentheses":       "SELECT " + deep(million, "(", "1", ")"),
			"nested CASE":              "SELECT " + deep(million/10, "CASE WHEN x = 1 THEN ", "1", " END") + " FROM t",
			"nested IN (SELECT ...)":   "SELECT count(*) FROM t WHERE " + deep(million/10, "x IN (SELECT x FROM t WHERE ", "x = 1", ")"),
			"nested scalar subqueries": "SELECT " + deep(million/10, "(SELECT ", "1", ")"),
			"NOT chain":                "SELECT count(*) FROM t WHERE " + strings.Repeat("NOT ", million) + "x = 1",
			"OR chain in WHERE":        "SELECT count(*) FROM t WHERE x = 1" + strings.Repeat(" OR x = 2", 2*planner.MaxExprDepth),
			"concat chain":             "SELECT 'a'" + strings.Repeat(" || 'a'", 2*planner.MaxExprDepth),
		}
		for name, q := range refused {
			t.Run(name, func(t *testing.T) {
				err := execOrQuery(t.Context(), db, q)
				if !errors.Is(err, planner.ErrTooDeep) {
					t.Fatalf("err = %.300v, want planner.ErrTooDeep", err)
				}
			})
		}
		// Just inside the limit, every later pass (folding, pushdown into
		// the scan, EXPLAIN's printing, evaluation) gets the deepest tree
		// the binder lets through, on the child's capped stack.
		const near = planner.MaxExprDepth - 16
		accepted := []struct{ name, q, want string }{
			{"unary minus at the limit", "SELECT " + strings.Repeat("- ", near) + "1", "1"},
			{"function calls at the limit", "SELECT " + deep(near, "abs(", "-1", ")"), "1"},
			{"parentheses at the limit", "SELECT " + deep(near, "(", "1", ")"), "1"},
			{"CASE at the limit", "SELECT count(*) FROM t WHERE " + deep(near/2, "CASE WHEN x > 0 THEN ", "x = 1", " END"), "1"},
			{"OR chain pushed into the scan", "SELECT count(*) FROM t WHERE x = 7" + strings.Repeat(" OR x = 1", near-2), "1"},
			{"column arithmetic at the limit", "SELECT sum(x" + strings.Repeat(" + x", near-2) + ") FROM t", fmt.Sprint(3 * (near - 1))},
			{"scalar subqueries 10,000 deep", "SELECT " + deep(10_000, "(SELECT ", "1", ")"), "1"},
			{"IN (SELECT ...) 2,000 deep", "SELECT count(*) FROM t WHERE " + deep(2_000, "x IN (SELECT x FROM t WHERE ", "x = 1", ")"), "1"},
		}
		for _, c := range accepted {
			t.Run(c.name, func(t *testing.T) {
				for _, q := range []string{c.q, "EXPLAIN " + c.q} {
					got, err := tryQueryStrings(db, q)
					if err != nil {
						t.Fatalf("%.80s...: %.300v", q, err)
					}
					if q == c.q && (len(got) != 1 || got[0] != c.want) {
						t.Fatalf("got %.200v, want %s", got, c.want)
					}
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
