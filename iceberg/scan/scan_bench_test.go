package scan

import (
	"context"
	"testing"

	"github.com/icesql/icesql/iceberg/expr"
)

// BenchmarkPointPlan plans `id = ?` over 20 manifests of 50 files, the
// planning half of a point read, with and without a manifest cache.
func BenchmarkPointPlan(b *testing.B) {
	tb := newTable(b, nil)
	snap := manyManifests(b, tb, 20, 50)
	for _, bc := range []struct {
		name  string
		cache *ManifestCache
	}{{"no-cache", nil}, {"cache", NewManifestCache(0)}} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			filter := expr.Eq("id", 7_123)
			b.ReportAllocs()
			for b.Loop() {
				tasks, _, err := Plan(ctx, tb.open, tb.meta, snap, filter, Options{Cache: bc.cache})
				if err != nil || len(tasks) != 1 {
					b.Fatalf("planned %d tasks, err %v", len(tasks), err)
				}
			}
		})
	}
}
