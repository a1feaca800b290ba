package exec

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkHashAggregateSpill groups 400k rows by 100k keys in memory
// and under limits that force one or more levels of partitions.
func BenchmarkHashAggregateSpill(b *testing.B) {
	mem := memory.NewGoAllocator()
	batches, err := Collect(context.Background(), aggSource(mem, 400000, 100000, 8192, 1))
	if err != nil {
		b.Fatal(err)
	}
	defer ReleaseAll(batches)
	groups := []Expr{aggKeyK}
	out := aggOut(groups, mergeableAggs)
	for _, limit := range []int64{0, 8 << 20, 1 << 20} {
		b.Run(fmt.Sprintf("limit=%d", limit), func(b *testing.B) {
			ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: b.TempDir()}
			before := AggregateSpillFiles()
			for b.Loop() {
				in := make([]arrow.RecordBatch, len(batches))
				for i, x := range batches {
					x.Retain()
					in[i] = x
				}
				h := &HashAggregate{Input: &Values{Out: aggInSch, Batches: in}, Groups: groups, Aggs: mergeableAggs, Out: out, EC: ec}
				res, err := Collect(context.Background(), h)
				if err != nil {
					b.Fatal(err)
				}
				ReleaseAll(res)
			}
			b.ReportMetric(float64(AggregateSpillFiles()-before)/float64(b.N), "files/op")
		})
	}
}
