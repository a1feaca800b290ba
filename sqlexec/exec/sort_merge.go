package exec

import (
	"container/heap"
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// runMerger streams the k-way merge of sorted runs: a heap over the run
// cursors, ties broken by run order so the merge stays stable.
type runMerger struct {
	ec      *EvalContext
	keys    []SortKey
	schema  *arrow.Schema // run schema: input columns then keys
	base    int           // index of the first key column
	cursors []*runCursor  // heap order
	cmps    []func(a, b arrow.Array, i, j int) int
}

func newRunMerger(ec *EvalContext, keys []SortKey, schema *arrow.Schema, cursors []*runCursor) *runMerger {
	m := &runMerger{ec: ec, keys: keys, schema: schema, base: schema.NumFields() - len(keys)}
	for i := range keys {
		m.cmps = append(m.cmps, crossComparator(schema.Field(m.base+i).Type))
	}
	for _, c := range cursors {
		if c.batch != nil {
			m.cursors = append(m.cursors, c)
		} else {
			c.close()
		}
	}
	heap.Init(m)
	return m
}

func (m *runMerger) Len() int      { return len(m.cursors) }
func (m *runMerger) Swap(i, j int) { m.cursors[i], m.cursors[j] = m.cursors[j], m.cursors[i] }
func (m *runMerger) Push(x any)    { m.cursors = append(m.cursors, x.(*runCursor)) }
func (m *runMerger) Pop() any {
	c := m.cursors[len(m.cursors)-1]
	m.cursors = m.cursors[:len(m.cursors)-1]
	return c
}

func (m *runMerger) Less(i, j int) bool {
	a, b := m.cursors[i], m.cursors[j]
	for k, key := range m.keys {
		x, y := a.batch.Column(m.base+k), b.batch.Column(m.base+k)
		xn, yn := x.IsNull(a.row), y.IsNull(b.row)
		if xn || yn {
			if xn && yn {
				continue
			}
			return xn == key.NullsFirst
		}
		if c := m.cmps[k](x, y, a.row, b.row); c != 0 {
			return (c < 0) != key.Desc
		}
	}
	return a.order < b.order
}

// next returns up to maxRows merged rows with every run column, or nil
// at the end.
func (m *runMerger) next(ctx context.Context, maxRows int) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// rows are taken per source batch, then interleaved by one final take
	var (
		srcs  []arrow.RecordBatch
		idx   [][]int32
		order []rowRef
	)
	defer func() { ReleaseAll(srcs) }()
	for len(order) < maxRows && len(m.cursors) > 0 {
		c := m.cursors[0]
		g := len(srcs) - 1
		for ; g >= 0 && srcs[g] != c.batch; g-- {
		}
		if g < 0 {
			c.batch.Retain()
			srcs = append(srcs, c.batch)
			idx = append(idx, nil)
			g = len(srcs) - 1
		}
		order = append(order, rowRef{src: int32(g), pos: int32(len(idx[g]))})
		idx[g] = append(idx[g], int32(c.row))
		if err := c.advance(); err != nil {
			return nil, err
		}
		if c.batch == nil {
			heap.Pop(m)
			c.close()
		} else {
			heap.Fix(m, 0)
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	return interleave(ctx, m.ec, m.schema, srcs, idx, order)
}

// rowRef is an output row: position pos among the rows taken from src.
type rowRef struct{ src, pos int32 }

// interleave builds the batch whose row i is order[i]'s row.
func interleave(ctx context.Context, ec *EvalContext, schema *arrow.Schema, srcs []arrow.RecordBatch, idx [][]int32, order []rowRef) (arrow.RecordBatch, error) {
	if len(srcs) == 1 {
		return TakeBatch(ctx, ec, schema, srcs[0].Columns(), idx[0])
	}
	parts := make([]arrow.RecordBatch, 0, len(srcs))
	defer func() { ReleaseAll(parts) }()
	offsets := make([]int32, len(srcs))
	total := int32(0)
	for s, b := range srcs {
		p, err := TakeBatch(ctx, ec, schema, b.Columns(), idx[s])
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
		offsets[s] = total
		total += int32(len(idx[s]))
	}
	cols, _, err := concatBatches(ec, schema, parts)
	if err != nil {
		return nil, err
	}
	defer ReleaseArrays(cols)
	perm := make([]int32, len(order))
	for i, r := range order {
		perm[i] = offsets[r.src] + r.pos
	}
	return TakeBatch(ctx, ec, schema, cols, perm)
}

func (m *runMerger) close() {
	for _, c := range m.cursors {
		c.close()
	}
	m.cursors = nil
}

// dropKeys returns b without its trailing key columns.
func dropKeys(schema *arrow.Schema, b arrow.RecordBatch) arrow.RecordBatch {
	out := array.NewRecordBatch(schema, b.Columns()[:schema.NumFields()], b.NumRows())
	b.Release()
	return out
}
