package exec

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TopN must return what a stable Sort and a Limit return.
func TestTopNMatchesSortLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var vals []any
	for i := 0; i < 3000; i++ {
		if i%17 == 0 {
			vals = append(vals, nil)
		} else {
			vals = append(vals, rng.IntN(50))
		}
	}
	keys := map[string]SortKey{
		"asc":              {Expr: col(0)},
		"desc nulls first": {Expr: col(0), Desc: true, NullsFirst: true},
	}
	for name, key := range keys {
		for _, n := range []int64{0, 1, 7, 100, 2999, 5000} {
			t.Run(fmt.Sprintf("%s-n=%d", name, n), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ec := &EvalContext{Mem: mem}
				input := func() *Values {
					v := &Values{Out: intSchema}
					for lo := 0; lo < len(vals); lo += 256 {
						v.Batches = append(v.Batches, ints(mem, vals[lo:min(len(vals), lo+256)]...))
					}
					return v
				}
				// a second column numbers the rows, so stability shows
				numbered := func() RecordIterator {
					out := arrow.NewSchema(append(intSchema.Fields(), intSchema.Fields()...), nil)
					return &Project{Input: &Occurrence{Input: input(), Out: out, EC: ec}, Exprs: []Expr{col(0), col(1)}, Out: out, EC: ec}
				}
				want, err := Collect(context.Background(), &Limit{Input: &Sort{Input: numbered(), Keys: []SortKey{key}, EC: ec}, Count: n})
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(want)
				got, err := Collect(context.Background(), &TopN{Input: numbered(), Keys: []SortKey{key}, N: n, EC: ec})
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(got)
				g, w := rowsOf(t, got), rowsOf(t, want)
				if fmt.Sprint(g) != fmt.Sprint(w) {
					t.Fatalf("TopN %d rows, Sort+Limit %d rows; first differ: %v vs %v", len(g), len(w), head(g), head(w))
				}
			})
		}
	}
}

func head(s []string) []string { return s[:min(len(s), 10)] }

func TestTopNHoldsAboutNRows(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	mem := &peakAllocator{Allocator: checked}
	ec := &EvalContext{Mem: mem}
	// 1M descending rows: every batch improves on the kept rows
	top := &TopN{Input: seqDesc(mem, 1<<20, 1024), Keys: []SortKey{{Expr: col(0)}}, N: 10, EC: ec}
	bs, err := Collect(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	defer ReleaseAll(bs)
	if got := rowsOf(t, bs); fmt.Sprint(got) != "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9,]" {
		t.Fatalf("got %v", got)
	}
	if p := mem.Peak(); p > 2<<20 {
		t.Fatalf("peak %d bytes for 10 of 8 MB of rows", p)
	}
}

// seqDesc streams n-1..0 in batches of size rows without holding them.
func seqDesc(mem memory.Allocator, n, size int) RecordIterator {
	next := n
	return &funcSource{schema: intSchema, next: func() arrow.RecordBatch {
		if next == 0 {
			return nil
		}
		var vals []any
		for i := 0; i < size && next > 0; i++ {
			next--
			vals = append(vals, next)
		}
		return ints(mem, vals...)
	}}
}

type funcSource struct {
	schema *arrow.Schema
	next   func() arrow.RecordBatch
}

func (f *funcSource) Schema() *arrow.Schema { return f.schema }
func (f *funcSource) Close()                {}
func (f *funcSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return f.next(), nil
}

// TopN over float keys with NaN, signed zeros, NULLs and ties, and over
// two keys, must return what a stable Sort and a Limit return: the
// first-key test that skips rows must order values as the comparison
// does.
func TestTopNFloatKeysMatchSortLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}
	batch := func(mem memory.Allocator, lo, n int) arrow.RecordBatch {
		fb, ib := array.NewFloat64Builder(mem), array.NewInt64Builder(mem)
		defer fb.Release()
		defer ib.Release()
		for i := lo; i < lo+n; i++ {
			switch {
			case i%23 == 0:
				fb.AppendNull()
			case i%11 == 0:
				fb.Append(specials[i%len(specials)])
			default:
				fb.Append(float64(rng.IntN(40)) / 4)
			}
			if i%13 == 0 {
				ib.AppendNull()
			} else {
				ib.Append(int64(rng.IntN(5)))
			}
		}
		f, in := fb.NewArray(), ib.NewArray()
		defer f.Release()
		defer in.Release()
		return array.NewRecordBatch(schema, []arrow.Array{f, in}, int64(n))
	}
	keys := map[string][]SortKey{
		"asc":                  {{Expr: col(0)}},
		"desc":                 {{Expr: col(0), Desc: true}},
		"desc nulls first":     {{Expr: col(0), Desc: true, NullsFirst: true}},
		"asc nulls first, int": {{Expr: col(0), NullsFirst: true}, {Expr: col(1), Desc: true}},
		"desc, int asc":        {{Expr: col(0), Desc: true}, {Expr: col(1)}},
	}
	for name, key := range keys {
		for _, n := range []int64{1, 3, 10, 250} {
			t.Run(fmt.Sprintf("%s-n=%d", name, n), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ec := &EvalContext{Mem: mem}
				input := func() *Values {
					rng = rand.New(rand.NewPCG(3, 4))
					v := &Values{Out: schema}
					for lo := 0; lo < 5000; lo += 300 {
						v.Batches = append(v.Batches, batch(mem, lo, min(300, 5000-lo)))
					}
					return v
				}
				want, err := Collect(context.Background(), &Limit{Input: &Sort{Input: input(), Keys: key, EC: ec}, Count: n})
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(want)
				got, err := Collect(context.Background(), &TopN{Input: input(), Keys: key, N: n, EC: ec})
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(got)
				g, w := rowsOf(t, got), rowsOf(t, want)
				if fmt.Sprint(g) != fmt.Sprint(w) {
					t.Fatalf("TopN %d rows, Sort+Limit %d rows; first differ:\n%v\n%v", len(g), len(w), head(g), head(w))
				}
			})
		}
	}
}
