package exec

import (
	"cmp"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// topHeap is a max-heap of kept rows: the root is the last in output order.
type topHeap struct {
	t    *TopN
	rows []topRow
	cmps []func(a, b arrow.Array, i, j int) int
}

func (h *topHeap) Len() int           { return len(h.rows) }
func (h *topHeap) Less(i, j int) bool { return h.before(h.rows[j], h.rows[i]) }
func (h *topHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *topHeap) Push(x any)         { h.rows = append(h.rows, x.(topRow)) }
func (h *topHeap) Pop() any {
	x := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return x
}

// before reports whether a comes before b in the sort order (ties by
// input order, as a stable sort).
func (h *topHeap) before(a, b topRow) bool {
	sa, sb := h.t.slots[a.slot], h.t.slots[b.slot]
	base := len(sa.cols) - len(h.t.Keys)
	for k, key := range h.t.Keys {
		x, y := sa.cols[base+k], sb.cols[base+k]
		xn, yn := x.IsNull(int(a.row)), y.IsNull(int(b.row))
		if xn || yn {
			if xn && yn {
				continue
			}
			return xn == key.NullsFirst
		}
		c := h.cmps[k](x, y, int(a.row), int(b.row))
		if c != 0 {
			return (c < 0) != key.Desc
		}
	}
	return a.seq < b.seq
}

// firstKeyAfter returns a test of whether row r of col (a batch's first
// key column) sorts strictly after the root on the first key alone, so
// that it cannot enter the heap; nil when there is no cheap test (a NULL
// root or key type without one). NULL rows are never skipped by it. The
// test orders values as crossComparator does (cmp.Compare: NaN first).
func (h *topHeap) firstKeyAfter(col arrow.Array) func(r int) bool {
	root := h.rows[0]
	rs := h.t.slots[root.slot]
	rcol := rs.cols[len(rs.cols)-len(h.t.Keys)]
	at, desc := int(root.row), h.t.Keys[0].Desc
	if rcol.IsNull(at) {
		return nil
	}
	switch c := col.(type) {
	case *array.Int64:
		if rc, ok := rcol.(*array.Int64); ok {
			return orderedAfter(c, c.Int64Values(), rc.Value(at), desc)
		}
	case *array.Float64:
		if rc, ok := rcol.(*array.Float64); ok {
			return orderedAfter(c, c.Float64Values(), rc.Value(at), desc)
		}
	case *array.Int32:
		if rc, ok := rcol.(*array.Int32); ok {
			return orderedAfter(c, c.Int32Values(), rc.Value(at), desc)
		}
	case *array.Timestamp:
		if rc, ok := rcol.(*array.Timestamp); ok && arrow.TypeEqual(c.DataType(), rc.DataType()) {
			return orderedAfter(c, c.TimestampValues(), rc.Value(at), desc)
		}
	}
	return nil
}

func orderedAfter[T cmp.Ordered](col arrow.Array, vals []T, v T, desc bool) func(r int) bool {
	nulls := col.NullN() > 0
	if desc {
		return func(r int) bool { return cmp.Less(vals[r], v) && (!nulls || col.IsValid(r)) }
	}
	return func(r int) bool { return cmp.Less(v, vals[r]) && (!nulls || col.IsValid(r)) }
}

// crossComparator compares non-null values of two arrays of type t, with
// the order Sort uses.
func crossComparator(t arrow.DataType) func(a, b arrow.Array, i, j int) int {
	switch t.ID() {
	case arrow.INT64:
		return func(a, b arrow.Array, i, j int) int {
			return cmp.Compare(a.(*array.Int64).Value(i), b.(*array.Int64).Value(j))
		}
	case arrow.INT32:
		return func(a, b arrow.Array, i, j int) int {
			return cmp.Compare(a.(*array.Int32).Value(i), b.(*array.Int32).Value(j))
		}
	case arrow.FLOAT64:
		return func(a, b arrow.Array, i, j int) int {
			return cmp.Compare(a.(*array.Float64).Value(i), b.(*array.Float64).Value(j))
		}
	case arrow.STRING:
		return func(a, b arrow.Array, i, j int) int {
			return cmp.Compare(a.(*array.String).Value(i), b.(*array.String).Value(j))
		}
	case arrow.TIMESTAMP: // as rowComparator: the integers
		return func(a, b arrow.Array, i, j int) int {
			return cmp.Compare(a.(*array.Timestamp).Value(i), b.(*array.Timestamp).Value(j))
		}
	case arrow.DATE32:
		return func(a, b arrow.Array, i, j int) int {
			return cmp.Compare(a.(*array.Date32).Value(i), b.(*array.Date32).Value(j))
		}
	}
	if ts, ok := t.(*arrow.TimestampType); ok {
		return func(a, b arrow.Array, i, j int) int {
			x, y := a.(*array.Timestamp), b.(*array.Timestamp)
			if !arrow.TypeEqual(x.DataType(), ts) || !arrow.TypeEqual(y.DataType(), ts) {
				return CompareValues(ValueAt(a, i), ValueAt(b, j))
			}
			return cmp.Compare(x.Value(i), y.Value(j))
		}
	}
	return func(a, b arrow.Array, i, j int) int { return CompareValues(ValueAt(a, i), ValueAt(b, j)) }
}
