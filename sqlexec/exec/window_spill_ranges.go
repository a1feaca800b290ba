package exec

import (
	"bufio"
	"context"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// Past half the budget the partitioned path cuts its input into ranges
// of the PARTITION BY keys, one spill file per range (splitters from a
// sample of the held rows), so every row of a partition lands in one
// file. The files are then computed in key order, consecutive ones
// together while they fit half the budget, by the in-memory path: the
// output order is the streaming path's. A file still too big is cut
// again from its own sample; one that cannot be cut (one huge partition)
// or is past windowSpillDepth cuts goes through the streaming sort path
// alone, so memory stays bounded.

// windowRangeSpill turns the range spill on (tests turn it off to get
// the streaming path past the budget).
var windowRangeSpill = true

// windowSpillRanges is the number of range files of one cut: enough
// that an input many times the budget still gives files that fit.
const windowSpillRanges = 64

// windowSpillDepth bounds the cuts of one row: a bad sample is cut
// again, a skewed partition does not cut forever.
const windowSpillDepth = 3

// windowSpill is the range spill's state.
type windowSpill struct {
	files spillFiles
	queue []rangeFile // not yet computed, in key order
	// cur is the input being computed (range files, possibly replayed
	// into the streaming path); closing it removes its files.
	cur RecordIterator
	// for tests
	cuts, streamed int
}

// rangeFile is one range's spill file, the estimated size of its rows
// in memory, and the cuts its rows went through.
type rangeFile struct {
	run   sortedRun
	bytes int64
	depth int
}

func (s *windowSpill) closeCur() {
	if s.cur != nil {
		s.cur.Close()
		s.cur = nil
	}
}

// release closes the current input and removes every spill file.
func (s *windowSpill) release() {
	s.closeCur()
	s.files.removeAll()
	s.queue = nil
}

// nextRanges computes the next range files: consecutive ones within a
// quarter of the budget together (runPartitioned holds up to half: the
// estimates run low, small batches read back take more room), or one
// bigger one alone (which runPartitioned cuts again or streams).
func (w *Window) nextRanges(ctx context.Context) error {
	s := &w.spill
	target := w.EC.memoryLimit() / 4
	n, bytes, depth := 1, s.queue[0].bytes, s.queue[0].depth
	for n < len(s.queue) && bytes+s.queue[n].bytes <= target {
		bytes += s.queue[n].bytes
		depth = max(depth, s.queue[n].depth)
		n++
	}
	group := s.queue[:n]
	s.queue = s.queue[n:]
	its := make([]*spillRunIter, len(group))
	for i, f := range group {
		its[i] = newSpillRunIter(w.EC, &s.files, f.run, w.Input.Schema())
	}
	s.cur = &runsIterator{schema: w.Input.Schema(), its: its}
	if err := w.runPartitioned(ctx, s.cur, depth); err != nil {
		return err
	}
	if w.stream.sort == nil {
		s.closeCur() // read and computed: its files can go
	}
	return nil
}

// spillRanges cuts held (taken over) and the rest of in into range
// files queued ahead of the others. It streams instead when the held
// rows give no splitters (one partition) or depth is exhausted.
func (w *Window) spillRanges(ctx context.Context, held []arrow.RecordBatch, in RecordIterator, depth int) error {
	var sample []arrow.Array
	var splitters []int32
	if depth < windowSpillDepth {
		var err error
		sample, splitters, err = w.rangeSample(ctx, held)
		defer ReleaseArrays(sample)
		if err != nil {
			ReleaseAll(held)
			return err
		}
	}
	if len(splitters) == 0 {
		w.streamFrom(&replayIterator{held: held, rest: in}, depth)
		return nil
	}
	w.spill.cuts++
	w.spill.files.dir = w.EC.SpillDir
	cut := &rangeCut{w: w, sample: sample, splitters: splitters, writers: make([]*runWriter, len(splitters)+1), bytes: make([]int64, len(splitters)+1)}
	err := cut.addAll(ctx, held, in)
	ReleaseAll(held)
	if err != nil {
		cut.abort()
		return err
	}
	files, err := cut.finish(depth + 1)
	if err != nil {
		return err
	}
	w.spill.queue = append(files, w.spill.queue...)
	return nil
}

// streamFrom hands in to the streaming sort path: the operator's input
// at depth 0, a range's rows (closed when streamed) past it.
func (w *Window) streamFrom(in RecordIterator, depth int) {
	if depth == 0 {
		w.Input = in
	} else {
		w.spill.cur = in
		w.spill.streamed++
	}
	w.start(in)
}

// rangeSample evaluates the partition keys of up to 256 rows per range
// spread over held and returns them with the splitters among them.
func (w *Window) rangeSample(ctx context.Context, held []arrow.RecordBatch) ([]arrow.Array, []int32, error) {
	total := 0
	for _, b := range held {
		total += int(b.NumRows())
	}
	m := min(total, 256*windowSpillRanges)
	keySch := partitionSchema(w.Partition)
	var parts []arrow.RecordBatch
	defer func() { ReleaseAll(parts) }()
	next, base := 0, 0 // next sample, first row of the batch
	for _, b := range held {
		var idx []int32
		for ; next < m; next++ {
			r := int(int64(next)*int64(total)/int64(m)) - base
			if r >= int(b.NumRows()) {
				break
			}
			idx = append(idx, int32(r))
		}
		base += int(b.NumRows())
		if len(idx) == 0 {
			continue
		}
		keys, err := evalKeys(w.EC, b, w.Partition)
		if err != nil {
			ReleaseArrays(keys)
			return nil, nil, err
		}
		p, err := TakeBatch(ctx, w.EC, keySch, keys, idx)
		ReleaseArrays(keys)
		if err != nil {
			return nil, nil, err
		}
		parts = append(parts, p)
	}
	cols, n, err := concatBatches(w.EC, keySch, parts)
	if err != nil {
		return nil, nil, err
	}
	return cols, rangeSplitters(n, windowSpillRanges, partitionComparator(cols)), nil
}

func partitionSchema(keys []Expr) *arrow.Schema {
	fields := make([]arrow.Field, len(keys))
	for i, k := range keys {
		fields[i] = arrow.Field{Name: "k", Type: k.DataType(), Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// rangeCut writes rows to the range files of one cut.
type rangeCut struct {
	w         *Window
	sample    []arrow.Array // partition keys of the sampled rows
	splitters []int32       // rows of sample
	writers   []*runWriter  // per range, created when first written
	bytes     []int64       // per range, estimated size in memory
	rangeOf   []uint16
}

func (c *rangeCut) addAll(ctx context.Context, held []arrow.RecordBatch, in RecordIterator) error {
	for _, b := range held {
		if err := c.add(ctx, b); err != nil {
			return err
		}
	}
	return drainBatches(ctx, in, c.add)
}

// add writes b's rows to their ranges.
func (c *rangeCut) add(ctx context.Context, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	keys, err := evalKeys(c.w.EC, b, c.w.Partition)
	defer ReleaseArrays(keys)
	if err != nil {
		return err
	}
	c.rangeOf = slices.Grow(c.rangeOf[:0], n)[:n]
	c.assign(keys)
	// a counting sort by range keeps input order within each
	starts := make([]int, len(c.writers)+1)
	for _, r := range c.rangeOf {
		starts[r+1]++
	}
	for i := 1; i < len(starts); i++ {
		starts[i] += starts[i-1]
	}
	pos := slices.Clone(starts)
	idx := make([]int32, n)
	for i, r := range c.rangeOf {
		idx[pos[r]] = int32(i)
		pos[r]++
	}
	t, err := TakeBatch(ctx, c.w.EC, b.Schema(), b.Columns(), idx)
	if err != nil {
		return err
	}
	defer t.Release()
	taken := batchBytes(t)
	for r := range c.writers {
		lo, hi := starts[r], starts[r+1]
		if lo == hi {
			continue
		}
		if c.writers[r] == nil {
			fw, err := newWindowSpillWriter(c.w.EC, &c.w.spill.files, b.Schema())
			if err != nil {
				return err
			}
			c.writers[r] = fw
		}
		sl := t.NewSlice(int64(lo), int64(hi))
		err := c.writers[r].write(sl)
		sl.Release()
		if err != nil {
			return err
		}
		c.bytes[r] += taken * int64(hi-lo) / int64(n)
	}
	return nil
}

// assign sets rangeOf[i] to the range of row i: the number of
// splitters at or below its keys, so equal keys share a range.
func (c *rangeCut) assign(keys []arrow.Array) {
	if strs, ok := c.splitterStrings(keys); ok {
		x := keys[0].(*array.String)
		for i := range c.rangeOf {
			v := x.Value(i)
			c.rangeOf[i] = uint16(sort.Search(len(strs), func(k int) bool { return strs[k] > v }))
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
	for i := range c.rangeOf {
		c.rangeOf[i] = uint16(sort.Search(len(c.splitters), func(k int) bool { return above(int(c.splitters[k]), i) }))
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
// order; after an error it aborts them (their owner removes them).
func (c *rangeCut) finish(depth int) ([]rangeFile, error) {
	var out []rangeFile
	var err error
	for r, fw := range c.writers {
		if fw == nil {
			continue
		}
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

// runsIterator streams range files one after the other.
type runsIterator struct {
	schema *arrow.Schema
	its    []*spillRunIter
}

func (r *runsIterator) Schema() *arrow.Schema { return r.schema }

func (r *runsIterator) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for len(r.its) > 0 {
		b, err := r.its[0].Next(ctx)
		if err != nil || b != nil {
			return b, err
		}
		r.its[0].Close()
		r.its = r.its[1:]
	}
	return nil, nil
}

func (r *runsIterator) Close() {
	for _, it := range r.its {
		it.Close()
	}
	r.its = nil
}
