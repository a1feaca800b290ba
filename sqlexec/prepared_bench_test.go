package sqlexec

import (
	"context"
	"fmt"
	"testing"
)

// benchSession is a session over a table of 1,000 rows in 10 files.
func benchSession(b *testing.B) *Session {
	b.Helper()
	e, err := Open(context.Background(), Config{Warehouse: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	s := e.NewSession()
	ctx := context.Background()
	if _, err := s.Exec(ctx, "CREATE TABLE t (id BIGINT, s STRING)", nil); err != nil {
		b.Fatal(err)
	}
	for f := 0; f < 10; f++ {
		stmt := "INSERT INTO t VALUES "
		for i := 0; i < 100; i++ {
			if i > 0 {
				stmt += ", "
			}
			stmt += fmt.Sprintf("(%d, 'row %d')", f*100+i, f*100+i)
		}
		if _, err := s.Exec(ctx, stmt, nil); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkPreparedPointSelect is the per-run cost of a prepared point
// query (bind, plan, prune to one file, read it).
func BenchmarkPreparedPointSelect(b *testing.B) {
	for _, replan := range []bool{true, false} {
		b.Run(fmt.Sprintf("replan=%v", replan), func(b *testing.B) {
			s := benchSession(b)
			s.replan = replan
			benchPointSelect(b, s)
		})
	}
}

func benchPointSelect(b *testing.B, s *Session) {
	p, err := s.Prepare("SELECT s FROM t WHERE id = ?")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		rows, err := p.Query(ctx, []any{int64(i % 1000)})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			rec, err := rows.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if rec == nil {
				break
			}
			n += int(rec.NumRows())
			rec.Release()
		}
		rows.Close()
		if n != 1 {
			b.Fatalf("%d rows for id %d", n, i%1000)
		}
	}
}

// BenchmarkPreparedInsertRow is the per-run cost of a prepared
// single-row INSERT (one commit each).
func BenchmarkPreparedInsertRow(b *testing.B) {
	for _, replan := range []bool{true, false} {
		b.Run(fmt.Sprintf("replan=%v", replan), func(b *testing.B) {
			s := benchSession(b)
			s.replan = replan
			benchInsertRow(b, s)
		})
	}
}

func benchInsertRow(b *testing.B, s *Session) {
	p, err := s.Prepare("INSERT INTO t VALUES (?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if _, err := p.Exec(ctx, []any{int64(i), "x"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPreparedPlanOnly is a prepared query over an empty table:
// what is left is resolving, binding and optimizing (or reusing) the plan.
func BenchmarkPreparedPlanOnly(b *testing.B) {
	for _, replan := range []bool{true, false} {
		b.Run(fmt.Sprintf("replan=%v", replan), func(b *testing.B) {
			e, err := Open(context.Background(), Config{Warehouse: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			s := e.NewSession()
			s.replan = replan
			ctx := context.Background()
			if _, err := s.Exec(ctx, "CREATE TABLE t (id BIGINT, s STRING, n INT)", nil); err != nil {
				b.Fatal(err)
			}
			p, err := s.Prepare("SELECT s, n + 1 FROM t WHERE id = ? AND n BETWEEN ? AND ? ORDER BY s LIMIT 10")
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				rows, err := p.Query(ctx, []any{int64(i), 1, 100})
				if err != nil {
					b.Fatal(err)
				}
				if rec, err := rows.Next(ctx); err != nil || rec != nil {
					b.Fatalf("rows from an empty table: %v", err)
				}
				rows.Close()
			}
		})
	}
}
