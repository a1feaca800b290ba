package exec

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// mapStep is a recursive term mapping each working row k to the rows f(k).
func mapStep(mem memory.Allocator, f func(int64) []int64) func([]arrow.RecordBatch) (RecordIterator, error) {
	return func(work []arrow.RecordBatch) (RecordIterator, error) {
		var vals []any
		for _, b := range work {
			c := b.Column(0).(*array.Int64)
			for i := 0; i < c.Len(); i++ {
				for _, v := range f(c.Value(i)) {
					vals = append(vals, int(v))
				}
			}
		}
		return &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, vals...)}}, nil
	}
}

func TestRecursiveUnion(t *testing.T) {
	countTo := func(n int64) func(int64) []int64 {
		return func(k int64) []int64 {
			if k < n {
				return []int64{k + 1}
			}
			return nil
		}
	}
	cycle := func(k int64) []int64 { return []int64{(k + 1) % 3} }
	double := func(k int64) []int64 { return []int64{2 * k, 2*k + 1} }
	tests := []struct {
		name     string
		anchor   []any
		step     func(int64) []int64
		distinct bool
		max      int
		memLimit int64
		want     []string
		bound    string // the RecursionLimitError expected, if any
	}{
		{name: "count", anchor: []any{1}, step: countTo(5), want: []string{"1,", "2,", "3,", "4,", "5,"}},
		{name: "two seeds", anchor: []any{1, 3}, step: countTo(4), want: []string{"1,", "3,", "2,", "4,", "3,", "4,"}},
		{name: "union drops seen rows", anchor: []any{1, 3}, step: countTo(4), distinct: true, want: []string{"1,", "3,", "2,", "4,"}},
		{name: "union ends a cycle", anchor: []any{0}, step: cycle, distinct: true, want: []string{"0,", "1,", "2,"}},
		{name: "union dedups the anchor, NULLs equal", anchor: []any{nil, nil, 1, 1}, step: countTo(0), distinct: true, want: []string{"NULL,", "1,"}},
		{name: "empty anchor", anchor: nil, step: cycle, want: nil},
		{name: "exactly max steps", anchor: []any{1}, step: countTo(4), max: 3, want: []string{"1,", "2,", "3,", "4,"}},
		{name: "one step too many", anchor: []any{1}, step: countTo(5), max: 3, bound: "iterations"},
		{name: "cycle under union all", anchor: []any{0}, step: cycle, max: 50, bound: "iterations"},
		{name: "memory", anchor: []any{1}, step: double, memLimit: 64 << 10, bound: "memory"},
		{name: "memory of seen rows", anchor: []any{1}, step: countTo(1 << 40), distinct: true, memLimit: 64 << 10, bound: "memory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ec := &EvalContext{Mem: mem, MemoryLimit: tc.memLimit}
			r := &RecursiveUnion{Name: "r", Anchor: &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, tc.anchor...)}},
				Step: mapStep(mem, tc.step), Distinct: tc.distinct, MaxIterations: tc.max, Out: intSchema, EC: ec}
			bs, err := Collect(context.Background(), r)
			defer ReleaseAll(bs)
			if tc.bound != "" {
				var le *RecursionLimitError
				if !errors.As(err, &le) || !errors.Is(err, ErrRecursionLimit) || le.Bound != tc.bound || le.CTE != "r" {
					t.Fatalf("err = %v, want a %s RecursionLimitError", err, tc.bound)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := rowsOf(t, bs); !slices.Equal(got, tc.want) {
				t.Errorf("rows %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRecursiveUnionCancellation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &RecursiveUnion{Name: "r", Anchor: &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, 1)}},
		Step: mapStep(mem, func(k int64) []int64 { return []int64{k + 1} }), Out: intSchema, EC: &EvalContext{Mem: mem}}
	defer r.Close()
	for i := 0; i < 5; i++ {
		b, err := r.Next(ctx)
		if err != nil || b == nil {
			t.Fatalf("step %d: %v, %v", i, b, err)
		}
		b.Release()
	}
	cancel()
	if _, err := r.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestRecursiveUnionStepErrorAndEarlyClose(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	boom := errors.New("boom")
	r := &RecursiveUnion{Name: "r", Anchor: &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, 1)}},
		Step: func([]arrow.RecordBatch) (RecordIterator, error) { return nil, boom }, Out: intSchema, EC: &EvalContext{Mem: mem}}
	if _, err := Collect(context.Background(), r); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the step's", err)
	}
	// closed before reading: the anchor's batches are released
	r = &RecursiveUnion{Name: "r", Anchor: &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, 1, 2)}},
		Step: mapStep(mem, func(int64) []int64 { return nil }), Out: intSchema, EC: &EvalContext{Mem: mem}}
	r.Close()
	r.Close()
}

func TestRecursiveUnionSchemaMismatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	strSchema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	r := &RecursiveUnion{Name: "r", Anchor: &Values{Out: intSchema, Batches: []arrow.RecordBatch{ints(mem, 1)}},
		Step: mapStep(mem, func(int64) []int64 { return nil }), Out: strSchema, EC: &EvalContext{Mem: mem}}
	if _, err := Collect(context.Background(), r); !errors.Is(err, ErrBatchMismatch) {
		t.Fatalf("err = %v, want ErrBatchMismatch", err)
	}
}
