package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var strKeySchema = arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)

// strKeyBatches makes batches of string keys: NULLs, empty strings,
// keys of equal length, many distinct values, and arrays that are
// slices of larger ones (a non-zero offset). keys[i] == nil is NULL.
func strKeyBatches(mem memory.Allocator, n, distinct int, seed uint64) ([]arrow.RecordBatch, []*string) {
	rng := rand.New(rand.NewPCG(seed, 3))
	var out []arrow.RecordBatch
	var keys []*string
	for done := 0; done < n; {
		rows := min(1+rng.IntN(3000), n-done)
		pad := rng.IntN(3) // rows before and after the slice taken
		b := array.NewStringBuilder(mem)
		for i := range rows + 2*pad {
			inSlice := i >= pad && i < pad+rows
			switch k := rng.IntN(distinct); {
			case k == 0:
				b.AppendNull()
				if inSlice {
					keys = append(keys, nil)
				}
			case k == 1:
				b.Append("")
				if inSlice {
					keys = append(keys, new(string))
				}
			default:
				s := fmt.Sprintf("k%07d", k) // one length: tags decide
				if k%5 == 0 {
					s = fmt.Sprintf("long key number %d %x", k, k*7919)
				}
				b.Append(s)
				if inSlice {
					keys = append(keys, &s)
				}
			}
		}
		full := b.NewArray()
		b.Release()
		a := array.NewSlice(full, int64(pad), int64(pad+rows))
		full.Release()
		out = append(out, array.NewRecordBatch(strKeySchema, []arrow.Array{a}, int64(rows)))
		a.Release()
		done += rows
	}
	return out, keys
}

// wantStrCounts is the reference: "key=count" per group, first
// appearance first.
func wantStrCounts(keys []*string) []string {
	counts := map[string]int{}
	var order []string
	for _, k := range keys {
		s := "NULL"
		if k != nil {
			s = fmt.Sprintf("%q", *k)
		}
		if counts[s] == 0 {
			order = append(order, s)
		}
		counts[s]++
	}
	out := make([]string, len(order))
	for i, s := range order {
		out[i] = fmt.Sprintf("%s=%d", s, counts[s])
	}
	return out
}

func gotStrCounts(t *testing.T, bs []arrow.RecordBatch) []string {
	t.Helper()
	var out []string
	for _, b := range bs {
		k, c := b.Column(0).(*array.String), b.Column(1).(*array.Int64)
		for i := range int(b.NumRows()) {
			s := "NULL"
			if k.IsValid(i) {
				s = fmt.Sprintf("%q", k.Value(i))
			}
			out = append(out, fmt.Sprintf("%s=%d", s, c.Value(i)))
		}
	}
	return out
}

var strCountOut = arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "c", Type: arrow.PrimitiveTypes.Int64}}, nil)

var countStarOnly = []AggSpec{{Func: AggCountStar, Out: arrow.PrimitiveTypes.Int64}}

// The string layout groups like a map would, in first-appearance order,
// serially, in parallel and when spilling under a tiny memory limit.
func TestGroupByStringMatchesReference(t *testing.T) {
	// 150000 keys: the workers' tables are large enough to be merged by
	// probing on several goroutines
	for _, distinct := range []int{2, 40, 30000, 150000} {
		t.Run(fmt.Sprintf("distinct=%d", distinct), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := context.Background()
			rows := max(60000, 3*distinct)
			bs, keys := strKeyBatches(mem, rows, distinct, uint64(distinct))
			defer ReleaseAll(bs)
			want := wantStrCounts(keys)
			key := typedCol{0, arrow.BinaryTypes.String}
			run := func(op RecordIterator) []string {
				res, err := Collect(ctx, op)
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(res)
				return gotStrCounts(t, res)
			}
			in := func(parts int) []RecordIterator {
				its := make([]RecordIterator, parts)
				for i := range its {
					var mine []arrow.RecordBatch
					for j, b := range bs {
						if j%parts == i {
							b.Retain()
							mine = append(mine, b)
						}
					}
					its[i] = &Values{Out: strKeySchema, Batches: mine}
				}
				return its
			}
			serial := run(&HashAggregate{Input: in(1)[0], Groups: []Expr{key}, Aggs: countStarOnly, Out: strCountOut, EC: &EvalContext{Mem: mem}})
			if !slices.Equal(serial, want) {
				t.Fatalf("serial: %d groups, want %d; first %v, want %v", len(serial), len(want), head(serial), head(want))
			}
			slices.Sort(want)
			par := run(&ParallelAggregate{Inputs: in(3), Groups: []Expr{key}, Aggs: countStarOnly, Out: strCountOut, EC: &EvalContext{Mem: mem}})
			slices.Sort(par)
			if !slices.Equal(par, want) {
				t.Fatalf("parallel: %d groups, want %d; first %v, want %v", len(par), len(want), head(par), head(want))
			}
			for _, workers := range []int{1, 2} {
				if distinct > 30000 {
					break // slow to spill that many groups under 8 KiB
				}
				dir := t.TempDir()
				ec := &EvalContext{Mem: mem, MemoryLimit: 8 << 10, SpillDir: dir}
				before := AggregateSpillFiles()
				var op RecordIterator
				if workers == 1 {
					op = &HashAggregate{Input: in(1)[0], Groups: []Expr{key}, Aggs: countStarOnly, Out: strCountOut, EC: ec}
				} else {
					op = &ParallelAggregate{Inputs: in(workers), Groups: []Expr{key}, Aggs: countStarOnly, Out: strCountOut, EC: ec}
				}
				got := run(op)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("spilled, %d workers: %d groups, want %d; first %v, want %v", workers, len(got), len(want), head(got), head(want))
				}
				if distinct > 100 && AggregateSpillFiles() == before {
					t.Fatal("nothing spilled; the test proves nothing")
				}
				if n := dirEntries(t, dir); n != 0 {
					t.Fatalf("%d spill files left", n)
				}
			}
		})
	}
}

// largeEvery hands every third batch's key over as a LargeString array,
// which moves a string layout table to the general one mid-input.
type largeEvery struct{ n *int }

func (e largeEvery) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e largeEvery) Eval(ec *EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	*e.n++
	a := b.Column(0).(*array.String)
	if *e.n%3 != 0 {
		a.Retain()
		return a, nil
	}
	lb := array.NewLargeStringBuilder(ec.Mem)
	defer lb.Release()
	for i := range a.Len() {
		if a.IsNull(i) {
			lb.AppendNull()
		} else {
			lb.Append(a.Value(i))
		}
	}
	return lb.NewArray(), nil
}

func TestGroupByStringChangesLayout(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	bs, keys := strKeyBatches(mem, 20000, 500, 7)
	defer ReleaseAll(bs)
	want := wantStrCounts(keys)
	for _, b := range bs {
		b.Retain()
	}
	calls := 0
	res, err := Collect(ctx, &HashAggregate{Input: &Values{Out: strKeySchema, Batches: slices.Clone(bs)}, Groups: []Expr{largeEvery{&calls}},
		Aggs: countStarOnly, Out: strCountOut, EC: &EvalContext{Mem: mem}})
	if err != nil {
		t.Fatal(err)
	}
	defer ReleaseAll(res)
	if got := gotStrCounts(t, res); !slices.Equal(got, want) {
		t.Fatalf("%d groups, want %d; first %v, want %v", len(got), len(want), head(got), head(want))
	}
}
