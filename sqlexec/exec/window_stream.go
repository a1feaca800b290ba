package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// windowStream cuts the sorted input into runs of complete partitions:
// a partition is complete once a row of another partition follows it.
type windowStream struct {
	sort *Sort
	// pending holds the rows of the last partition seen so far (it may
	// continue in the next sorted batch).
	pending []arrow.RecordBatch
	// lastKeys are the partition keys of the batch pending ends with;
	// its last row is the one the next batch is compared with.
	lastKeys []arrow.Array
	cmps     []func(a, b arrow.Array, i, j int) int
}

func (s *windowStream) release() {
	if s.sort != nil {
		s.sort.release()
	}
	ReleaseAll(s.pending)
	s.pending = nil
	ReleaseArrays(s.lastKeys)
	s.lastKeys = nil
}

// nextPartitions reads sorted batches until some partitions are complete
// and returns them with the calls' columns; nil at the end.
func (w *Window) nextPartitions(ctx context.Context) (arrow.RecordBatch, error) {
	s := &w.stream
	for {
		b, err := s.sort.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			rest, err := s.take(w.EC, nil)
			if err != nil || rest == nil {
				return nil, err
			}
			defer rest.Release()
			return w.computeBatch(ctx, rest)
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		done, err := w.cut(b)
		if err != nil {
			return nil, err
		}
		if done != nil {
			defer done.Release()
			return w.computeBatch(ctx, done)
		}
	}
}

// cut adds b (taking it over) and returns the rows of the partitions it
// completes, or nil when b only extends the last partition.
func (w *Window) cut(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	s := &w.stream
	keys, err := evalKeys(w.EC, b, w.Partition)
	if err != nil {
		ReleaseArrays(keys)
		b.Release()
		return nil, err
	}
	n := int(b.NumRows())
	start := -1 // where b's last partition starts
	eq := rowsEqual(keys)
	for i := n - 1; i >= 1; i-- {
		if !eq(i-1, i) {
			start = i
			break
		}
	}
	if start < 0 && len(s.pending) > 0 && !s.continues(keys) {
		start = 0
	}
	ReleaseArrays(s.lastKeys)
	s.lastKeys = keys
	if start < 0 {
		s.pending = append(s.pending, b)
		return nil, nil
	}
	head := b.NewSlice(0, int64(start))
	tail := b.NewSlice(int64(start), int64(n))
	b.Release()
	done, err := s.take(w.EC, head)
	s.pending = append(s.pending, tail)
	return done, err
}

// continues reports whether row 0 of keys is in the partition of the
// last pending row.
func (s *windowStream) continues(keys []arrow.Array) bool {
	if s.cmps == nil {
		for _, k := range keys {
			s.cmps = append(s.cmps, crossComparator(k.DataType()))
		}
	}
	for k, a := range keys {
		prev := s.lastKeys[k]
		last := prev.Len() - 1
		pn, an := prev.IsNull(last), a.IsNull(0)
		if pn || an {
			if pn != an {
				return false
			}
			continue
		}
		if s.cmps[k](prev, a, last, 0) != 0 {
			return false
		}
	}
	return true
}

// take returns pending followed by extra (taking both over) as one
// batch, or nil when there are no rows.
func (s *windowStream) take(ec *EvalContext, extra arrow.RecordBatch) (arrow.RecordBatch, error) {
	parts := s.pending
	s.pending = nil
	if extra != nil {
		parts = append(parts, extra)
	}
	defer func() { ReleaseAll(parts) }()
	rows := 0
	for _, p := range parts {
		rows += int(p.NumRows())
	}
	if rows == 0 {
		return nil, nil
	}
	if len(parts) == 1 {
		b := parts[0]
		b.Retain()
		return b, nil
	}
	schema := parts[0].Schema()
	cols, n, err := concatBatches(ec, schema, parts)
	if err != nil {
		return nil, err
	}
	defer ReleaseArrays(cols)
	return array.NewRecordBatch(schema, cols, int64(n)), nil
}

// limitRows keeps, under a row limit, the first RowLimit rows of each
// partition of b (taken over): the partitioned path hands over only
// those, the streaming path all.
func (w *Window) limitRows(ctx context.Context, b arrow.RecordBatch, wb *winBounds) (arrow.RecordBatch, error) {
	if !w.rowLimited() {
		return b, nil
	}
	kept := func(i int) bool { return int64(i)-int64(wb.partStart[i]) < w.RowLimit }
	first := 0
	for first < len(wb.partStart) && kept(first) {
		first++
	}
	if first == len(wb.partStart) {
		return b, nil
	}
	defer b.Release()
	keep := make([]int32, 0, first)
	for i := range wb.partStart {
		if kept(i) {
			keep = append(keep, int32(i))
		}
	}
	return TakeBatch(ctx, w.EC, b.Schema(), b.Columns(), keep)
}
