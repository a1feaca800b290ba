package exec

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var (
	dec2     = &arrow.Decimal128Type{Precision: 10, Scale: 2}
	aggInSch = arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "d", Type: dec2, Nullable: true},
	}, nil)
	aggKeyK = typedCol{0, arrow.PrimitiveTypes.Int64}
	aggKeyF = typedCol{1, arrow.PrimitiveTypes.Float64}
	aggKeyS = typedCol{2, arrow.BinaryTypes.String}
	aggArgV = typedCol{3, arrow.PrimitiveTypes.Int64}
	aggArgX = typedCol{4, arrow.PrimitiveTypes.Float64}
	aggArgD = typedCol{5, dec2}
	aggArgS = typedCol{2, arrow.BinaryTypes.String}
)

// aggSource streams n rows over about `distinct` keys: NULL keys, float
// keys that are NaN, -0.0 or +0.0, NULL arguments, fractional floats
// (so any change in the order of additions shows) and decimals.
func aggSource(mem memory.Allocator, n, distinct, size int, seed uint64) RecordIterator {
	rng := rand.New(rand.NewPCG(seed, 11))
	floats := []float64{math.NaN(), math.Copysign(0, -1), 0, 1.5, -2.25}
	done := 0
	return &funcSource{schema: aggInSch, next: func() arrow.RecordBatch {
		if done >= n {
			return nil
		}
		bs := make([]array.Builder, len(aggInSch.Fields()))
		for i, f := range aggInSch.Fields() {
			bs[i] = array.NewBuilder(mem, f.Type)
			defer bs[i].Release()
		}
		for i := 0; i < size && done < n; i++ {
			k := rng.IntN(distinct)
			if k == 0 {
				bs[0].AppendNull()
			} else {
				bs[0].(*array.Int64Builder).Append(int64(k))
			}
			bs[1].(*array.Float64Builder).Append(floats[k%len(floats)])
			if k%13 == 0 {
				bs[2].AppendNull()
			} else {
				bs[2].(*array.StringBuilder).Append(fmt.Sprintf("s%d", k%(distinct/3+1)))
			}
			if rng.IntN(9) == 0 {
				bs[3].AppendNull()
				bs[4].AppendNull()
				bs[5].AppendNull()
			} else {
				bs[3].(*array.Int64Builder).Append(int64(rng.IntN(50) - 10))
				bs[4].(*array.Float64Builder).Append(rng.Float64()*100 - 30)
				bs[5].(*array.Decimal128Builder).Append(decimal128.FromI64(int64(rng.IntN(100000))))
			}
			done++
		}
		cols := make([]arrow.Array, len(bs))
		for i, b := range bs {
			cols[i] = b.NewArray()
		}
		defer ReleaseArrays(cols)
		return array.NewRecordBatch(aggInSch, cols, int64(cols[0].Len()))
	}}
}

// spillAggs covers every accumulator, DISTINCT ones included.
var spillAggs = []AggSpec{
	{Func: AggCountStar, Out: arrow.PrimitiveTypes.Int64},
	{Func: AggCount, Arg: aggArgV, Out: arrow.PrimitiveTypes.Int64},
	{Func: AggSum, Arg: aggArgV, Out: arrow.PrimitiveTypes.Int64},
	{Func: AggSum, Arg: aggArgX, Out: arrow.PrimitiveTypes.Float64},
	{Func: AggSum, Arg: aggArgD, Out: &arrow.Decimal128Type{Precision: 38, Scale: 2}},
	{Func: AggAvg, Arg: aggArgV, Out: arrow.PrimitiveTypes.Float64},
	{Func: AggAvg, Arg: aggArgX, Out: arrow.PrimitiveTypes.Float64},
	{Func: AggAvg, Arg: aggArgD, Out: &arrow.Decimal128Type{Precision: 38, Scale: 6}},
	{Func: AggMin, Arg: aggArgS, Out: arrow.BinaryTypes.String},
	{Func: AggMax, Arg: aggArgX, Out: arrow.PrimitiveTypes.Float64},
	{Func: AggMax, Arg: aggArgD, Out: dec2},
	{Func: AggCount, Arg: aggArgV, Distinct: true, Out: arrow.PrimitiveTypes.Int64},
	{Func: AggSum, Arg: aggArgX, Distinct: true, Out: arrow.PrimitiveTypes.Float64},
}

func aggOut(groups []Expr, aggs []AggSpec) *arrow.Schema {
	var fs []arrow.Field
	for i, g := range groups {
		fs = append(fs, arrow.Field{Name: fmt.Sprintf("g%d", i), Type: g.DataType(), Nullable: true})
	}
	for i, a := range aggs {
		fs = append(fs, arrow.Field{Name: fmt.Sprintf("a%d", i), Type: a.Out, Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

func sortedRows(t *testing.T, bs []arrow.RecordBatch) []string {
	t.Helper()
	rows := rowsOf(t, bs)
	slices.Sort(rows)
	return rows
}

// Spilled aggregation returns exactly the in-memory rows (as a set:
// only the order of groups differs).
func TestHashAggregateSpillMatchesInMemory(t *testing.T) {
	const rows, distinct = 16000, 1600
	groupings := []struct {
		name   string
		groups []Expr
	}{
		{"int key with NULLs", []Expr{aggKeyK}},
		{"string key (fast path)", []Expr{aggKeyS}},
		{"float key NaN and zeros, then int", []Expr{aggKeyF, aggKeyK}},
		{"float key alone", []Expr{aggKeyF}},
	}
	for _, g := range groupings {
		t.Run(g.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := context.Background()
			out := aggOut(g.groups, spillAggs)
			want, err := Collect(ctx, &HashAggregate{Input: aggSource(mem, rows, distinct, 1000, 5), Groups: g.groups, Aggs: spillAggs, Out: out, EC: &EvalContext{Mem: mem}})
			if err != nil {
				t.Fatal(err)
			}
			defer ReleaseAll(want)
			w := sortedRows(t, want)
			if len(w) < 4 {
				t.Fatalf("only %d groups", len(w))
			}
			for _, limit := range []int64{16 << 10, 128 << 10} {
				dir := t.TempDir()
				before := AggregateSpillFiles()
				h := &HashAggregate{Input: aggSource(mem, rows, distinct, 1000, 5), Groups: g.groups, Aggs: spillAggs, Out: out, EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir}}
				got, err := Collect(ctx, h)
				if err != nil {
					t.Fatal(err)
				}
				gr := sortedRows(t, got)
				ReleaseAll(got)
				if !slices.Equal(w, gr) {
					t.Fatalf("limit %d: spilled %d groups, in memory %d; first spilled %v, first in memory %v", limit, len(gr), len(w), head(gr), head(w))
				}
				if n := dirEntries(t, dir); n != 0 {
					t.Fatalf("limit %d: %d spill files left", limit, n)
				}
				// the float-only grouping has five groups and never spills
				if len(w) > 5 && (AggregateSpillFiles() == before || h.spill.passes == 0) {
					t.Fatalf("limit %d: nothing spilled; the test proves nothing", limit)
				}
			}
		})
	}
}

// A global aggregate (no groups) is one group and never spills.
func TestHashAggregateNoGroupsUnderTinyLimit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	out := aggOut(nil, spillAggs)
	want, err := Collect(ctx, &HashAggregate{Input: aggSource(mem, 5000, 300, 500, 2), Aggs: spillAggs, Out: out, EC: &EvalContext{Mem: mem}})
	if err != nil {
		t.Fatal(err)
	}
	defer ReleaseAll(want)
	dir := t.TempDir()
	got, err := Collect(ctx, &HashAggregate{Input: aggSource(mem, 5000, 300, 500, 2), Aggs: spillAggs, Out: out, EC: &EvalContext{Mem: mem, MemoryLimit: 1024, SpillDir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer ReleaseAll(got)
	if w, g := rowsOf(t, want), rowsOf(t, got); !slices.Equal(w, g) || len(g) != 1 {
		t.Fatalf("got %v, want %v", g, w)
	}
}

// mergeableAggs are the aggregates a parallel aggregation takes; the
// float argument is integral so that sums do not depend on the order
// workers add them in.
var mergeableAggs = []AggSpec{
	{Func: AggCountStar, Out: arrow.PrimitiveTypes.Int64},
	{Func: AggSum, Arg: aggArgV, Out: arrow.PrimitiveTypes.Int64},
	{Func: AggAvg, Arg: aggArgV, Out: arrow.PrimitiveTypes.Float64},
	{Func: AggSum, Arg: aggArgD, Out: &arrow.Decimal128Type{Precision: 38, Scale: 2}},
	{Func: AggAvg, Arg: aggArgD, Out: &arrow.Decimal128Type{Precision: 38, Scale: 6}},
	{Func: AggMin, Arg: aggArgS, Out: arrow.BinaryTypes.String},
	{Func: AggMax, Arg: aggArgV, Out: arrow.PrimitiveTypes.Int64},
	{Func: AggMin, Arg: aggArgD, Out: dec2},
}

func TestParallelAggregateSpillMatchesSerial(t *testing.T) {
	for _, tc := range []struct {
		name    string
		groups  []Expr
		workers int
		limit   int64
	}{
		{"int key, 4 workers", []Expr{aggKeyK}, 4, 32 << 10},
		{"string key, 2 workers", []Expr{aggKeyS}, 2, 16 << 10},
		{"two keys, 3 workers, roomier", []Expr{aggKeyF, aggKeyK}, 3, 200 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := context.Background()
			out := aggOut(tc.groups, mergeableAggs)
			want, err := Collect(ctx, &HashAggregate{Input: aggSource(mem, 30000, 3000, 1000, 9), Groups: tc.groups, Aggs: mergeableAggs, Out: out, EC: &EvalContext{Mem: mem}})
			if err != nil {
				t.Fatal(err)
			}
			defer ReleaseAll(want)
			all, err := Collect(ctx, aggSource(mem, 30000, 3000, 1000, 9))
			if err != nil {
				t.Fatal(err)
			}
			src := NewSharedSource(aggInSch, []RecordIterator{&Values{Out: aggInSch, Batches: all}}, tc.workers)
			inputs := make([]RecordIterator, tc.workers)
			for i := range inputs {
				inputs[i] = src.Handle()
			}
			dir := t.TempDir()
			par := &ParallelAggregate{Inputs: inputs, Source: src, Groups: tc.groups, Aggs: mergeableAggs, Out: out,
				EC: &EvalContext{Mem: mem, MemoryLimit: tc.limit, SpillDir: dir}}
			got, err := Collect(ctx, par)
			if err != nil {
				t.Fatal(err)
			}
			defer ReleaseAll(got)
			w, g := sortedRows(t, want), sortedRows(t, got)
			if !slices.Equal(w, g) {
				t.Fatalf("parallel %d groups, serial %d; first parallel %v, first serial %v", len(g), len(w), head(g), head(w))
			}
			if par.spill.passes == 0 {
				t.Fatal("nothing spilled; the test proves nothing")
			}
			if n := dirEntries(t, dir); n != 0 {
				t.Fatalf("%d spill files left", n)
			}
		})
	}
}

// Spill files go away on Close mid-output, on input errors and on
// cancellation, serial and parallel.
func TestAggregateSpillFilesRemoved(t *testing.T) {
	boom := errors.New("source failed")
	groups := []Expr{aggKeyK}
	out := aggOut(groups, mergeableAggs)
	const limit = 16 << 10
	tests := []struct {
		name string
		run  func(t *testing.T, ec *EvalContext) error
	}{
		{"close mid-output", func(t *testing.T, ec *EvalContext) error {
			h := &HashAggregate{Input: aggSource(ec.Mem, 20000, 4000, 500, 1), Groups: groups, Aggs: mergeableAggs, Out: out, EC: ec}
			defer h.Close()
			b, err := h.Next(context.Background())
			if err != nil {
				return err
			}
			b.Release()
			if dirEntries(t, ec.SpillDir) == 0 {
				t.Fatal("no spill files while emitting partitions")
			}
			return nil
		}},
		{"input error after spilling", func(t *testing.T, ec *EvalContext) error {
			in := &failAfter{RecordIterator: aggSource(ec.Mem, 1<<30, 1<<20, 500, 1), n: 30, err: boom}
			h := &HashAggregate{Input: in, Groups: groups, Aggs: mergeableAggs, Out: out, EC: ec}
			defer h.Close()
			before := AggregateSpillFiles()
			if _, err := h.Next(context.Background()); !errors.Is(err, boom) {
				t.Fatalf("got %v, want the input's error", err)
			}
			if AggregateSpillFiles() == before {
				t.Fatal("failed before spilling; the test proves nothing")
			}
			return nil
		}},
		{"cancel while reading partitions", func(t *testing.T, ec *EvalContext) error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h := &HashAggregate{Input: aggSource(ec.Mem, 20000, 4000, 500, 1), Groups: groups, Aggs: mergeableAggs, Out: out, EC: ec}
			defer h.Close()
			b, err := h.Next(ctx)
			if err != nil {
				return err
			}
			b.Release()
			cancel()
			if _, err := h.Next(ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			if n := dirEntries(t, ec.SpillDir); n != 0 {
				t.Fatalf("%d spill files left before Close", n)
			}
			return nil
		}},
		{"parallel worker error", func(t *testing.T, ec *EvalContext) error {
			inputs := []RecordIterator{
				aggSource(ec.Mem, 20000, 4000, 500, 1),
				&failAfter{RecordIterator: aggSource(ec.Mem, 1<<30, 1<<20, 500, 2), n: 30, err: boom},
			}
			p := &ParallelAggregate{Inputs: inputs, Groups: groups, Aggs: mergeableAggs, Out: out, EC: ec}
			defer p.Close()
			if _, err := p.Next(context.Background()); !errors.Is(err, boom) {
				t.Fatalf("got %v, want the worker's error", err)
			}
			return nil
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runSpillCleanupCase(t, func(t *testing.T, mem memory.Allocator, dir string) error {
				return tc.run(t, &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir})
			})
		})
	}
}

// A damaged partition file is reported as a spill error, not a panic,
// and every file still goes away.
func TestAggregateSpillCorruptPartition(t *testing.T) {
	for _, damage := range []struct {
		name string
		cut  func(size int64) int64
	}{
		{"truncated mid-stream", func(size int64) int64 { return size / 2 }},
		{"cut to the schema", func(int64) int64 { return 64 }},
		{"emptied", func(int64) int64 { return 0 }},
	} {
		t.Run(damage.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			dir := t.TempDir()
			groups := []Expr{aggKeyK}
			h := &HashAggregate{Input: aggSource(mem, 20000, 4000, 500, 1), Groups: groups, Aggs: mergeableAggs,
				Out: aggOut(groups, mergeableAggs), EC: &EvalContext{Mem: mem, MemoryLimit: 16 << 10, SpillDir: dir}}
			defer h.Close()
			b, err := h.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			b.Release()
			es, err := os.ReadDir(dir)
			if err != nil || len(es) == 0 {
				t.Fatalf("no partition files (%v)", err)
			}
			for _, e := range es {
				p := filepath.Join(dir, e.Name())
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(p, min(fi.Size(), damage.cut(fi.Size()))); err != nil {
					t.Fatal(err)
				}
			}
			for {
				b, err := h.Next(context.Background())
				if err != nil {
					if !errors.Is(err, ErrSpill) {
						t.Fatalf("got %v, want ErrSpill", err)
					}
					break
				}
				if b == nil {
					t.Fatal("damaged partitions read without error")
				}
				b.Release()
			}
			if n := dirEntries(t, dir); n != 0 {
				t.Fatalf("%d spill files left", n)
			}
		})
	}
}
