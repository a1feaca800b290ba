package exec

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// streamCalls is one call of every window function kind.
func streamCalls() []WindowCall {
	i64, f64 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64
	v, x := aggArgV, aggArgX
	rows := WindowFrame{Rows: true, Start: FrameBound{Kind: BoundPreceding, Offset: 2}, End: FrameBound{Kind: BoundFollowing, Offset: 1}}
	return []WindowCall{
		{Func: WinRowNumber, Out: i64},
		{Func: WinRank, Out: i64},
		{Func: WinDenseRank, Out: i64},
		{Func: WinPercentRank, Out: f64},
		{Func: WinCumeDist, Out: f64},
		{Func: WinNtile, N: 3, Out: i64},
		{Func: WinLag, Args: []Expr{v, v}, N: 1, Out: i64},
		{Func: WinLead, Args: []Expr{x}, N: 2, Out: f64},
		{Func: WinFirstValue, Args: []Expr{x}, Frame: DefaultFrame, Out: f64},
		{Func: WinLastValue, Args: []Expr{v}, Frame: rows, Out: i64},
		{Func: WinAggregate, Agg: AggSum, Args: []Expr{v}, Frame: DefaultFrame, Out: i64},
		{Func: WinAggregate, Agg: AggAvg, Args: []Expr{x}, Frame: rows, Out: f64},
		{Func: WinAggregate, Agg: AggMin, Args: []Expr{aggArgS}, Frame: DefaultFrame, Out: arrow.BinaryTypes.String},
		{Func: WinAggregate, Agg: AggCountStar, Frame: WindowFrame{Start: FrameBound{Kind: BoundUnboundedPreceding}, End: FrameBound{Kind: BoundUnboundedFollowing}}, Out: i64},
	}
}

// Windows computed partition by partition over a spilled sort return
// the rows, in the order, of the window over the in-memory sort.
func TestWindowStreamsPartitions(t *testing.T) {
	calls := streamCalls()
	out := windowOut(aggInSch, calls)
	order := []SortKey{{Expr: aggArgV}, {Expr: aggArgX, Desc: true}}
	tests := []struct {
		name      string
		partition []Expr
		distinct  int
	}{
		{"many small partitions", []Expr{aggKeyK}, 600},
		{"few partitions spanning batches", []Expr{aggKeyK}, 4},
		{"two keys with NaN and zeros", []Expr{aggKeyF, aggKeyS}, 200},
		{"one partition", nil, 50},
	}
	const rows = 4000
	windowRangeSpill = false // past the budget: the streaming path
	defer func() { windowRangeSpill = true }()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			run := func(limit int64) ([]string, int) {
				w := &Window{Input: aggSource(mem, rows, tc.distinct, 300, 3), Partition: tc.partition, Order: order,
					Calls: calls, Out: out, EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: t.TempDir()}}
				bs, err := Collect(context.Background(), w)
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(bs)
				return rowsOf(t, bs), len(bs)
			}
			want, _ := run(0)
			for _, limit := range []int64{16 << 10, 64 << 10} {
				got, batches := run(limit)
				if len(got) != rows || !slices.Equal(got, want) {
					t.Fatalf("limit %d: streamed %d rows, in memory %d; heads %v vs %v", limit, len(got), len(want), head(got), head(want))
				}
				if tc.distinct > 100 && batches < 2 {
					t.Fatalf("limit %d: %d output batches: the partitions were not streamed", limit, batches)
				}
			}
		})
	}
}

// The window's own memory stays near the sort's budget: it holds
// complete partitions one sorted batch at a time, not the input.
func TestWindowPeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("100k rows")
	}
	defer func() { windowRangeSpill = true }()
	for _, ranges := range []bool{false, true} {
		windowRangeSpill = ranges
		checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
		mem := &peakAllocator{Allocator: checked}
		const rows, limit = 60000, 256 << 10
		calls := streamCalls()
		w := &Window{Input: aggSource(mem, rows, 2000, 1000, 8), Partition: []Expr{aggKeyK}, Order: []SortKey{{Expr: aggArgX}},
			Calls: calls, Out: windowOut(aggInSch, calls), EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: t.TempDir()}}
		var n, inputBytes int64
		for {
			b, err := w.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			n += b.NumRows()
			for c := range aggInSch.NumFields() {
				inputBytes += arrayBytes(b.Column(c).Data())
			}
			b.Release()
		}
		w.Close()
		checked.AssertSize(t, 0)
		if n != rows {
			t.Fatalf("range files %v: %d rows, want %d", ranges, n, rows)
		}
		if p := int64(mem.Peak()); p > 4*limit || p > inputBytes/2 {
			t.Fatalf("range files %v: peak %d bytes for a %d-byte limit and %d bytes of input", ranges, p, limit, inputBytes)
		}
		t.Logf("range files %v: peak %d bytes, input %d bytes", ranges, mem.Peak(), inputBytes)
	}
}
