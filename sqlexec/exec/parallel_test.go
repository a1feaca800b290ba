package exec

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var pairSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// pairBatches makes n batches of (k, v) rows with NULL keys and values.
func pairBatches(mem memory.Allocator, n, rows int) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for b := 0; b < n; b++ {
		kb, vb := array.NewInt64Builder(mem), array.NewInt64Builder(mem)
		for r := 0; r < rows; r++ {
			i := b*rows + r
			if i%11 == 0 {
				kb.AppendNull()
			} else {
				kb.Append(int64(i % 7))
			}
			if i%5 == 0 {
				vb.AppendNull()
			} else {
				vb.Append(int64(i))
			}
		}
		k, v := kb.NewArray(), vb.NewArray()
		out = append(out, array.NewRecordBatch(pairSchema, []arrow.Array{k, v}, int64(rows)))
		k.Release()
		v.Release()
		kb.Release()
		vb.Release()
	}
	return out
}

var pairAggs = []AggSpec{
	{Func: AggCountStar, Out: arrow.PrimitiveTypes.Int64},
	{Func: AggCount, Arg: col(1), Out: arrow.PrimitiveTypes.Int64},
	{Func: AggSum, Arg: col(1), Out: arrow.PrimitiveTypes.Int64},
	{Func: AggMin, Arg: col(1), Out: arrow.PrimitiveTypes.Int64},
	{Func: AggMax, Arg: col(1), Out: arrow.PrimitiveTypes.Int64},
	{Func: AggAvg, Arg: col(1), Out: arrow.PrimitiveTypes.Float64},
}

var pairOut = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "n", Type: arrow.PrimitiveTypes.Int64}, {Name: "c", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "lo", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "hi", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "a", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

func TestParallelAggregateMatchesSerial(t *testing.T) {
	for _, tc := range []struct {
		name           string
		parts, workers int
	}{
		{"one part shared by 3 workers", 1, 3},
		{"parts owned by workers", 8, 2},
		{"more workers than batches", 2, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ec := &EvalContext{Mem: mem}
			serial := &HashAggregate{Input: &Values{Out: pairSchema, Batches: pairBatches(mem, 8, 100)}, Groups: []Expr{col(0)}, Aggs: pairAggs, Out: pairOut, EC: ec}
			want, err := Collect(context.Background(), serial)
			if err != nil {
				t.Fatal(err)
			}
			defer ReleaseAll(want)
			all := pairBatches(mem, 8, 100)
			parts := make([]RecordIterator, tc.parts)
			for i := range parts {
				var bs []arrow.RecordBatch
				for j := i; j < len(all); j += tc.parts {
					bs = append(bs, all[j])
				}
				parts[i] = &Values{Out: pairSchema, Batches: bs}
			}
			src := NewSharedSource(pairSchema, parts, tc.workers)
			inputs := make([]RecordIterator, tc.workers)
			for i := range inputs {
				inputs[i] = src.Handle()
			}
			par := &ParallelAggregate{Inputs: inputs, Source: src, Groups: []Expr{col(0)}, Aggs: pairAggs, Out: pairOut, EC: ec}
			got, err := Collect(context.Background(), par)
			if err != nil {
				t.Fatal(err)
			}
			defer ReleaseAll(got)
			w, g := rowsOf(t, want), rowsOf(t, got)
			slices.Sort(w)
			slices.Sort(g)
			if !slices.Equal(w, g) || len(w) != 8 {
				t.Fatalf("parallel rows %v\nserial rows %v", g, w)
			}
		})
	}
}

func TestParallelAggregateCancellation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src := &endless{b: ints(mem, 1, 2, 3)}
	defer src.b.Release()
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	calls := 0
	counting := &hook{RecordIterator: src, f: func() {
		mu.Lock()
		defer mu.Unlock()
		if calls++; calls == 100 {
			cancel()
		}
	}}
	shared := NewSharedSource(intSchema, []RecordIterator{counting}, 2)
	out := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	agg := &ParallelAggregate{Inputs: []RecordIterator{shared.Handle(), shared.Handle()}, Source: shared,
		Aggs: []AggSpec{{Func: AggCountStar, Out: arrow.PrimitiveTypes.Int64}}, Out: out, EC: &EvalContext{Mem: mem}}
	_, err := Collect(ctx, agg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// failing yields one batch then an error.
type failing struct {
	b    arrow.RecordBatch
	sent bool
}

var errBoom = errors.New("boom")

func (f *failing) Schema() *arrow.Schema { return intSchema }
func (f *failing) Next(context.Context) (arrow.RecordBatch, error) {
	if f.sent {
		return nil, errBoom
	}
	f.sent = true
	f.b.Retain()
	return f.b, nil
}
func (f *failing) Close() {}

func TestParallelAggregateWorkerErrorWins(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	bad := &failing{b: ints(mem, 1)}
	defer bad.b.Release()
	good := &endless{b: ints(mem, 1, 2)}
	defer good.b.Release()
	out := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	agg := &ParallelAggregate{Inputs: []RecordIterator{bad, good}, Aggs: []AggSpec{{Func: AggCountStar, Out: arrow.PrimitiveTypes.Int64}}, Out: out, EC: &EvalContext{Mem: mem}}
	_, err := Collect(context.Background(), agg)
	if !errors.Is(err, errBoom) {
		t.Fatalf("err = %v, want the worker's error", err)
	}
}

func TestParallelAggregateRejectsDistinct(t *testing.T) {
	agg := &ParallelAggregate{Aggs: []AggSpec{{Func: AggCount, Arg: col(0), Distinct: true, Out: arrow.PrimitiveTypes.Int64}}, EC: &EvalContext{Mem: memory.NewGoAllocator()}}
	if _, err := agg.Next(context.Background()); !errors.Is(err, errNotMergeable) {
		t.Fatalf("err = %v", err)
	}
}
