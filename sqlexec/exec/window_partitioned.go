package exec

import (
	"context"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The partitioned window path: when the input fits in half the memory
// budget (what Sort holds before it spills), rows are split into buckets
// by ranges of the PARTITION BY keys (splitters from a sorted sample),
// and the workers each take whole buckets: number the bucket's
// partitions through a hash table, sort the partitions (not the rows) by
// key, order the rows by (partition, ORDER BY keys, input position) with
// a counting sort and small per-partition sorts, and compute the calls.
// The output is ordered as the streaming path's. Past the budget the
// input is cut into range files computed one after the other
// (window_spill_ranges.go).

// windowBuckets is the number of hash buckets per worker: enough that
// workers finish close together.
const windowBuckets = 4

// windowBucketMinRows is the input size from which rows are split into
// several buckets (a variable for tests).
var windowBucketMinRows = 1 << 18

// windowPartitioned is the partitioned path's state: the computed
// buckets, emitted in order.
type windowPartitioned struct {
	out  []arrow.RecordBatch
	next int
}

func (p *windowPartitioned) release() {
	for _, b := range p.out[min(p.next, len(p.out)):] {
		if b != nil {
			b.Release()
		}
	}
	p.out, p.next = nil, 0
}

// partitionedNext emits the next computed bucket; nil at the end.
func (p *windowPartitioned) partitionedNext() arrow.RecordBatch {
	for p.next < len(p.out) {
		b := p.out[p.next]
		p.out[p.next] = nil
		p.next++
		if b != nil && b.NumRows() > 0 {
			return b
		}
		if b != nil {
			b.Release()
		}
	}
	return nil
}

// replayIterator yields held batches, then the rest of an input.
type replayIterator struct {
	held []arrow.RecordBatch
	rest RecordIterator
}

func (r *replayIterator) Schema() *arrow.Schema { return r.rest.Schema() }

func (r *replayIterator) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if len(r.held) > 0 {
		b := r.held[0]
		r.held = r.held[1:]
		return b, nil
	}
	return r.rest.Next(ctx)
}

func (r *replayIterator) Close() {
	ReleaseAll(r.held)
	r.held = nil
	r.rest.Close()
}

// rowLimited reports whether only the first RowLimit rows of each
// partition are needed: every call must be row_number, whose value on a
// row does not depend on the rows after it.
func (w *Window) rowLimited() bool {
	if w.RowLimit <= 0 {
		return false
	}
	for _, c := range w.Calls {
		if c.Func != WinRowNumber {
			return false
		}
	}
	return true
}

// runPartitioned reads in (depth: the range cuts its rows went through)
// and computes every bucket when it fits half the budget. Past it the
// held batches and the rest of in are cut into range files
// (window_spill_ranges.go) or, when that is off, replayed into the
// streaming sort path.
func (w *Window) runPartitioned(ctx context.Context, in RecordIterator, depth int) error {
	limit := w.EC.memoryLimit()
	var held []arrow.RecordBatch
	var heldBytes int64
	for {
		if err := ctx.Err(); err != nil {
			ReleaseAll(held)
			return err
		}
		b, err := in.Next(ctx)
		if err != nil {
			ReleaseAll(held)
			return err
		}
		if b == nil {
			break
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		held = append(held, b)
		heldBytes += batchBytes(b)
		if heldBytes > limit/2 {
			if !windowRangeSpill {
				w.streamFrom(&replayIterator{held: held, rest: in}, depth)
				return nil
			}
			return w.spillRanges(ctx, held, in, depth)
		}
	}
	return w.computeHeld(ctx, held)
}

// computeHeld computes every bucket of held (taken over).
func (w *Window) computeHeld(ctx context.Context, held []arrow.RecordBatch) error {
	if len(held) == 0 {
		return nil
	}
	all, err := w.concatParallel(held)
	ReleaseAll(held)
	if err != nil {
		return err
	}
	defer all.Release()
	out, err := w.computeBuckets(ctx, all)
	if err != nil {
		return err
	}
	w.part.out, w.part.next = out, 0
	return nil
}

// concatParallel concatenates the held batches column by column, the
// columns spread over the workers.
func (w *Window) concatParallel(held []arrow.RecordBatch) (arrow.RecordBatch, error) {
	if len(held) == 1 {
		held[0].Retain()
		return held[0], nil
	}
	schema := held[0].Schema()
	cols := make([]arrow.Array, schema.NumFields())
	n := 0
	for _, b := range held {
		n += int(b.NumRows())
	}
	err := parallelFor(w.EC.WorkerCount(), len(cols), func(c int) error {
		parts := make([]arrow.Array, len(held))
		for i, b := range held {
			parts[i] = b.Column(c)
		}
		a, err := array.Concatenate(parts, w.EC.Mem)
		cols[c] = a
		return err
	})
	defer ReleaseArrays(cols)
	if err != nil {
		return nil, err
	}
	return array.NewRecordBatch(schema, cols, int64(n)), nil
}

// parallelFor runs f(0..n-1) on up to workers goroutines and returns the
// first error.
func parallelFor(workers, n int, f func(i int) error) error {
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || errs[w] != nil {
					return
				}
				errs[w] = f(i)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// computeBuckets splits all's rows into hash buckets of the partition
// keys and computes each bucket on the workers.
func (w *Window) computeBuckets(ctx context.Context, all arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	n := int(all.NumRows())
	part, err := evalKeys(w.EC, all, w.Partition)
	defer ReleaseArrays(part)
	if err != nil {
		return nil, err
	}
	ordExprs := make([]Expr, len(w.Order))
	for i, k := range w.Order {
		ordExprs[i] = k.Expr
	}
	ord, err := evalKeys(w.EC, all, ordExprs)
	defer ReleaseArrays(ord)
	if err != nil {
		return nil, err
	}
	workers := w.EC.WorkerCount()
	const chunk = 1 << 16
	nb := 1
	if n >= windowBucketMinRows {
		nb = workers * windowBuckets
	}
	pcmp := partitionComparator(part)
	splitters := rangeSplitters(n, nb, pcmp)
	hashes := make([]uint64, n)
	bucketOf := make([]uint16, n)
	chunks := (n + chunk - 1) / chunk
	if err := parallelFor(workers, chunks, func(c int) error {
		from, to := c*chunk, min(n, (c+1)*chunk)
		hashRows(part, from, to, hashes)
		if strs, ok := splitterStrings(part, splitters); ok {
			x := part[0].(*array.String)
			for r := from; r < to; r++ {
				v := x.Value(r)
				bucketOf[r] = uint16(sort.Search(len(strs), func(k int) bool { return strs[k] > v }))
			}
			return nil
		}
		for r := from; r < to; r++ {
			// the first splitter above the row: equal keys share a bucket
			bucketOf[r] = uint16(sort.Search(len(splitters), func(k int) bool { return pcmp(int(splitters[k]), r) > 0 }))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	buckets := bucketRows(bucketOf, len(splitters)+1)
	nb = len(buckets)
	out := make([]arrow.RecordBatch, nb)
	err = parallelFor(workers, nb, func(bk int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		order := w.orderBucket(buckets[bk], hashes, part, ord, pcmp)
		if len(order) == 0 {
			return nil
		}
		rows, err := TakeBatch(ctx, w.EC, all.Schema(), all.Columns(), order)
		if err != nil {
			return err
		}
		defer rows.Release()
		out[bk], err = w.computeBatch(ctx, rows)
		return err
	})
	if err != nil {
		for _, b := range out {
			if b != nil {
				b.Release()
			}
		}
		return nil, err
	}
	return out, nil
}

// splitterStrings returns the splitters' keys when the partition key is
// one String column without NULLs (compared as pcmp does, by bytes).
func splitterStrings(part []arrow.Array, splitters []int32) ([]string, bool) {
	if len(part) != 1 || part[0].NullN() > 0 {
		return nil, false
	}
	x, ok := part[0].(*array.String)
	if !ok {
		return nil, false
	}
	out := make([]string, len(splitters))
	for k, r := range splitters {
		out[k] = x.Value(int(r))
	}
	return out, true
}

// rangeSplitters picks up to nb-1 rows whose keys cut the input into
// ranges of about equal size, from a sorted sample of the rows.
func rangeSplitters(n, nb int, pcmp func(i, j int) int) []int32 {
	if nb <= 1 || n == 0 {
		return nil
	}
	m := min(n, 256*nb)
	sample := make([]int32, m)
	for i := range sample {
		sample[i] = int32(int64(i) * int64(n) / int64(m))
	}
	slices.SortFunc(sample, func(x, y int32) int { return pcmp(int(x), int(y)) })
	var out []int32
	for k := 1; k < nb; k++ {
		s := sample[k*m/nb]
		if len(out) > 0 && pcmp(int(out[len(out)-1]), int(s)) == 0 {
			continue
		}
		out = append(out, s)
	}
	return out
}

// bucketRows lists each bucket's rows in input order (a counting sort by
// bucket).
func bucketRows(bucketOf []uint16, nb int) [][]int32 {
	counts := make([]int, nb)
	for _, b := range bucketOf {
		counts[b]++
	}
	flat := make([]int32, len(bucketOf))
	out := make([][]int32, nb)
	off := 0
	for b, c := range counts {
		out[b] = flat[off : off : off+c]
		off += c
	}
	for i, b := range bucketOf {
		out[b] = append(out[b], int32(i))
	}
	return out
}

// partitionComparator orders rows by the partition keys, NULLs first (as
// the streaming path's sort does).
func partitionComparator(part []arrow.Array) func(i, j int) int {
	cmps := make([]func(i, j int) int, len(part))
	for k, a := range part {
		cmps[k] = rowComparator(a)
	}
	return func(i, j int) int {
		for k, a := range part {
			in, jn := a.IsNull(i), a.IsNull(j)
			if in || jn {
				if in && jn {
					continue
				}
				if in {
					return -1
				}
				return 1
			}
			if c := cmps[k](i, j); c != 0 {
				return c
			}
		}
		return 0
	}
}

// orderBucket numbers the partitions of a bucket's rows (ascending input
// positions) and returns the rows ordered by partition number, ORDER BY
// keys and input position; with a row limit, only each partition's
// first RowLimit rows.
func (w *Window) orderBucket(rows []int32, hashes []uint64, part, ord []arrow.Array, pcmp func(i, j int) int) []int32 {
	if len(rows) == 0 {
		return nil
	}
	eq := rowsEqual(part)
	size := 1
	for size < 2*len(rows) {
		size <<= 1
	}
	mask := uint64(size - 1)
	slots := make([]int32, size) // partition number + 1; 0: empty
	var reps []int32             // per partition, its first row
	pid := make([]int32, len(rows))
	for i, r := range rows {
		h := hashes[r]
		s := h & mask
		for {
			g := slots[s]
			if g == 0 {
				reps = append(reps, r)
				slots[s] = int32(len(reps))
				pid[i] = int32(len(reps) - 1)
				break
			}
			if rep := reps[g-1]; hashes[rep] == h && eq(int(rep), int(r)) {
				pid[i] = g - 1
				break
			}
			s = (s + 1) & mask
		}
	}
	// number the partitions in key order, then a counting sort by that
	// number keeps input order within each
	byKey := make([]int32, len(reps))
	for p := range byKey {
		byKey[p] = int32(p)
	}
	slices.SortFunc(byKey, func(x, y int32) int { return pcmp(int(reps[x]), int(reps[y])) })
	rank := make([]int32, len(reps))
	for i, p := range byKey {
		rank[p] = int32(i)
	}
	for i, p := range pid {
		pid[i] = rank[p]
	}
	starts := make([]int32, len(reps)+1)
	for _, p := range pid {
		starts[p+1]++
	}
	for p := 1; p < len(starts); p++ {
		starts[p] += starts[p-1]
	}
	order := make([]int32, len(rows))
	fill := slices.Clone(starts[:len(reps)])
	for i, p := range pid {
		order[fill[p]] = rows[i]
		fill[p]++
	}
	limit := -1
	if w.rowLimited() {
		limit = int(min(w.RowLimit, int64(len(rows))))
	}
	cmpRows := w.orderComparator(ord)
	kept := order[:0]
	for p := range reps {
		grp := order[starts[p]:starts[p+1]]
		switch {
		case cmpRows == nil || len(grp) <= 1:
		case limit == 1:
			// only the first row is kept: find it, sort nothing
			m := 0
			for i := 1; i < len(grp); i++ {
				if cmpRows(grp[i], grp[m]) < 0 {
					m = i
				}
			}
			grp[0], grp[m] = grp[m], grp[0]
		default:
			slices.SortFunc(grp, cmpRows)
		}
		if limit >= 0 && len(grp) > limit {
			grp = grp[:limit]
		}
		kept = append(kept, grp...) // never overtakes the group it copies
	}
	return kept
}

// orderComparator compares rows by the ORDER BY keys, then by input
// position (nil without ORDER BY: input order is the order).
func (w *Window) orderComparator(ord []arrow.Array) func(x, y int32) int {
	if len(ord) == 0 {
		return nil
	}
	cmps := make([]func(i, j int) int, len(ord))
	for i, k := range ord {
		cmps[i] = rowComparator(k)
	}
	return func(x, y int32) int { return compareRows(w.Order, ord, cmps, 0, x, y) }
}
