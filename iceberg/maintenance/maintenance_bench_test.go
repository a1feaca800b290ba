package maintenance

import (
	"context"
	"testing"
)

// BenchmarkExpirePlanning measures the dry-run reachability computation
// over a table of 100 one-row commits.
func BenchmarkExpirePlanning(b *testing.B) {
	f := newFixture(b)
	tbl := f.create(b, false, nil)
	for i := range 100 {
		tbl = appendRows(b, tbl, []int64{int64(i)})
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ExpireSnapshots(ctx, tbl, ExpireOptions{OlderThan: future, RetainLast: 1, DryRun: true}); err != nil {
			b.Fatal(err)
		}
	}
}
