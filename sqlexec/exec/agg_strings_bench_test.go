package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var strAmountSchema = arrow.NewSchema([]arrow.Field{
	{Name: "user_id", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// userBatches makes n rows in batches of 8192 of a key like
// 'user-012345' drawn from `distinct` values (the duckcompare events
// table's shape) and an amount.
func userBatches(mem memory.Allocator, n, distinct int) []arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(distinct)))
	var out []arrow.RecordBatch
	for done := 0; done < n; {
		sb, fb := array.NewStringBuilder(mem), array.NewFloat64Builder(mem)
		rows := min(8192, n-done)
		for range rows {
			sb.Append(fmt.Sprintf("user-%06d", rng.IntN(distinct)))
			fb.Append(rng.Float64())
		}
		s, f := sb.NewArray(), fb.NewArray()
		out = append(out, array.NewRecordBatch(strAmountSchema, []arrow.Array{s, f}, int64(rows)))
		s.Release()
		f.Release()
		sb.Release()
		fb.Release()
		done += rows
	}
	return out
}

// retained hands out new references to bs, split round-robin over
// `parts` inputs.
func retained(bs []arrow.RecordBatch, parts int) []RecordIterator {
	in := make([][]arrow.RecordBatch, parts)
	for i, b := range bs {
		b.Retain()
		in[i%parts] = append(in[i%parts], b)
	}
	its := make([]RecordIterator, parts)
	for i := range its {
		its[i] = &Values{Out: strAmountSchema, Batches: in[i]}
	}
	return its
}

// BenchmarkGroupByString groups 2M rows by a string key, serially and
// with two workers, with many groups (500k, as the 10M-row table's users,
// and 100k) and with few (3, as its actions).
func BenchmarkGroupByString(b *testing.B) {
	mem := memory.NewGoAllocator()
	key := typedCol{0, arrow.BinaryTypes.String}
	aggs := []AggSpec{{Func: AggCountStar, Out: arrow.PrimitiveTypes.Int64},
		{Func: AggSum, Arg: typedCol{1, arrow.PrimitiveTypes.Float64}, Out: arrow.PrimitiveTypes.Float64}}
	out := arrow.NewSchema([]arrow.Field{{Name: "user_id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	for _, distinct := range []int{500000, 100000, 3} {
		bs := userBatches(mem, 2_000_000, distinct)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("groups=%d/workers=%d", distinct, workers), func(b *testing.B) {
				ec := &EvalContext{Mem: mem}
				for b.Loop() {
					var op RecordIterator
					if workers == 1 {
						op = &HashAggregate{Input: retained(bs, 1)[0], Groups: []Expr{key}, Aggs: aggs, Out: out, EC: ec}
					} else {
						op = &ParallelAggregate{Inputs: retained(bs, workers), Groups: []Expr{key}, Aggs: aggs, Out: out, EC: ec}
					}
					res, err := Collect(context.Background(), op)
					if err != nil {
						b.Fatal(err)
					}
					ReleaseAll(res)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/2e6, "ns/row")
			})
		}
		ReleaseAll(bs)
	}
}
