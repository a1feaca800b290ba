package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// compute evaluates one call over the sorted input.
func (w *Window) compute(ctx context.Context, c WindowCall, b arrow.RecordBatch, wb *winBounds) (arrow.Array, error) {
	args, err := evalKeys(w.EC, b, c.Args)
	defer ReleaseArrays(args)
	if err != nil {
		return nil, err
	}
	n := int(b.NumRows())
	switch c.Func {
	case WinRowNumber, WinRank, WinDenseRank, WinNtile:
		return w.rankInts(c, wb, n), nil
	case WinPercentRank, WinCumeDist:
		return w.rankFloats(c, wb, n), nil
	case WinLag, WinLead:
		return w.lagLead(ctx, c, args, wb, n)
	case WinFirstValue, WinLastValue:
		if len(args) != 1 {
			return nil, fmt.Errorf("%w: %s with %d arguments", ErrWindowCall, c.Func, len(args))
		}
		frame, err := w.framesOf(c.Frame, b, wb)
		if err != nil {
			return nil, err
		}
		idx := make([]int32, n)
		for i := range idx {
			lo, hi := frame(i)
			switch {
			case lo >= hi:
				idx[i] = -1
			case c.Func == WinFirstValue:
				idx[i] = int32(lo)
			default:
				idx[i] = int32(hi - 1)
			}
		}
		return takeOrNull(ctx, w.EC, args[0], idx)
	case WinAggregate:
		frame, err := w.framesOf(c.Frame, b, wb)
		if err != nil {
			return nil, err
		}
		return w.frameAggregate(ctx, c, args, wb, frame, n)
	}
	return nil, &TypeError{Op: "window", Type: c.Func.String()}
}

// rankInts computes the BIGINT-valued ranking functions.
func (w *Window) rankInts(c WindowCall, wb *winBounds, n int) arrow.Array {
	bld := array.NewInt64Builder(w.EC.Mem)
	defer bld.Release()
	bld.Reserve(n)
	dense := int64(0)
	for i := 0; i < n; i++ {
		ps, pe := int(wb.partStart[i]), int(wb.partEnd[i])
		switch c.Func {
		case WinRowNumber:
			bld.UnsafeAppend(int64(i - ps + 1))
		case WinRank:
			bld.UnsafeAppend(int64(int(wb.peerStart[i]) - ps + 1))
		case WinDenseRank:
			if i == ps {
				dense = 0
			}
			if int(wb.peerStart[i]) == i {
				dense++
			}
			bld.UnsafeAppend(dense)
		case WinNtile:
			bld.UnsafeAppend(ntile(int64(i-ps), int64(pe-ps), c.N))
		}
	}
	return bld.NewArray()
}

// ntile places row r of cnt into one of k buckets; the first cnt%k
// buckets hold one row more than the rest.
func ntile(r, cnt, k int64) int64 {
	size, rem := cnt/k, cnt%k
	if size == 0 {
		return r + 1
	}
	if r < rem*(size+1) {
		return r/(size+1) + 1
	}
	return rem + (r-rem*(size+1))/size + 1
}

func (w *Window) rankFloats(c WindowCall, wb *winBounds, n int) arrow.Array {
	bld := array.NewFloat64Builder(w.EC.Mem)
	defer bld.Release()
	bld.Reserve(n)
	for i := 0; i < n; i++ {
		ps, pe := int(wb.partStart[i]), int(wb.partEnd[i])
		cnt := float64(pe - ps)
		if c.Func == WinCumeDist {
			bld.UnsafeAppend(float64(int(wb.peerEnd[i])-ps) / cnt)
			continue
		}
		if pe-ps == 1 {
			bld.UnsafeAppend(0)
			continue
		}
		bld.UnsafeAppend(float64(int(wb.peerStart[i])-ps) / (cnt - 1))
	}
	return bld.NewArray()
}

// lagLead reads the value N rows before (lag) or after (lead) in the
// partition, or the default (evaluated at the current row) past its edge.
func (w *Window) lagLead(ctx context.Context, c WindowCall, args []arrow.Array, wb *winBounds, n int) (arrow.Array, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, fmt.Errorf("%w: %s with %d arguments", ErrWindowCall, c.Func, len(args))
	}
	src := args[0]
	if len(args) == 2 {
		// One take over value ++ default: index n+i is row i's default.
		cat, err := array.Concatenate([]arrow.Array{args[0], args[1]}, w.EC.Mem)
		if err != nil {
			return nil, err
		}
		defer cat.Release()
		src = cat
	}
	idx := make([]int32, n)
	for i := range idx {
		j := int64(i) - c.N
		if c.Func == WinLead {
			j = int64(i) + c.N
		}
		switch {
		case j >= int64(wb.partStart[i]) && j < int64(wb.partEnd[i]):
			idx[i] = int32(j)
		case len(args) == 2:
			idx[i] = int32(n + i)
		default:
			idx[i] = -1
		}
	}
	return takeOrNull(ctx, w.EC, src, idx)
}
