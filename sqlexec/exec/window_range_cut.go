package exec

import (
	"bufio"
	"context"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// rangeCut writes rows to the range files of one cut. Input batches are
// cut in groups: each batch's rows ordered by range on the workers, then
// each range's file written on the workers, the group's batches in input
// order (ties in the ORDER BY keys keep input order).
type rangeCut struct {
	w         *Window
	sample    []arrow.Array // partition keys of the sampled rows
	keySch    *arrow.Schema // their types
	splitters []int32       // rows of sample
	writers   []*runWriter  // per range, created when first written
	bytes     []int64       // per range, estimated size in memory
	group     []arrow.RecordBatch
	groupSize int64
}

// cutPart is one input batch's rows ordered by range: range r is rows
// starts[r]:starts[r+1] of t.
type cutPart struct {
	t      arrow.RecordBatch
	bytes  int64 // batchBytes(t)
	starts []int
}

// addAll cuts held (taken over: each batch goes once cut, not after the
// whole input) and then the rest of in.
func (c *rangeCut) addAll(ctx context.Context, held []arrow.RecordBatch, in RecordIterator) error {
	defer func() { ReleaseAll(c.group) }()
	for i, b := range held {
		err := c.add(ctx, b)
		b.Release()
		if err != nil {
			ReleaseAll(held[i+1:])
			return err
		}
	}
	if err := drainBatches(ctx, in, c.add); err != nil {
		return err
	}
	return c.flush(ctx)
}

// add queues b (retained) and cuts the group once it has a few batches
// per worker or an eighth of the budget.
func (c *rangeCut) add(ctx context.Context, b arrow.RecordBatch) error {
	if b.NumRows() == 0 {
		return nil
	}
	b.Retain()
	c.group = append(c.group, b)
	c.groupSize += batchBytes(b)
	if len(c.group) < 2*c.w.EC.WorkerCount() && c.groupSize < c.w.EC.memoryLimit()/8 {
		return nil
	}
	return c.flush(ctx)
}

// flush cuts and writes the queued batches.
func (c *rangeCut) flush(ctx context.Context) error {
	group := c.group
	c.group, c.groupSize = nil, 0
	defer ReleaseAll(group)
	if len(group) == 0 {
		return nil
	}
	parts := make([]cutPart, len(group))
	defer func() {
		for _, p := range parts {
			if p.t != nil {
				p.t.Release()
			}
		}
	}()
	workers := c.w.EC.WorkerCount()
	if err := parallelFor(workers, len(group), func(i int) error {
		var err error
		parts[i], err = c.cut(ctx, group[i])
		return err
	}); err != nil {
		return err
	}
	schema := c.w.Input.Schema()
	var used []int
	for r := range c.writers {
		n := 0
		for _, p := range parts {
			n += p.starts[r+1] - p.starts[r]
		}
		if n == 0 {
			continue
		}
		used = append(used, r)
		if c.writers[r] == nil {
			fw, err := newWindowSpillWriter(c.w.EC, &c.w.spill.files, schema)
			if err != nil {
				return err
			}
			c.writers[r] = fw
		}
	}
	return parallelFor(workers, len(used), func(i int) error {
		r := used[i]
		for _, p := range parts {
			lo, hi := p.starts[r], p.starts[r+1]
			if lo == hi {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			sl := p.t.NewSlice(int64(lo), int64(hi))
			err := c.writers[r].write(sl)
			sl.Release()
			if err != nil {
				return err
			}
			c.bytes[r] += p.bytes * int64(hi-lo) / p.t.NumRows()
		}
		return nil
	})
}

// cut orders b's rows by range (a counting sort: input order within
// each range).
func (c *rangeCut) cut(ctx context.Context, b arrow.RecordBatch) (cutPart, error) {
	// the files are read back with the input's schema
	schema := c.w.Input.Schema()
	if int(b.NumCols()) != schema.NumFields() {
		return cutPart{}, &BatchShapeError{Problem: "column count", Want: schema.NumFields(), Got: int(b.NumCols())}
	}
	for i, f := range schema.Fields() {
		if got := b.Column(i).DataType(); !arrow.TypeEqual(got, f.Type) {
			return cutPart{}, &BatchTypeError{Column: f.Name, Want: f.Type.String(), Got: got.String()}
		}
	}
	n := int(b.NumRows())
	keys, err := evalKeys(c.w.EC, b, c.w.Partition)
	defer ReleaseArrays(keys)
	if err == nil {
		err = keyTypes(keys, c.keySch)
	}
	if err != nil {
		return cutPart{}, err
	}
	rangeOf := make([]uint16, n)
	c.assign(keys, rangeOf)
	starts := make([]int, len(c.writers)+1)
	for _, r := range rangeOf {
		starts[r+1]++
	}
	for i := 1; i < len(starts); i++ {
		starts[i] += starts[i-1]
	}
	pos := make([]int, len(starts))
	copy(pos, starts)
	idx := make([]int32, n)
	for i, r := range rangeOf {
		idx[pos[r]] = int32(i)
		pos[r]++
	}
	t, err := TakeBatch(ctx, c.w.EC, schema, b.Columns(), idx)
	if err != nil {
		return cutPart{}, err
	}
	return cutPart{t: t, bytes: batchBytes(t), starts: starts}, nil
}

// assign sets rangeOf[i] to the range of row i: the number of
// splitters at or below its keys, so equal keys share a range.
func (c *rangeCut) assign(keys []arrow.Array, rangeOf []uint16) {
	if strs, ok := c.splitterStrings(keys); ok {
		x := keys[0].(*array.String)
		for i := range rangeOf {
			v := x.Value(i)
			rangeOf[i] = uint16(sort.Search(len(strs), func(k int) bool { return strs[k] > v }))
		}
		return
	}
	cmps := make([]func(a, b arrow.Array, i, j int) int, len(keys))
	for k, a := range keys {
		cmps[k] = crossComparator(a.DataType())
	}
	// compare as partitionComparator does: NULLs first
	above := func(s, r int) bool {
		for k, a := range keys {
			sp := c.sample[k]
			sn, rn := sp.IsNull(s), a.IsNull(r)
			if sn || rn {
				if sn && rn {
					continue
				}
				return rn
			}
			if v := cmps[k](sp, a, s, r); v != 0 {
				return v > 0
			}
		}
		return false
	}
	for i := range rangeOf {
		rangeOf[i] = uint16(sort.Search(len(c.splitters), func(k int) bool { return above(int(c.splitters[k]), i) }))
	}
}

// splitterStrings returns the splitters' keys when the key is one String
// column and neither it nor the splitters hold NULLs.
func (c *rangeCut) splitterStrings(keys []arrow.Array) ([]string, bool) {
	if len(keys) != 1 || keys[0].NullN() > 0 {
		return nil, false
	}
	if _, ok := keys[0].(*array.String); !ok {
		return nil, false
	}
	return splitterStrings(c.sample, c.splitters)
}

// finish closes the range files and lists the non-empty ones in key
// order; after an error it aborts the rest (their owner removes them).
func (c *rangeCut) finish(depth int) ([]rangeFile, error) {
	var out []rangeFile
	var err error
	for r, fw := range c.writers {
		if fw == nil {
			continue
		}
		c.writers[r] = nil
		if err != nil {
			fw.abort()
			continue
		}
		var run sortedRun
		if run, err = fw.finish(); err == nil {
			out = append(out, rangeFile{run: run, bytes: c.bytes[r], depth: depth})
		}
	}
	return out, err
}

// abort closes the range files after a failure (their owner removes
// them).
func (c *rangeCut) abort() {
	for r, fw := range c.writers {
		if fw != nil {
			fw.abort()
			c.writers[r] = nil
		}
	}
}

// newWindowSpillWriter creates a range file.
func newWindowSpillWriter(ec *EvalContext, files *spillFiles, schema *arrow.Schema) (*runWriter, error) {
	fh, err := files.create("icesql-window-*.arrows")
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(fh, 1<<16)
	return &runWriter{fh: fh, bw: bw, w: ipc.NewWriter(bw, ipc.WithSchema(schema), ipc.WithAllocator(ec.Mem))}, nil
}
