package bench

import (
	"context"
	"testing"
)

// TestQuickAnswersAgree runs every query at small scale through icesql
// (rows and Arrow) and DuckDB over the same files, and through DuckDB
// over its own file of the same generated rows: all answers must agree.
func TestQuickAnswersAgree(t *testing.T) {
	ctx := context.Background()
	sc := Scale{Rows: 60_000}
	env, err := Open(ctx, Config{Dir: t.TempDir(), Scale: sc, DuckOwn: true, DSNOptions: "memory_limit=64MiB"})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	engines := env.Engines(true, true)
	for _, q := range sc.Queries() {
		t.Run(q.Name, func(t *testing.T) {
			m, err := env.Measure(ctx, q, engines, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range m.Mismatch {
				t.Error(d)
			}
		})
	}
	// the generated data is what the queries assume
	res, err := env.Run(ctx, IceSQL, Query{SQL: "SELECT count(*), count(DISTINCT user_id), count(DISTINCT action) FROM events"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []any{int64(sc.Rows), int64(sc.users()), int64(3)}; Diff(Result{Rows: [][]any{want}}, res, false) != "" {
		t.Errorf("events: %v, want %v", res.Rows, want)
	}
	like, err := env.Run(ctx, Duck, Query{SQL: "SELECT count(*) FROM events WHERE user_id LIKE '" + sc.likePrefix() + "%'"})
	if err != nil {
		t.Fatal(err)
	}
	if n := like.Rows[0][0].(int64); n == 0 || n > int64(sc.Rows/10) {
		t.Errorf("like prefix %q matches %d of %d rows", sc.likePrefix(), n, sc.Rows)
	}
}
