package exec

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The top-N reduction of a row-limited window (rn = 1, rn <= k): before
// the window reads its input, the workers stream it through per-worker
// hash tables of the partition keys that keep, per partition, the k best
// rows seen so far by (ORDER BY keys, input position). A row is dropped
// only when its partition already holds k rows before it in that order,
// so the kept rows are a superset of every partition's first k rows, and
// the window computed over them (in input order, so that its position
// tie rule sees the same order) gives the same rows as over all of the
// input. The kept rows are copied out of their batch, so the reduction
// holds about partitions x k x workers rows instead of the input. Past
// half the memory budget it stops and the window reads what was kept
// followed by the rest of the input (its own spilling path).

// windowTopN enables the reduction (a variable for tests).
var windowTopN = true

// WindowTopNMaxRows is the largest row limit reduced: past it the per
// partition lists cost more than the window's own cut.
const WindowTopNMaxRows = 64 // topNEmit packs a row number in 8 bits

// windowTopNSlack is how many displaced rows a worker holds besides
// twice its candidates before it re-copies them (a variable for tests).
var windowTopNSlack = 1 << 16

// topNPending marks a candidate of the batch being processed: the low
// half is its row in that batch.
const topNPending = uint64(1) << 63

// topNSeg is the kept rows of one input batch: the input columns, then
// the evaluated ORDER BY keys.
type topNSeg struct {
	seq int
	b   arrow.RecordBatch
}

// topNWorker is one worker's reduction state.
type topNWorker struct {
	w    *Window
	k    int
	gt   *groupTable
	refs []uint64 // group g's candidates: refs[g*k : g*k+cnt[g]], best first; seg<<32 | row
	cnt  []int32
	segs []topNSeg
	cmps []func(a, b arrow.Array, i, j int) int
	// schema is the input's; ordTypes the ORDER BY keys' types in the
	// first batch, which cmps and the segments assume
	schema   *arrow.Schema
	ordTypes []arrow.DataType
	rows     int // rows in segs
	live     int // of them, candidates
	// per-batch scratch
	ids, pend, pos []int32
	alive          []bool
	bytes          int64 // segs' bytes
}

// useTopN reports whether the window's input is reduced first.
func (w *Window) useTopN() bool {
	return windowTopN && len(w.Partition) > 0 && w.rowLimited() && w.RowLimit <= WindowTopNMaxRows
}

// runTopN reads in through the reduction. When it ends within the
// budget the kept rows are the answer (topNFinish); else the window
// computes over the kept rows in input order, then the rest of in.
func (w *Window) runTopN(ctx context.Context, in RecordIterator) error {
	workers := max(1, w.EC.WorkerCount())
	if w.SerialKeys {
		workers = 1
	}
	budget := w.EC.memoryLimit() / 2
	var (
		mu    sync.Mutex
		seq   int
		used  atomic.Int64
		full  atomic.Bool
		stop  atomic.Bool
		wg    sync.WaitGroup
		errs  = make([]error, workers)
		state = make([]*topNWorker, workers)
	)
	for i := range workers {
		st := &topNWorker{w: w, k: int(w.RowLimit), gt: newGroupTable(len(w.Partition)), schema: in.Schema()}
		state[i] = st
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if err := ctx.Err(); err != nil {
					errs[i] = err
					return
				}
				mu.Lock()
				if stop.Load() {
					mu.Unlock()
					return
				}
				b, err := in.Next(ctx)
				s := seq
				seq++
				if err != nil || b == nil {
					stop.Store(true)
					mu.Unlock()
					errs[i] = err
					return
				}
				mu.Unlock()
				before := st.bytes + st.gt.bytes + int64(len(st.refs))*8
				err = st.add(ctx, s, b)
				b.Release()
				if err == nil && used.Load() > budget {
					err = st.compact(ctx)
				}
				used.Add(st.bytes + st.gt.bytes + int64(len(st.refs))*8 - before)
				if err != nil {
					errs[i] = err
					stop.Store(true)
					return
				}
				if used.Load() > budget {
					full.Store(true)
					stop.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			for _, st := range state {
				releaseSegs(st.segs)
			}
			return err
		}
	}
	if !full.Load() {
		out, err := w.topNFinish(ctx, state, in.Schema())
		if err != nil {
			return err
		}
		w.part.out, w.part.next = out, 0
		return nil
	}
	var segs []topNSeg
	for _, st := range state {
		segs = append(segs, st.segs...)
	}
	slices.SortFunc(segs, func(a, b topNSeg) int { return a.seq - b.seq })
	held := make([]arrow.RecordBatch, 0, len(segs))
	nIn := in.Schema().NumFields()
	for _, s := range segs {
		// displaced rows stay: a superset too, which the window cuts
		held = append(held, array2Batch(in.Schema(), s.b, nIn))
		s.b.Release()
	}
	// the window reads (and Close closes) the kept rows, then the rest
	w.Input = &replayIterator{held: held, rest: in}
	return w.runPartitioned(ctx, w.Input, 0)
}

// array2Batch is b's first n columns as a batch of schema.
func array2Batch(schema *arrow.Schema, b arrow.RecordBatch, n int) arrow.RecordBatch {
	return array.NewRecordBatch(schema, b.Columns()[:n], b.NumRows())
}

func releaseSegs(segs []topNSeg) {
	for _, s := range segs {
		s.b.Release()
	}
}

// add offers batch b (input sequence s) to the worker's partitions.
func (st *topNWorker) add(ctx context.Context, s int, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	w := st.w
	if int(b.NumCols()) != st.schema.NumFields() {
		return &BatchShapeError{Problem: "column count", Want: st.schema.NumFields(), Got: int(b.NumCols())}
	}
	for i, f := range st.schema.Fields() {
		if got := b.Column(i).DataType(); !arrow.TypeEqual(got, f.Type) {
			return &BatchTypeError{Column: f.Name, Want: f.Type.String(), Got: got.String()}
		}
	}
	part, err := evalKeys(w.EC, b, w.Partition)
	defer ReleaseArrays(part)
	if err != nil {
		return err
	}
	ordExprs := make([]Expr, len(w.Order))
	for i, k := range w.Order {
		ordExprs[i] = k.Expr
	}
	ord, err := evalKeys(w.EC, b, ordExprs)
	defer ReleaseArrays(ord)
	if err != nil {
		return err
	}
	if err := st.checkTypes(ord); err != nil {
		return err
	}
	st.ids = slices.Grow(st.ids[:0], n)[:n]
	st.gt.assign(part, st.ids, nil, false)
	k := st.k
	if need := st.gt.nGroups; need > len(st.cnt) {
		st.cnt = append(st.cnt, make([]int32, need-len(st.cnt))...)
		st.refs = append(st.refs, make([]uint64, need*k-len(st.refs))...)
	}
	// before: does row r of this batch come before candidate ref?
	before := func(r int, ref uint64) bool {
		if ref&topNPending != 0 {
			return st.cmpRows(ord, r, ord, int(uint32(ref))) < 0
		}
		sb := st.segs[ref>>32].b
		return st.cmpRows(ord, r, sb.Columns()[len(sb.Columns())-len(ord):], int(uint32(ref))) < 0
	}
	st.pend = st.pend[:0]
	for r, g := range st.ids {
		list := st.refs[int(g)*k : int(g)*k+k]
		c := int(st.cnt[g])
		if c == k && !before(r, list[c-1]) {
			continue
		}
		if c == k {
			st.drop(list[c-1])
			c--
		} else {
			st.cnt[g]++
		}
		j := c
		for j > 0 && before(r, list[j-1]) {
			list[j] = list[j-1]
			j--
		}
		list[j] = topNPending | uint64(r)
		st.pend = append(st.pend, int32(r))
	}
	if len(st.pend) == 0 {
		return nil
	}
	return st.keep(ctx, s, b, ord)
}

// drop forgets a displaced candidate.
func (st *topNWorker) drop(ref uint64) {
	if ref&topNPending == 0 {
		st.live--
	}
}

// checkTypes fixes the ORDER BY keys' types at the first batch and
// refuses a batch whose keys differ (the comparators assume them).
func (st *topNWorker) checkTypes(ord []arrow.Array) error {
	if st.ordTypes == nil {
		for _, a := range ord {
			st.ordTypes = append(st.ordTypes, a.DataType())
			st.cmps = append(st.cmps, crossComparator(a.DataType()))
		}
		return nil
	}
	for i, a := range ord {
		if !arrow.TypeEqual(a.DataType(), st.ordTypes[i]) {
			return &BatchTypeError{Column: "ORDER BY key " + strconv.Itoa(i+1), Want: st.ordTypes[i].String(), Got: a.DataType().String()}
		}
	}
	return nil
}

// keep copies the batch's surviving candidates into a new segment and
// points their refs at it.
func (st *topNWorker) keep(ctx context.Context, s int, b arrow.RecordBatch, ord []arrow.Array) error {
	n, k := int(b.NumRows()), st.k
	st.alive = slices.Grow(st.alive[:0], n)[:n]
	clear(st.alive)
	for _, r := range st.pend {
		g := int(st.ids[r])
		for _, ref := range st.refs[g*k : g*k+int(st.cnt[g])] {
			if ref&topNPending != 0 {
				st.alive[uint32(ref)] = true
			}
		}
	}
	st.pos = slices.Grow(st.pos[:0], n)[:n]
	kept := st.pend[:0]
	for _, r := range st.pend {
		if st.alive[r] {
			st.pos[r] = int32(len(kept))
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	cols := append(append([]arrow.Array{}, b.Columns()...), ord...)
	seg, err := TakeBatch(ctx, st.w.EC, topNSchema(b.Schema(), ord), cols, kept)
	if err != nil {
		return err
	}
	si := uint64(len(st.segs)) << 32
	for _, r := range kept {
		g := int(st.ids[r])
		list := st.refs[g*k : g*k+int(st.cnt[g])]
		for i, ref := range list {
			if ref&topNPending != 0 {
				list[i] = si | uint64(st.pos[uint32(ref)])
			}
		}
	}
	st.segs = append(st.segs, topNSeg{seq: s, b: seg})
	st.bytes += batchBytes(seg)
	st.rows += len(kept)
	st.live += len(kept)
	if st.rows > 2*st.live+windowTopNSlack {
		return st.compact(ctx)
	}
	return nil
}

// topNSchema is a segment's schema: b's fields, then the ORDER BY keys.
func topNSchema(in *arrow.Schema, ord []arrow.Array) *arrow.Schema {
	fields := slices.Clone(in.Fields())
	for _, a := range ord {
		fields = append(fields, arrow.Field{Name: "k", Type: a.DataType(), Nullable: true})
	}
	return arrow.NewSchema(fields, nil)
}

// compact re-copies the segments whose rows are mostly displaced.
func (st *topNWorker) compact(ctx context.Context) error {
	// per segment, its live rows in order
	rows := make([][]int32, len(st.segs))
	for g := range st.cnt {
		for _, ref := range st.refs[g*st.k : g*st.k+int(st.cnt[g])] {
			rows[ref>>32] = append(rows[ref>>32], int32(uint32(ref)))
		}
	}
	remap := make([]uint64, len(st.segs)) // old segment -> new index << 32
	var out []topNSeg
	var bytes int64
	total := 0
	for i, s := range st.segs {
		rs := rows[i]
		if len(rs) == 0 {
			s.b.Release()
			continue
		}
		remap[i] = uint64(len(out)) << 32
		if 2*len(rs) > int(s.b.NumRows()) {
			out = append(out, s)
			bytes += batchBytes(s.b)
			total += int(s.b.NumRows())
			rows[i] = nil // kept as is
			continue
		}
		slices.Sort(rs)
		nb, err := TakeBatch(ctx, st.w.EC, s.b.Schema(), s.b.Columns(), rs)
		if err != nil {
			releaseSegs(out)
			return err
		}
		s.b.Release()
		out = append(out, topNSeg{seq: s.seq, b: nb})
		bytes += batchBytes(nb)
		total += len(rs)
	}
	for g := range st.cnt {
		list := st.refs[g*st.k : g*st.k+int(st.cnt[g])]
		for i, ref := range list {
			old, r := ref>>32, uint32(ref)
			if rs := rows[old]; rs != nil {
				at, _ := slices.BinarySearch(rs, int32(r))
				r = uint32(at)
			}
			list[i] = remap[old] | uint64(r)
		}
	}
	st.segs, st.bytes, st.rows = out, bytes, total
	return nil
}

// cmpRows compares row i of a with row j of b by the ORDER BY keys, as
// orderComparator does (without the position tie).
func (st *topNWorker) cmpRows(a []arrow.Array, i int, b []arrow.Array, j int) int {
	for ki, k := range st.w.Order {
		x, y := a[ki], b[ki]
		xn, yn := x.IsNull(i), y.IsNull(j)
		if xn || yn {
			if xn && yn {
				continue
			}
			if xn == k.NullsFirst {
				return -1
			}
			return 1
		}
		if c := st.cmps[ki](x, y, i, j); c != 0 {
			if k.Desc {
				return -c
			}
			return c
		}
	}
	return 0
}
