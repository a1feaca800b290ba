package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// WindowFunc is a window function kind.
type WindowFunc int

// Window functions. WinAggregate computes an AggFunc over the frame.
const (
	WinRowNumber WindowFunc = iota
	WinRank
	WinDenseRank
	WinPercentRank
	WinCumeDist
	WinNtile
	WinLag
	WinLead
	WinFirstValue
	WinLastValue
	WinAggregate
)

var winNames = [...]string{"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value", "last_value", "aggregate"}

func (f WindowFunc) String() string {
	if int(f) < len(winNames) {
		return winNames[f]
	}
	return fmt.Sprintf("window(%d)", int(f))
}

// UsesFrame reports whether f reads the window frame (ranking and
// offset functions see the whole partition).
func (f WindowFunc) UsesFrame() bool {
	return f == WinAggregate || f == WinFirstValue || f == WinLastValue
}

// BoundKind is where a frame bound lies relative to the current row.
type BoundKind int

// Frame bound kinds.
const (
	BoundUnboundedPreceding BoundKind = iota
	BoundPreceding
	BoundCurrentRow
	BoundFollowing
	BoundUnboundedFollowing
)

// FrameBound is one end of a window frame. Offset counts rows for ROWS
// frames; Range is the distance in ORDER BY units for RANGE frames.
type FrameBound struct {
	Kind   BoundKind
	Offset int64
	Range  RangeOffset
}

func (b FrameBound) String() string {
	off := fmt.Sprint(b.Offset)
	if b.Range.Text != "" {
		off = b.Range.Text
	}
	switch b.Kind {
	case BoundUnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case BoundPreceding:
		return off + " PRECEDING"
	case BoundCurrentRow:
		return "CURRENT ROW"
	case BoundFollowing:
		return off + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

// WindowFrame is ROWS or RANGE BETWEEN Start AND End.
type WindowFrame struct {
	Rows       bool
	Start, End FrameBound
}

// DefaultFrame is SQL's frame when none is written: the running frame up
// to the last peer of the current row (the whole partition without ORDER BY).
var DefaultFrame = WindowFrame{Start: FrameBound{Kind: BoundUnboundedPreceding}, End: FrameBound{Kind: BoundCurrentRow}}

func (f WindowFrame) String() string {
	kind := "RANGE"
	if f.Rows {
		kind = "ROWS"
	}
	return fmt.Sprintf("%s BETWEEN %s AND %s", kind, f.Start, f.End)
}

// Validate rejects frames whose start lies after their end by construction.
func (f WindowFrame) Validate() error {
	if f.Start.Kind == BoundUnboundedFollowing {
		return &FrameError{Frame: f.String(), Reason: "a frame cannot start at UNBOUNDED FOLLOWING"}
	}
	if f.End.Kind == BoundUnboundedPreceding {
		return &FrameError{Frame: f.String(), Reason: "a frame cannot end at UNBOUNDED PRECEDING"}
	}
	if f.Start.Kind > f.End.Kind {
		return &FrameError{Frame: f.String(), Reason: "the frame starts after it ends"}
	}
	if f.Start.Offset < 0 || f.End.Offset < 0 || f.Start.Range.negative() || f.End.Range.negative() {
		return &FrameError{Frame: f.String(), Reason: "frame offsets must not be negative"}
	}
	return nil
}

// WindowCall is one window function over the operator's window.
type WindowCall struct {
	Func WindowFunc
	// Agg is the aggregate of a WinAggregate call (count(*) takes no Args).
	Agg AggFunc
	// Args are evaluated over the input: the value for lag/lead/first/last
	// and aggregates, then lag/lead's default.
	Args []Expr
	// N is ntile's bucket count or lag/lead's offset.
	N     int64
	Frame WindowFrame
	Out   arrow.DataType
}

// Window computes Calls over rows partitioned by Partition and ordered by
// Order. It emits the input columns (sorted by partition then order keys)
// followed by one column per call. It sorts its input (a Sort, which
// spills past the memory limit) and computes the calls over complete
// partitions as the sorted rows stream in, so it holds at most the
// largest partition and one sorted batch (window_stream.go). With
// PARTITION BY it takes the partitioned path instead
// (window_partitioned.go): range buckets of partitions computed on every
// core, in the streaming path's order; an input past half the memory
// limit is first cut into range files of the partition keys, computed
// one after the other (window_spill_ranges.go). A partitioned window
// of row_number calls under a row limit first reduces its input to each
// partition's top rows (window_topn.go) and emits them in input order.
type Window struct {
	Input     RecordIterator
	Partition []Expr
	Order     []SortKey
	Calls     []WindowCall
	// RowLimit, when positive and every call is row_number, lets the
	// window emit only the first RowLimit rows of each partition (a
	// filter above keeps no others: rn = 1, rn <= k).
	RowLimit int64
	// SerialKeys asks that the top-N reduction evaluate the keys on one
	// goroutine (they hold subqueries, whose state is per operator).
	SerialKeys bool
	Out        *arrow.Schema
	EC         *EvalContext
	done       bool
	started    bool
	stream     windowStream
	part       windowPartitioned
	spill      windowSpill
}

func (w *Window) Schema() *arrow.Schema { return w.Out }

func (w *Window) Close() {
	w.Input.Close()
	w.release()
}

// release drops what every path holds and removes the spill files.
func (w *Window) release() {
	w.stream.release()
	w.part.release()
	w.spill.release()
}

func (w *Window) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if w.done {
		return nil, nil
	}
	if !w.started {
		w.started = true
		err := w.validate()
		if err == nil && w.useTopN() {
			err = w.runTopN(ctx, w.Input)
		} else if err == nil && len(w.Partition) > 0 {
			err = w.runPartitioned(ctx, w.Input, 0)
		} else if err == nil {
			w.start(w.Input)
		}
		if err != nil {
			w.done = true
			w.release()
			return nil, err
		}
	}
	out, err := w.nextOut(ctx)
	if err != nil || out == nil {
		w.done = true
		w.release()
	}
	return out, err
}

// nextOut returns the next batch of computed buckets, else of the
// streaming path, else computes the next range files; nil at the end.
func (w *Window) nextOut(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if b := w.part.partitionedNext(); b != nil {
			return b, nil
		}
		if w.stream.sort != nil {
			b, err := w.nextPartitions(ctx)
			if err != nil || b != nil {
				return b, err
			}
			w.stream.release()
			w.stream = windowStream{}
			w.spill.closeCur()
		}
		if len(w.spill.queue) == 0 {
			return nil, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := w.nextRanges(ctx); err != nil {
			return nil, err
		}
	}
}

// validate checks the frames.
func (w *Window) validate() error {
	for _, c := range w.Calls {
		if !c.Func.UsesFrame() {
			continue
		}
		if err := c.Frame.Validate(); err != nil {
			return err
		}
		if c.Frame.rangeOffsets() {
			if err := checkRangeKeys(c.Frame, w.Order); err != nil {
				return err
			}
		}
	}
	return nil
}

// start sets up the sort of the streaming path over in.
func (w *Window) start(in RecordIterator) {
	keys := make([]SortKey, 0, len(w.Partition)+len(w.Order))
	for _, p := range w.Partition {
		keys = append(keys, SortKey{Expr: p, NullsFirst: true})
	}
	keys = append(keys, w.Order...)
	w.stream.sort = &Sort{Input: in, Keys: keys, EC: w.EC}
}

// computeBatch computes every call over sorted, which holds whole
// partitions only.
func (w *Window) computeBatch(ctx context.Context, sorted arrow.RecordBatch) (arrow.RecordBatch, error) {
	bounds, err := w.boundaries(sorted)
	if err != nil {
		return nil, err
	}
	n := int(sorted.NumRows())
	cols := make([]arrow.Array, 0, w.Out.NumFields())
	for _, c := range sorted.Columns() {
		c.Retain()
		cols = append(cols, c)
	}
	defer func() { ReleaseArrays(cols) }()
	for _, c := range w.Calls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out, err := w.compute(ctx, c, sorted, bounds)
		if err != nil {
			return nil, err
		}
		cols = append(cols, out)
	}
	b, err := NewBatch(w.EC, w.Out, cols, int64(n))
	if err != nil {
		return nil, err
	}
	return w.limitRows(ctx, b, bounds)
}

// winBounds holds, per row of the sorted input, its partition's and its
// peer group's [start, end) row ranges.
type winBounds struct {
	partStart, partEnd []int32
	peerStart, peerEnd []int32
}

func (w *Window) boundaries(b arrow.RecordBatch) (*winBounds, error) {
	n := int(b.NumRows())
	part, err := evalKeys(w.EC, b, w.Partition)
	defer ReleaseArrays(part)
	if err != nil {
		return nil, err
	}
	ord := make([]Expr, len(w.Order))
	for i, k := range w.Order {
		ord[i] = k.Expr
	}
	order, err := evalKeys(w.EC, b, ord)
	defer ReleaseArrays(order)
	if err != nil {
		return nil, err
	}
	wb := &winBounds{
		partStart: make([]int32, n), partEnd: make([]int32, n),
		peerStart: make([]int32, n), peerEnd: make([]int32, n),
	}
	pEq, oEq := rowsEqual(part), rowsEqual(order)
	ps, qs := 0, 0
	for i := 1; i <= n; i++ {
		newPart := i == n || !pEq(i-1, i)
		newPeer := newPart || !oEq(i-1, i)
		if newPeer {
			for j := qs; j < i; j++ {
				wb.peerStart[j], wb.peerEnd[j] = int32(qs), int32(i)
			}
			qs = i
		}
		if newPart {
			for j := ps; j < i; j++ {
				wb.partStart[j], wb.partEnd[j] = int32(ps), int32(i)
			}
			ps = i
		}
	}
	return wb, nil
}

func evalKeys(ec *EvalContext, b arrow.RecordBatch, es []Expr) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(es))
	for i, e := range es {
		a, err := e.Eval(ec, b)
		if err != nil {
			return out, err
		}
		out[i] = a
	}
	return out, nil
}

// rowsEqual compares two rows over all keys, NULLs equal to each other.
func rowsEqual(keys []arrow.Array) func(i, j int) bool {
	cmps := make([]func(i, j int) int, len(keys))
	for k, a := range keys {
		cmps[k] = rowComparator(a)
	}
	return func(i, j int) bool {
		for k, a := range keys {
			in, jn := a.IsNull(i), a.IsNull(j)
			if in || jn {
				if in != jn {
					return false
				}
				continue
			}
			if cmps[k](i, j) != 0 {
				return false
			}
		}
		return true
	}
}

// frameOf returns row i's frame [lo, hi); lo >= hi is an empty frame.
func frameOf(f WindowFrame, wb *winBounds, i int) (lo, hi int) {
	ps, pe := int(wb.partStart[i]), int(wb.partEnd[i])
	clamp := func(x int64) int { return int(max(int64(ps), min(int64(pe), x))) }
	switch f.Start.Kind {
	case BoundUnboundedPreceding:
		lo = ps
	case BoundPreceding:
		lo = clamp(int64(i) - f.Start.Offset)
	case BoundCurrentRow:
		lo = i
		if !f.Rows {
			lo = int(wb.peerStart[i])
		}
	case BoundFollowing:
		lo = clamp(int64(i) + f.Start.Offset)
	default:
		lo = pe
	}
	switch f.End.Kind {
	case BoundUnboundedFollowing:
		hi = pe
	case BoundFollowing:
		hi = clamp(int64(i) + f.End.Offset + 1)
	case BoundCurrentRow:
		hi = i + 1
		if !f.Rows {
			hi = int(wb.peerEnd[i])
		}
	case BoundPreceding:
		hi = clamp(int64(i) - f.End.Offset + 1)
	default:
		hi = ps
	}
	return lo, hi
}

// takeOrNull gathers src at idx (-1: NULL).
func takeOrNull(ctx context.Context, ec *EvalContext, src arrow.Array, idx []int32) (arrow.Array, error) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: src.DataType(), Nullable: true}}, nil)
	b, err := TakeBatch(ctx, ec, schema, []arrow.Array{src}, idx)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	a := b.Column(0)
	a.Retain()
	return a, nil
}
