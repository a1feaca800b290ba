package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// frameAcc is an aggregate over a sliding frame: rows enter at the
// frame's end and leave at its start, both of which only move forward
// within a partition, so each row is added and removed at most once.
type frameAcc interface {
	reset()
	add(j int) error
	remove(j int)
	emit(empty bool)
	result(ctx context.Context) (arrow.Array, error)
	// discard frees the partial result when computing fails.
	discard()
}

func (w *Window) frameAggregate(ctx context.Context, c WindowCall, args []arrow.Array, wb *winBounds, frame frameFunc, n int) (arrow.Array, error) {
	acc, err := newFrameAcc(w.EC, c, args, n)
	if err != nil {
		return nil, err
	}
	curLo, curHi := 0, 0
	for i := 0; i < n; i++ {
		if i == int(wb.partStart[i]) {
			acc.reset()
			curLo, curHi = i, i
		}
		lo, hi := frame(i)
		if lo >= curHi {
			acc.reset()
			curLo, curHi = lo, lo
		}
		for ; curHi < hi; curHi++ {
			if err := acc.add(curHi); err != nil {
				acc.discard()
				return nil, err
			}
		}
		for ; curLo < lo; curLo++ {
			acc.remove(curLo)
		}
		acc.emit(lo >= hi)
	}
	return acc.result(ctx)
}

func newFrameAcc(ec *EvalContext, c WindowCall, args []arrow.Array, n int) (frameAcc, error) {
	if c.Agg == AggCountStar {
		b := array.NewInt64Builder(ec.Mem)
		b.Reserve(n)
		return &countFrame{out: b}, nil
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("%w: %s with %d arguments", ErrWindowCall, c.Agg, len(args))
	}
	arg := args[0]
	switch c.Agg {
	case AggCount:
		b := array.NewInt64Builder(ec.Mem)
		b.Reserve(n)
		return &countFrame{arg: arg, out: b}, nil
	case AggSum, AggAvg:
		switch a := arg.(type) {
		case *array.Int64:
			if c.Agg == AggSum {
				b := array.NewInt64Builder(ec.Mem)
				b.Reserve(n)
				return &sumIntFrame{arg: a, vals: a.Int64Values(), out: b}, nil
			}
		case *array.Float64:
			b := array.NewFloat64Builder(ec.Mem)
			b.Reserve(n)
			return &sumFloatFrame{arg: a, vals: a.Float64Values(), avg: c.Agg == AggAvg, out: b}, nil
		case *array.Null:
			return &nullFrame{ec: ec, t: c.Out, n: n}, nil
		}
		return nil, &TypeError{Op: "window " + c.Agg.String(), Type: arg.DataType().String()}
	case AggMin, AggMax:
		return &minMaxFrame{ec: ec, arg: arg, less: rowComparator(arg), max: c.Agg == AggMax, idx: make([]int32, 0, n)}, nil
	}
	return nil, fmt.Errorf("%w: aggregate %s", ErrWindowCall, c.Agg)
}

type countFrame struct {
	arg arrow.Array // nil: count(*)
	n   int64
	out *array.Int64Builder
}

func (f *countFrame) discard() { f.out.Release() }
func (f *countFrame) reset()   { f.n = 0 }
func (f *countFrame) add(j int) error {
	if f.arg == nil || f.arg.IsValid(j) {
		f.n++
	}
	return nil
}
func (f *countFrame) remove(j int) {
	if f.arg == nil || f.arg.IsValid(j) {
		f.n--
	}
}
func (f *countFrame) emit(bool) { f.out.UnsafeAppend(f.n) }
func (f *countFrame) result(context.Context) (arrow.Array, error) {
	defer f.out.Release()
	return f.out.NewArray(), nil
}

type sumIntFrame struct {
	arg      *array.Int64
	vals     []int64
	sum, cnt int64
	out      *array.Int64Builder
}

func (f *sumIntFrame) discard() { f.out.Release() }
func (f *sumIntFrame) reset()   { f.sum, f.cnt = 0, 0 }
func (f *sumIntFrame) add(j int) error {
	if f.arg.IsNull(j) {
		return nil
	}
	s := f.sum + f.vals[j]
	if (s > f.sum) != (f.vals[j] > 0) {
		return fmt.Errorf("%w: window sum", ErrOverflow)
	}
	f.sum, f.cnt = s, f.cnt+1
	return nil
}

// remove cannot overflow: the frame's sum without row j was computed before.
func (f *sumIntFrame) remove(j int) {
	if f.arg.IsValid(j) {
		f.sum -= f.vals[j]
		f.cnt--
	}
}
func (f *sumIntFrame) emit(bool) {
	if f.cnt == 0 {
		f.out.AppendNull()
		return
	}
	f.out.UnsafeAppend(f.sum)
}
func (f *sumIntFrame) result(context.Context) (arrow.Array, error) {
	defer f.out.Release()
	return f.out.NewArray(), nil
}

type sumFloatFrame struct {
	arg  *array.Float64
	vals []float64
	sum  float64
	cnt  int64
	avg  bool
	out  *array.Float64Builder
}

func (f *sumFloatFrame) discard() { f.out.Release() }
func (f *sumFloatFrame) reset()   { f.sum, f.cnt = 0, 0 }
func (f *sumFloatFrame) add(j int) error {
	if f.arg.IsValid(j) {
		f.sum += f.vals[j]
		f.cnt++
	}
	return nil
}
func (f *sumFloatFrame) remove(j int) {
	if f.arg.IsValid(j) {
		f.sum -= f.vals[j]
		f.cnt--
		if f.cnt == 0 {
			f.sum = 0 // drop accumulated rounding error
		}
	}
}
func (f *sumFloatFrame) emit(bool) {
	switch {
	case f.cnt == 0:
		f.out.AppendNull()
	case f.avg:
		f.out.UnsafeAppend(f.sum / float64(f.cnt))
	default:
		f.out.UnsafeAppend(f.sum)
	}
}
func (f *sumFloatFrame) result(context.Context) (arrow.Array, error) {
	defer f.out.Release()
	return f.out.NewArray(), nil
}

// nullFrame is sum/avg of an untyped NULL argument: always NULL.
type nullFrame struct {
	ec *EvalContext
	t  arrow.DataType
	n  int
}

func (f *nullFrame) discard()      {}
func (f *nullFrame) reset()        {}
func (f *nullFrame) add(int) error { return nil }
func (f *nullFrame) remove(int)    {}
func (f *nullFrame) emit(bool)     {}
func (f *nullFrame) result(context.Context) (arrow.Array, error) {
	return array.MakeArrayOfNull(f.ec.Mem, f.t, f.n), nil
}

// minMaxFrame keeps a monotonic deque of row indexes whose values could
// still become the frame's extreme; the front is the current extreme.
type minMaxFrame struct {
	ec    *EvalContext
	arg   arrow.Array
	less  func(i, j int) int
	max   bool
	deque []int32
	head  int
	idx   []int32
}

func (f *minMaxFrame) discard() {}
func (f *minMaxFrame) reset()   { f.deque, f.head = f.deque[:0], 0 }
func (f *minMaxFrame) add(j int) error {
	if f.arg.IsNull(j) {
		return nil
	}
	for len(f.deque) > f.head {
		c := f.less(int(f.deque[len(f.deque)-1]), j)
		if f.max {
			c = -c
		}
		if c < 0 {
			break
		}
		f.deque = f.deque[:len(f.deque)-1]
	}
	f.deque = append(f.deque, int32(j))
	return nil
}
func (f *minMaxFrame) remove(j int) {
	if len(f.deque) > f.head && int(f.deque[f.head]) == j {
		f.head++
	}
}
func (f *minMaxFrame) emit(empty bool) {
	if empty || len(f.deque) == f.head {
		f.idx = append(f.idx, -1)
		return
	}
	f.idx = append(f.idx, f.deque[f.head])
}
func (f *minMaxFrame) result(ctx context.Context) (arrow.Array, error) {
	return takeOrNull(ctx, f.ec, f.arg, f.idx)
}
