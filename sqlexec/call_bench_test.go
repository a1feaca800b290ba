package sqlexec

import (
	"context"
	"testing"
)

// BenchmarkCallExpireNothing measures a CALL's fixed cost: binding the
// arguments, loading the table and planning an expiry that removes nothing.
func BenchmarkCallExpireNothing(b *testing.B) {
	ctx := context.Background()
	e, err := Open(ctx, Config{Warehouse: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession()
	for _, q := range []string{"CREATE TABLE t (id BIGINT)", "INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (2)"} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			b.Fatal(err)
		}
	}
	p, err := s.Prepare("CALL system.expire_snapshots(table => 't', retain_last => ?, older_than => '2000-01-01 00:00:00')")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Exec(ctx, []any{int64(1)}); err != nil {
			b.Fatal(err)
		}
	}
}
