package exec

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The top-N reduction of a row-limited window must number the same rows
// as the window's own paths (ties by input position), for NULL and float
// partition keys (NaN, -0 and +0), NULL and tied ORDER BY keys, DESC and
// NULLS FIRST, several keys, one or two workers, and under a memory
// limit that stops it half way. Its partitions come in another order, so
// rows are compared sorted.
func TestWindowTopNMatchesWindow(t *testing.T) {
	rowNumber := WindowCall{Func: WinRowNumber, Out: arrow.PrimitiveTypes.Int64}
	cases := []struct {
		name  string
		part  []Expr
		order []SortKey
	}{
		{"int key, v asc", []Expr{aggKeyK}, []SortKey{{Expr: aggArgV}}},
		{"string key, v desc nulls first, x", []Expr{aggKeyS}, []SortKey{{Expr: aggArgV, Desc: true, NullsFirst: true}, {Expr: aggArgX}}},
		{"float key, decimal then v desc", []Expr{aggKeyF}, []SortKey{{Expr: aggArgD}, {Expr: aggArgV, Desc: true}}},
		{"string and int keys, string order nulls first", []Expr{aggKeyS, aggKeyK}, []SortKey{{Expr: aggArgS, NullsFirst: true}}},
		{"int key, no order", []Expr{aggKeyK}, nil},
	}
	defer func(v int) { windowTopN, windowTopNSlack = true, v }(windowTopNSlack)
	for _, tc := range cases {
		for _, rows := range []int{0, 5000} {
			for _, k := range []int64{1, 3} {
				for _, workers := range []int{1, 2} {
					for _, limit := range []int64{0, 1, 24 << 10} {
						name := fmt.Sprintf("%s/rows=%d/k=%d/workers=%d/limit=%d", tc.name, rows, k, workers, limit)
						t.Run(name, func(t *testing.T) {
							// 1: no memory limit, displaced rows re-copied at every batch
							windowTopNSlack = 1 << 16
							if limit == 1 {
								limit, windowTopNSlack = 0, 0
							}
							calls := []WindowCall{rowNumber, rowNumber}
							run := func(topN bool) []string {
								windowTopN = topN
								mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
								defer mem.AssertSize(t, 0)
								w := &Window{Input: aggSource(mem, rows, 700, 300, 5), Partition: tc.part, Order: tc.order, RowLimit: k,
									Calls: calls, Out: windowOut(aggInSch, calls), EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: t.TempDir(), Workers: workers}}
								if topN != w.useTopN() {
									t.Fatalf("useTopN = %v", w.useTopN())
								}
								bs, err := Collect(context.Background(), w)
								if err != nil {
									t.Fatal(err)
								}
								defer ReleaseAll(bs)
								out := rowsOf(t, bs)
								slices.Sort(out)
								return out
							}
							want, got := run(false), run(true)
							if (rows > 0) != (len(want) > 0) || !slices.Equal(got, want) {
								t.Fatalf("%d rows, want %d; heads %v vs %v", len(got), len(want), head(got), head(want))
							}
						})
					}
				}
			}
		}
	}
}

// A reduced window closed before it is read, or cancelled, leaks nothing.
func TestWindowTopNCancel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	calls := []WindowCall{{Func: WinRowNumber, Out: arrow.PrimitiveTypes.Int64}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := &Window{Input: aggSource(mem, 3000, 50, 100, 1), Partition: []Expr{aggKeyS}, Order: []SortKey{{Expr: aggArgV}}, RowLimit: 1,
		Calls: calls, Out: windowOut(aggInSch, calls), EC: &EvalContext{Mem: mem, Workers: 2}}
	if _, err := w.Next(ctx); err == nil {
		t.Fatal("no error from a cancelled context")
	}
	w.Close()
}
