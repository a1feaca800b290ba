package exec

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// benchPairs is 1M rows of (k: 1000 partitions, v) in 64K-row batches.
func benchPairs(n int) []arrow.RecordBatch {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	var out []arrow.RecordBatch
	for lo := 0; lo < n; lo += 1 << 16 {
		kb, vb := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
		for i := lo; i < min(n, lo+1<<16); i++ {
			kb.Append(int64(i*7919) % 1000)
			vb.Append(int64(i*104729) % 100003)
		}
		k, v := kb.NewArray(), vb.NewArray()
		out = append(out, array.NewRecordBatch(s, []arrow.Array{k, v}, int64(k.Len())))
		k.Release()
		v.Release()
		kb.Release()
		vb.Release()
	}
	return out
}

func BenchmarkWindow1M(b *testing.B) {
	batches := benchPairs(1 << 20)
	defer ReleaseAll(batches)
	i64 := arrow.PrimitiveTypes.Int64
	sliding := WindowFrame{Rows: true, Start: FrameBound{Kind: BoundPreceding, Offset: 10}, End: FrameBound{Kind: BoundFollowing, Offset: 10}}
	// v spreads over 100003 values, so ±1000 holds about 2% of a partition.
	byValue := WindowFrame{Start: FrameBound{Kind: BoundPreceding, Range: RangeOffset{Int: 1000}}, End: FrameBound{Kind: BoundFollowing, Range: RangeOffset{Int: 1000}}}
	cases := []struct {
		name string
		call WindowCall
	}{
		{"row_number", WindowCall{Func: WinRowNumber, Out: i64}},
		{"rank", WindowCall{Func: WinRank, Out: i64}},
		{"lag", WindowCall{Func: WinLag, N: 1, Args: []Expr{col(1)}, Out: i64}},
		{"running_sum", WindowCall{Func: WinAggregate, Agg: AggSum, Args: []Expr{col(1)}, Frame: DefaultFrame, Out: i64}},
		{"sliding_sum_rows21", WindowCall{Func: WinAggregate, Agg: AggSum, Args: []Expr{col(1)}, Frame: sliding, Out: i64}},
		{"sliding_max_rows21", WindowCall{Func: WinAggregate, Agg: AggMax, Args: []Expr{col(1)}, Frame: sliding, Out: i64}},
		{"sliding_sum_range1000", WindowCall{Func: WinAggregate, Agg: AggSum, Args: []Expr{col(1)}, Frame: byValue, Out: i64}},
		{"sliding_max_range1000", WindowCall{Func: WinAggregate, Agg: AggMax, Args: []Expr{col(1)}, Frame: byValue, Out: i64}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, x := range batches {
					x.Retain()
				}
				calls := []WindowCall{c.call}
				src := &Values{Out: batches[0].Schema(), Batches: slices.Clone(batches)}
				w := &Window{Input: src, Partition: []Expr{col(0)}, Order: []SortKey{{Expr: col(1)}}, Calls: calls,
					Out: windowOut(src.Out, calls), EC: &EvalContext{Mem: memory.DefaultAllocator}}
				out, err := Collect(context.Background(), w)
				if err != nil {
					b.Fatal(err)
				}
				ReleaseAll(out)
			}
			b.ReportMetric(float64(1<<20), "rows/op")
		})
	}
}
