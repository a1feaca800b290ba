package exec

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
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

// windowGroupShare is the part of the budget, by estimate, of the range
// files computed together (a variable for tests: 1 overfills groups).
var windowGroupShare int64 = 4

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
	target := w.EC.memoryLimit() / windowGroupShare
	n, bytes, depth := 1, s.queue[0].bytes, s.queue[0].depth
	for n < len(s.queue) && bytes+s.queue[n].bytes <= target {
		bytes += s.queue[n].bytes
		depth = max(depth, s.queue[n].depth)
		n++
	}
	group := s.queue[:n]
	s.queue = s.queue[n:]
	if n > 1 && bytes <= target {
		held, err := w.loadRanges(ctx, group)
		if err != nil {
			return err
		}
		if held != nil {
			for _, f := range group {
				s.files.remove(f.run.path)
			}
			return w.computeHeld(ctx, held)
		}
	}
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

// loadRanges reads the files of group on the workers, in order; nil
// when they pass half the budget after all (the estimates run low).
func (w *Window) loadRanges(ctx context.Context, group []rangeFile) ([]arrow.RecordBatch, error) {
	half := w.EC.memoryLimit() / 2
	var total atomic.Int64
	parts := make([][]arrow.RecordBatch, len(group))
	err := parallelFor(w.EC.WorkerCount(), len(group), func(i int) error {
		c, err := openRun(w.EC, group[i].run, w.Input.Schema(), 0)
		if err != nil {
			return err
		}
		defer c.close()
		for c.batch != nil && total.Load() <= half {
			if err := ctx.Err(); err != nil {
				return err
			}
			c.batch.Retain()
			parts[i] = append(parts[i], c.batch)
			total.Add(batchBytes(c.batch))
			if err := c.load(); err != nil {
				return err
			}
		}
		return nil
	})
	var held []arrow.RecordBatch
	for _, p := range parts {
		held = append(held, p...)
	}
	if err != nil || total.Load() > half {
		ReleaseAll(held)
		return nil, err
	}
	return held, nil
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
	cut := &rangeCut{w: w, sample: sample, keySch: partitionSchema(w.Partition), splitters: splitters, writers: make([]*runWriter, len(splitters)+1), bytes: make([]int64, len(splitters)+1)}
	if err := cut.addAll(ctx, held, in); err != nil {
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
		if err == nil {
			err = keyTypes(keys, keySch)
		}
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

// keyTypes checks that evaluated keys have the types of want (cutting
// compares them with the sample's).
func keyTypes(keys []arrow.Array, want *arrow.Schema) error {
	for i, k := range keys {
		if f := want.Field(i); !arrow.TypeEqual(k.DataType(), f.Type) {
			return &BatchTypeError{Column: fmt.Sprintf("partition key %d", i+1), Want: f.Type.String(), Got: k.DataType().String()}
		}
	}
	return nil
}

func partitionSchema(keys []Expr) *arrow.Schema {
	fields := make([]arrow.Field, len(keys))
	for i, k := range keys {
		fields[i] = arrow.Field{Name: "k", Type: k.DataType(), Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
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
