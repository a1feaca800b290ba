package exec

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// skewSource streams n rows of aggInSch over about `distinct` keys, a
// third of them in one hot partition (k 7, s "hot"); NULL keys too.
func skewSource(mem memory.Allocator, n, distinct, size int, seed uint64) RecordIterator {
	rng := rand.New(rand.NewPCG(seed, 5))
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
			if rng.IntN(3) == 0 {
				k = 7
			}
			switch {
			case k == 0:
				bs[0].AppendNull()
				bs[2].AppendNull()
			case k == 7:
				bs[0].(*array.Int64Builder).Append(7)
				bs[2].(*array.StringBuilder).Append("hot")
			default:
				bs[0].(*array.Int64Builder).Append(int64(k))
				bs[2].(*array.StringBuilder).Append(fmt.Sprintf("user-%06d", k))
			}
			bs[1].(*array.Float64Builder).Append(float64(k % 5))
			bs[3].(*array.Int64Builder).Append(int64(rng.IntN(50)))
			bs[4].(*array.Float64Builder).Append(rng.Float64())
			bs[5].(*array.Decimal128Builder).Append(decimal128.FromI64(int64(done)))
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

// noFiles fails when dir holds any file.
func noFiles(t *testing.T, dir, when string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) > 0 {
		t.Fatalf("%s: %d spill files remain, first %s", when, len(ents), ents[0].Name())
	}
}

// Past the budget the partitioned path cuts its input into range files:
// many partitions and one hot one larger than the budget (streamed on
// its own) give the rows, in the order, of the streaming path, and no
// file stays behind.
func TestWindowRangeFilesMatchStreaming(t *testing.T) {
	calls := streamCalls()
	order := []SortKey{{Expr: aggArgV}, {Expr: aggArgX, Desc: true}}
	rn := []WindowCall{{Func: WinRowNumber, Out: arrow.PrimitiveTypes.Int64}}
	tests := []struct {
		name      string
		partition []Expr
		calls     []WindowCall
		rowLimit  int64
	}{
		{"integer key", []Expr{aggKeyK}, calls, 0},
		{"string key", []Expr{aggKeyS}, calls, 0},
		{"two keys", []Expr{aggKeyF, aggKeyS}, calls, 0},
		{"row limit 1", []Expr{aggKeyS}, rn, 1},
		{"row limit 3", []Expr{aggKeyK}, rn, 3},
	}
	const rows, limit = 20000, 64 << 10
	defer func() { windowRangeSpill = true }()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			run := func(ranges bool, workers int) ([]string, *Window) {
				windowRangeSpill = ranges
				dir := t.TempDir()
				w := &Window{Input: skewSource(mem, rows, 3000, 500, 4), Partition: tc.partition, Order: order, RowLimit: tc.rowLimit,
					Calls: tc.calls, Out: windowOut(aggInSch, tc.calls), EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir, Workers: workers}}
				bs, err := Collect(context.Background(), w)
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(bs)
				noFiles(t, dir, "after Close")
				return rowsOf(t, bs), w
			}
			want, _ := run(false, 1)
			defer func() { windowGroupShare = 4 }()
			for _, workers := range []int{1, 2, 3} {
				windowGroupShare = 4
				if workers == 3 {
					windowGroupShare = 1 // groups past half the budget are read again and cut again
				}
				got, w := run(true, workers)
				if !slices.Equal(got, want) {
					t.Fatalf("%d workers, groups of 1/%d of the budget: %d rows, want %d; heads %v vs %v", workers, windowGroupShare, len(got), len(want), head(got), head(want))
				}
				if w.spill.cuts < 1 || w.spill.streamed < 1 {
					t.Fatalf("%d workers: %d cuts, %d ranges streamed: want the hot partition streamed alone", workers, w.spill.cuts, w.spill.streamed)
				}
			}
		})
	}
}

// A cancelled query leaves no range file, whether cancelled while the
// input is cut or while the range files are computed.
func TestWindowRangeFilesCancel(t *testing.T) {
	calls := streamCalls()
	for _, cancelAt := range []int{20, -1} { // input batches read; -1: after the first output
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		src := skewSource(mem, 30000, 3000, 500, 6).(*funcSource)
		read := 0
		next := src.next
		src.next = func() arrow.RecordBatch {
			if read++; read == cancelAt {
				cancel()
			}
			return next()
		}
		w := &Window{Input: src, Partition: []Expr{aggKeyS}, Order: []SortKey{{Expr: aggArgV}},
			Calls: calls, Out: windowOut(aggInSch, calls), EC: &EvalContext{Mem: mem, MemoryLimit: 64 << 10, SpillDir: dir, Workers: 2}}
		var err error
		for {
			var b arrow.RecordBatch
			b, err = w.Next(ctx)
			if err != nil || b == nil {
				break
			}
			b.Release()
			if cancelAt < 0 {
				cancel()
			}
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancel at %d: %v, want context.Canceled", cancelAt, err)
		}
		noFiles(t, dir, fmt.Sprintf("cancelled at %d, before Close", cancelAt))
		w.Close()
		noFiles(t, dir, fmt.Sprintf("cancelled at %d", cancelAt))
		mem.AssertSize(t, 0)
		cancel()
	}
}
