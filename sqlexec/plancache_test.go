package sqlexec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// queryStrings runs p and returns the first column as strings.
func queryStrings(t *testing.T, p *Prepared, args ...any) []any {
	t.Helper()
	ctx := context.Background()
	rows, err := p.Query(ctx, args)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []any
	for {
		rec, err := rows.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			return out
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			out = append(out, valueAt(rec, 0, i))
		}
		rec.Release()
	}
}

func TestPreparedPlanReuse(t *testing.T) {
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE t (id BIGINT, n INT, s STRING, f FLOAT)")
	mustExec(t, s, "INSERT INTO t VALUES (1, 10, 'a', 1.5), (2, 20, 'b', 1.1), (3, 30, 'c', 2.0)")
	tests := []struct {
		name  string
		sql   string
		runs  [][]any
		want  []int64 // count(*) per run
		reuse string  // "yes", "no", or "" for either
	}{
		{name: "point", sql: "SELECT count(*) FROM t WHERE id = ?", runs: [][]any{{1}, {2}, {4}, {3}}, want: []int64{1, 1, 0, 1}, reuse: "yes"},
		{name: "int column coerced", sql: "SELECT count(*) FROM t WHERE n >= ?", runs: [][]any{{10}, {25}, {31}}, want: []int64{3, 1, 0}, reuse: "yes"},
		{name: "two params and a constant", sql: "SELECT count(*) FROM t WHERE id > ? AND s <> ? AND n < 100", runs: [][]any{{0, "a"}, {1, "c"}, {0, "zz"}}, want: []int64{2, 1, 3}, reuse: "yes"},
		{name: "same param value twice", sql: "SELECT count(*) FROM t WHERE id = ? OR id = ?", runs: [][]any{{1, 1}, {1, 2}, {2, 2}}, want: []int64{1, 2, 1}, reuse: "yes"},
		{name: "in list", sql: "SELECT count(*) FROM t WHERE s IN (?, ?)", runs: [][]any{{"a", "b"}, {"c", "x"}}, want: []int64{2, 1}, reuse: "yes"},
		{name: "folded placeholder not reused", sql: "SELECT count(*) FROM t WHERE ? = 1", runs: [][]any{{1}, {2}, {1}}, want: []int64{3, 0, 3}, reuse: "no"},
		{name: "arithmetic on placeholder", sql: "SELECT count(*) FROM t WHERE id = ? + 1", runs: [][]any{{0}, {1}, {5}}, want: []int64{1, 1, 0}},
		{name: "limit placeholder", sql: "SELECT count(*) FROM (SELECT id FROM t LIMIT ?) x", runs: [][]any{{1}, {2}, {3}}, want: []int64{1, 2, 3}},
		{name: "kinds change", sql: "SELECT count(*) FROM t WHERE id = ?", runs: [][]any{{1}, {"2"}, {2.0}, {3}}, want: []int64{1, 1, 1, 1}},
		{name: "function of a placeholder not reused", sql: "SELECT count(*) FROM t WHERE s = trim(?)", runs: [][]any{{"a"}, {" b "}, {"c "}}, want: []int64{1, 1, 1}, reuse: "no"},
		{name: "abs of a placeholder not reused", sql: "SELECT count(*) FROM t WHERE id = abs(?)", runs: [][]any{{1}, {-2}, {-3}}, want: []int64{1, 1, 1}, reuse: "no"},
		{name: "parenthesized and between", sql: "SELECT count(*) FROM t WHERE (id) BETWEEN (?) AND ?", runs: [][]any{{1, 2}, {2, 3}, {3, 9}}, want: []int64{2, 2, 1}, reuse: "yes"},
		{name: "float column", sql: "SELECT count(*) FROM t WHERE f = ?", runs: [][]any{{1.5}, {2.0}, {1.1}, {1.5}}, want: []int64{1, 1, 0, 1}},
		{name: "clock function not reused", sql: "SELECT count(*) FROM t WHERE current_date() > DATE '2000-01-01' AND id = ?", runs: [][]any{{1}, {2}}, want: []int64{1, 1}, reuse: "no"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := s.Prepare(tc.sql)
			if err != nil {
				t.Fatal(err)
			}
			for i, args := range tc.runs {
				if got := queryInt(t, p, args...); got != tc.want[i] {
					t.Fatalf("run %d %v: count %d, want %d", i, args, got, tc.want[i])
				}
			}
			tm := p.tmpls[0]
			reused := tm != nil && tm.plan != nil
			if tc.reuse == "yes" && !reused || tc.reuse == "no" && reused {
				t.Fatalf("plan reused = %v, want %s", reused, tc.reuse)
			}
		})
	}
}

func TestPreparedPlanReplannedWhenTableMoves(t *testing.T) {
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE t (id BIGINT, s STRING)")
	mustExec(t, s, "INSERT INTO t VALUES (1, 'a')")
	p, err := s.Prepare("SELECT s FROM t WHERE id >= ?")
	if err != nil {
		t.Fatal(err)
	}
	ins, err := s.Prepare("INSERT INTO t VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func()
		want int
	}{
		{name: "first", do: func() {}, want: 1},
		{name: "second run reuses", do: func() {}, want: 1},
		{name: "after prepared inserts", do: func() {
			for i := 2; i <= 4; i++ {
				if _, err := ins.Exec(context.Background(), []any{i, "x"}); err != nil {
					t.Fatal(err)
				}
			}
		}, want: 4},
		{name: "after a schema change", do: func() { mustExec(t, s, "ALTER TABLE t ADD COLUMN z INT") }, want: 4},
		{name: "after re-creation", do: func() {
			mustExec(t, s, "DROP TABLE t")
			mustExec(t, s, "CREATE TABLE t (id BIGINT, s STRING)")
			mustExec(t, s, "INSERT INTO t VALUES (7, 'q'), (8, 'r')")
		}, want: 2},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.do()
			if got := queryStrings(t, p, 0); len(got) != st.want {
				t.Fatalf("%d rows %v, want %d", len(got), got, st.want)
			}
		})
	}
	if p.tmpls[0] == nil || p.tmpls[0].plan == nil {
		t.Fatal("the point query was never reused")
	}
	if ins.tmpls[0] == nil || ins.tmpls[0].plan == nil {
		t.Fatal("the insert was never reused")
	}
	// Rows of a reused plan still open: the next run plans anew.
	ctx := context.Background()
	r1, err := p.Query(ctx, []any{8})
	if err != nil {
		t.Fatal(err)
	}
	if got := queryStrings(t, p, 0); len(got) != 2 {
		t.Fatalf("second query while the first is open: %v", got)
	}
	if got := collectRows(t, r1); len(got) != 1 || got[0] != "r" {
		t.Fatalf("first query read %v after a second run, want [r]", got)
	}
}

func collectRows(t *testing.T, rows *Rows) []any {
	t.Helper()
	defer rows.Close()
	var out []any
	for {
		rec, err := rows.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			return out
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			out = append(out, valueAt(rec, 0, i))
		}
		rec.Release()
	}
}

func valueAt(rec interface {
	Column(int) arrow.Array
}, col, row int) any {
	return exec.ValueAt(rec.Column(col), row)
}

func TestPreparedInsertReusedAcrossCommits(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	mustExec(t, s, "CREATE TABLE t (id BIGINT, n INT, s STRING)")
	ins, err := s.Prepare("INSERT INTO t VALUES (?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if _, err := ins.Exec(ctx, []any{i, i * 10, "v"}); err != nil {
			t.Fatal(err)
		}
	}
	tm := ins.tmpls[0]
	if tm == nil || tm.plan == nil || tm.uses < 3 {
		t.Fatalf("insert template %+v: want one plan used by runs 2 to 4", tm)
	}
	mustExec(t, s, "ALTER TABLE t ALTER COLUMN n TYPE BIGINT")
	if _, err := ins.Exec(ctx, []any{int64(1) << 40, int64(1) << 40, "w"}); err != nil {
		t.Fatal(err)
	}
	if ins.tmpls[0] == tm {
		t.Fatal("the template survived a schema change")
	}
	if n := count(t, s, "SELECT count(*) FROM t WHERE n = 1099511627776"); n != 1 {
		t.Fatalf("%d rows with the widened value", n)
	}
	if n := count(t, s, "SELECT sum(n) FROM t WHERE id < 4"); n != 60 {
		t.Fatalf("sum %d, want 60", n)
	}
}
