package exec

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkHashJoinSpill joins 200k probe rows with 200k build rows over
// 100k keys in memory and under limits that force one or more levels of
// partitions.
func BenchmarkHashJoinSpill(b *testing.B) {
	mem := memory.NewGoAllocator()
	left, err := Collect(context.Background(), joinSource(mem, 200000, 100000, 8192, 1, false))
	if err != nil {
		b.Fatal(err)
	}
	defer ReleaseAll(left)
	right, err := Collect(context.Background(), joinSource(mem, 200000, 100000, 8192, 2, false))
	if err != nil {
		b.Fatal(err)
	}
	defer ReleaseAll(right)
	retained := func(bs []arrow.RecordBatch) *Values {
		in := make([]arrow.RecordBatch, len(bs))
		for i, x := range bs {
			x.Retain()
			in[i] = x
		}
		return &Values{Out: joinInSch, Batches: in}
	}
	for _, limit := range []int64{0, 8 << 20, 1 << 20} {
		b.Run(fmt.Sprintf("limit=%d", limit), func(b *testing.B) {
			ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: b.TempDir()}
			before := JoinSpillFiles()
			for b.Loop() {
				j := joinCase{typ: JoinInner}.join(ec, retained(left), retained(right))
				res, err := Collect(context.Background(), j)
				j.Close()
				if err != nil {
					b.Fatal(err)
				}
				ReleaseAll(res)
			}
			b.ReportMetric(float64(JoinSpillFiles()-before)/float64(b.N), "files/op")
		})
	}
}
