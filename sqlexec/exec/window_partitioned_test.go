package exec

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The partitioned path (hash-numbered partitions in range buckets, on
// several workers) returns the rows, in the order, of the streaming path
// over a spilled sort.
func TestWindowPartitionedMatchesStreaming(t *testing.T) {
	calls := streamCalls()
	out := windowOut(aggInSch, calls)
	order := []SortKey{{Expr: aggArgV}, {Expr: aggArgX, Desc: true}}
	tests := []struct {
		name      string
		partition []Expr
		distinct  int
	}{
		{"integer key with NULLs", []Expr{aggKeyK}, 600},
		{"few partitions", []Expr{aggKeyK}, 3},
		{"two keys with NaN and zeros", []Expr{aggKeyF, aggKeyS}, 200},
		{"string key", []Expr{aggKeyS}, 900},
	}
	const rows = 5000
	defer func(v int) { windowBucketMinRows = v }(windowBucketMinRows)
	defer func() { windowRangeSpill = true }()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			run := func(limit int64, workers int) []string {
				w := &Window{Input: aggSource(mem, rows, tc.distinct, 300, 5), Partition: tc.partition, Order: order,
					Calls: calls, Out: out, EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: t.TempDir(), Workers: workers}}
				bs, err := Collect(context.Background(), w)
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(bs)
				return rowsOf(t, bs)
			}
			windowRangeSpill = false
			want := run(16<<10, 1) // past the budget: the streaming path
			windowRangeSpill = true
			if got := run(16<<10, 2); !slices.Equal(got, want) { // past the budget: range files
				t.Fatalf("range files: %d rows, want %d; heads %v vs %v", len(got), len(want), head(got), head(want))
			}
			for _, minRows := range []int{1 << 30, 0} {
				windowBucketMinRows = minRows
				for _, workers := range []int{1, 2, 3} {
					if got := run(0, workers); !slices.Equal(got, want) {
						t.Fatalf("buckets from %d rows, %d workers: %d rows, want %d; heads %v vs %v", minRows, workers, len(got), len(want), head(got), head(want))
					}
				}
			}
		})
	}
}

// With a row limit and only row_number calls, the partitioned path emits
// each partition's first rows only: those the streaming path numbers
// 1..limit.
func TestWindowRowLimit(t *testing.T) {
	calls := []WindowCall{{Func: WinRowNumber, Out: arrow.PrimitiveTypes.Int64}, {Func: WinRowNumber, Out: arrow.PrimitiveTypes.Int64}}
	out := windowOut(aggInSch, calls)
	order := []SortKey{{Expr: aggArgV, Desc: true}}
	defer func(v int) { windowBucketMinRows = v }(windowBucketMinRows)
	windowBucketMinRows = 0
	// the partitioned path's own cut (window_topn_test.go tests the
	// reduction, whose partitions come in another order)
	defer func() { windowTopN = true }()
	windowTopN = false
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	run := func(limit int64, rowLimit int64) []string {
		w := &Window{Input: aggSource(mem, 4000, 500, 300, 9), Partition: []Expr{aggKeyK}, Order: order, RowLimit: rowLimit,
			Calls: calls, Out: out, EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: t.TempDir(), Workers: 2}}
		bs, err := Collect(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		defer ReleaseAll(bs)
		return rowsOf(t, bs)
	}
	defer func() { windowRangeSpill = true }()
	for _, k := range []int64{1, 2, 7} {
		var want []string
		windowRangeSpill = false
		streamed := run(16<<10, k)
		windowRangeSpill = true
		for _, r := range streamed {
			f := strings.Split(r, ",")
			if atoi(f[len(f)-2]) <= k {
				want = append(want, r)
			}
		}
		for _, limit := range []int64{0, 16 << 10} { // in memory, range files
			got := run(limit, k)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Fatalf("row limit %d, memory limit %d: %d rows, want %d; heads %v vs %v", k, limit, len(got), len(want), head(got), head(want))
			}
		}
	}
}

func atoi(s string) int64 {
	var n int64
	for _, c := range s {
		n = n*10 + int64(c-'0')
	}
	return n
}
