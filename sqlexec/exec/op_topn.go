package exec

import (
	"container/heap"
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// TopN emits the first N rows of its input in Keys order, exactly what
// a stable Sort followed by a limit of N returns, while holding only
// about N rows: a heap whose root is the worst row kept.
type TopN struct {
	Input RecordIterator
	Keys  []SortKey
	N     int64
	EC    *EvalContext
	done  bool

	slots []*topSlot
	heap  topHeap
	held  int // rows of the slots still referenced
}

// topSlot is one input batch (data then key columns) some kept rows point into.
type topSlot struct {
	cols []arrow.Array
	rows int
	refs int
}

type topRow struct {
	slot, row int32
	seq       int64 // input order, to keep ties stable
}

func (t *TopN) Schema() *arrow.Schema { return t.Input.Schema() }

func (t *TopN) Close() {
	t.Input.Close()
	for _, s := range t.slots {
		if s != nil {
			ReleaseArrays(s.cols)
		}
	}
	t.slots = nil
}

func (t *TopN) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if t.done {
		return nil, nil
	}
	t.done = true
	if t.N <= 0 {
		return nil, nil
	}
	t.heap = topHeap{t: t, cmps: make([]func(a, b arrow.Array, i, j int) int, len(t.Keys))}
	var seq int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := t.Input.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		slot, err := t.newSlot(b)
		b.Release()
		if err != nil {
			return nil, err
		}
		t.offer(slot, &seq)
		if t.held > 4*int(min(t.N, 1<<20))+65536 {
			if err := t.compact(ctx); err != nil {
				return nil, err
			}
		}
	}
	if len(t.heap.rows) == 0 {
		return nil, nil
	}
	rows := slices.Clone(t.heap.rows)
	slices.SortFunc(rows, func(a, b topRow) int {
		if t.heap.before(a, b) {
			return -1
		}
		return 1
	})
	cols, err := t.gather(ctx, rows)
	if err != nil {
		return nil, err
	}
	defer ReleaseArrays(cols)
	n := t.Input.Schema().NumFields()
	return array.NewRecordBatch(t.Input.Schema(), cols[:n], int64(len(rows))), nil
}

func (t *TopN) newSlot(b arrow.RecordBatch) (int32, error) {
	keys, err := evalAll(t.EC, b, sortExprs(t.Keys))
	if err != nil {
		return 0, err
	}
	for i, k := range keys {
		if t.heap.cmps[i] == nil {
			t.heap.cmps[i] = crossComparator(k.DataType())
		}
	}
	cols := make([]arrow.Array, 0, int(b.NumCols())+len(keys))
	for _, c := range b.Columns() {
		c.Retain()
		cols = append(cols, c)
	}
	t.slots = append(t.slots, &topSlot{cols: append(cols, keys...), rows: int(b.NumRows())})
	t.held += int(b.NumRows())
	return int32(len(t.slots) - 1), nil
}

// offer pushes the slot's rows that beat the worst row kept. Once the
// heap is full, most rows sort after its root on the first key alone,
// and a test of that over the key's values skips them without the
// row-by-row comparison.
func (t *TopN) offer(slot int32, seq *int64) {
	s := t.slots[slot]
	s.refs++ // the batch stays alive while its rows are offered
	key0 := s.cols[len(s.cols)-len(t.Keys)]
	var after func(r int) bool
	if int64(len(t.heap.rows)) >= t.N {
		after = t.heap.firstKeyAfter(key0)
	}
	for r := 0; r < s.rows; r++ {
		if after != nil && after(r) {
			continue
		}
		row := topRow{slot: slot, row: int32(r), seq: *seq + int64(r)}
		if int64(len(t.heap.rows)) < t.N {
			heap.Push(&t.heap, row)
			s.refs++
			if int64(len(t.heap.rows)) == t.N {
				after = t.heap.firstKeyAfter(key0)
			}
			continue
		}
		if !t.heap.before(row, t.heap.rows[0]) {
			continue
		}
		t.unref(t.heap.rows[0].slot)
		t.heap.rows[0] = row
		s.refs++
		heap.Fix(&t.heap, 0)
		after = t.heap.firstKeyAfter(key0)
	}
	*seq += int64(s.rows)
	t.unref(slot)
}

func (t *TopN) unref(slot int32) {
	s := t.slots[slot]
	if s.refs > 0 {
		s.refs--
	}
	if s.refs == 0 {
		ReleaseArrays(s.cols)
		t.held -= s.rows
		t.slots[slot] = nil
	}
}

// compact copies the kept rows into one slot so that batches holding
// only a few of them can be released.
func (t *TopN) compact(ctx context.Context) error {
	rows := t.heap.rows
	cols, err := t.gather(ctx, rows)
	if err != nil {
		return err
	}
	for _, s := range t.slots {
		if s != nil {
			ReleaseArrays(s.cols)
		}
	}
	t.slots = []*topSlot{{cols: cols, rows: len(rows), refs: len(rows)}}
	t.held = len(rows)
	for i := range rows {
		rows[i].slot, rows[i].row = 0, int32(i)
	}
	return nil
}

// gather copies rows (data and key columns) into new arrays, in order.
func (t *TopN) gather(ctx context.Context, rows []topRow) ([]arrow.Array, error) {
	offsets := make([]int32, len(t.slots))
	var parts [][]arrow.Array
	total := int32(0)
	for i, s := range t.slots {
		if s == nil {
			continue
		}
		offsets[i] = total
		total += int32(s.rows)
		parts = append(parts, s.cols)
	}
	width := int(t.Input.Schema().NumFields()) + len(t.Keys)
	idx := make([]int32, len(rows))
	for i, r := range rows {
		idx[i] = offsets[r.slot] + r.row
	}
	out := make([]arrow.Array, width)
	for c := range width {
		if len(parts) == 0 {
			return nil, nil
		}
		col := make([]arrow.Array, len(parts))
		for p := range parts {
			col[p] = parts[p][c]
		}
		all, err := array.Concatenate(col, t.EC.Mem)
		if err != nil {
			ReleaseArrays(out)
			return nil, err
		}
		taken, err := TakeBatch(ctx, t.EC, arrow.NewSchema([]arrow.Field{{Name: "c", Type: all.DataType(), Nullable: true}}, nil), []arrow.Array{all}, idx)
		all.Release()
		if err != nil {
			ReleaseArrays(out)
			return nil, err
		}
		out[c] = taken.Column(0)
		out[c].Retain()
		taken.Release()
	}
	return out, nil
}

func sortExprs(keys []SortKey) []Expr {
	out := make([]Expr, len(keys))
	for i, k := range keys {
		out[i] = k.Expr
	}
	return out
}
