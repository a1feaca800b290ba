package exec

import (
	"cmp"
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// topNOutRows is the size of the batches the reduction emits.
const topNOutRows = 1 << 16

// topNFinish merges the workers' candidates into the first worker's
// table (ties across workers broken by input position, as within one)
// and emits each partition's first RowLimit rows with their row
// numbers, in input order rather than the window's sorted order (which
// nothing above relies on: the planner only takes this path under a
// filter on the row number).
func (w *Window) topNFinish(ctx context.Context, state []*topNWorker, in *arrow.Schema) ([]arrow.RecordBatch, error) {
	base := state[0]
	segs := base.segs
	defer func() { releaseSegs(segs) }()
	for _, o := range state[1:] {
		off := uint64(len(segs)) << 32
		segs = append(segs, o.segs...)
		if o.gt.nGroups == 0 {
			continue
		}
		if err := base.adoptTypes(o); err != nil {
			return nil, err
		}
		ids := base.mergeGroups(o, len(state))
		base.growLists()
		k := base.k
		tmp := make([]uint64, 0, 2*k)
		for g, bg := range ids {
			tmp = base.mergeList(tmp[:0], int(bg), o.refs[g*k:g*k+int(o.cnt[g])], off, segs)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return w.topNEmit(ctx, base, segs, in)
}

// adoptTypes takes o's ORDER BY key types when st saw no batch, and
// refuses workers whose keys differ.
func (st *topNWorker) adoptTypes(o *topNWorker) error {
	if st.ordTypes == nil {
		st.ordTypes, st.cmps = o.ordTypes, o.cmps
		return nil
	}
	for i, t := range o.ordTypes {
		if !arrow.TypeEqual(t, st.ordTypes[i]) {
			return &BatchTypeError{Column: "ORDER BY key", Want: st.ordTypes[i].String(), Got: t.String()}
		}
	}
	return nil
}

// mergeGroups adds o's groups that st lacks; per group of o, its group
// in st.
func (st *topNWorker) mergeGroups(o *topNWorker, workers int) []int32 {
	gt := st.gt
	if gt.nGroups == 0 && o.gt.str {
		gt.str = true
	}
	if gt.str && o.gt.str {
		return gt.mergeStrings(o.gt, workers)
	}
	ids := make([]int32, o.gt.nGroups)
	for g := range ids {
		id, ok := gt.lookup(o.gt, g)
		if !ok {
			id = gt.addFrom(o.gt, g)
		}
		ids[g] = id
	}
	return ids
}

// growLists gives every group of the table its candidate list.
func (st *topNWorker) growLists() {
	if need := st.gt.nGroups; need > len(st.cnt) {
		st.cnt = append(st.cnt, make([]int32, need-len(st.cnt))...)
		st.refs = append(st.refs, make([]uint64, need*st.k-len(st.refs))...)
	}
}

// mergeList merges other (refs into segs less off) into group g's list,
// keeping the first k; tmp is scratch, returned for reuse.
func (st *topNWorker) mergeList(tmp []uint64, g int, other []uint64, off uint64, segs []topNSeg) []uint64 {
	k := st.k
	list := st.refs[g*k : g*k+int(st.cnt[g])]
	i, j := 0, 0
	for len(tmp) < k && (i < len(list) || j < len(other)) {
		if j == len(other) || i < len(list) && st.cmpRefs(segs, list[i], other[j]+off) <= 0 {
			tmp = append(tmp, list[i])
			i++
		} else {
			tmp = append(tmp, other[j]+off)
			j++
		}
	}
	copy(st.refs[g*k:], tmp)
	st.cnt[g] = int32(len(tmp))
	return tmp
}

// cmpRefs orders two candidates by the ORDER BY keys, then input
// position (segment sequence, then row: segments keep input order).
func (st *topNWorker) cmpRefs(segs []topNSeg, a, b uint64) int {
	sa, sb := segs[a>>32], segs[b>>32]
	nk := len(st.w.Order)
	ca, cb := sa.b.Columns(), sb.b.Columns()
	if c := st.cmpRows(ca[len(ca)-nk:], int(uint32(a)), cb[len(cb)-nk:], int(uint32(b))); c != 0 {
		return c
	}
	if c := cmp.Compare(sa.seq, sb.seq); c != 0 {
		return c
	}
	return cmp.Compare(uint32(a), uint32(b))
}

// topNEmit emits every group's candidates with their row numbers, in
// input order (which makes the output, and sums over it, the same from
// run to run whichever worker read which batch), in batches of about
// topNOutRows rows gathered on the workers.
func (w *Window) topNEmit(ctx context.Context, st *topNWorker, segs []topNSeg, in *arrow.Schema) ([]arrow.RecordBatch, error) {
	// per segment, its kept rows as row<<8 | row number
	k := st.k
	kept := make([][]uint64, len(segs))
	for g, c := range st.cnt {
		for i, ref := range st.refs[g*k : g*k+int(c)] {
			kept[ref>>32] = append(kept[ref>>32], uint64(uint32(ref))<<8|uint64(i+1))
		}
	}
	bySeq := make([]int, 0, len(segs))
	for i := range segs {
		if len(kept[i]) > 0 {
			bySeq = append(bySeq, i)
		}
	}
	slices.SortFunc(bySeq, func(a, b int) int { return cmp.Compare(segs[a].seq, segs[b].seq) })
	// consecutive segments make one output batch
	var chunks [][]int
	rows := 0
	for _, i := range bySeq {
		if len(chunks) == 0 || rows >= topNOutRows {
			chunks, rows = append(chunks, nil), 0
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], i)
		rows += len(kept[i])
	}
	out := make([]arrow.RecordBatch, len(chunks))
	err := parallelFor(w.EC.WorkerCount(), len(chunks), func(c int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := w.topNChunk(ctx, segs, kept, chunks[c], in)
		out[c] = b
		return err
	})
	if err != nil {
		ReleaseAll(out)
		return nil, err
	}
	return out, nil
}

// topNChunk gathers the kept rows of segments idx into one batch of the
// window's output.
func (w *Window) topNChunk(ctx context.Context, segs []topNSeg, kept [][]uint64, idx []int, in *arrow.Schema) (arrow.RecordBatch, error) {
	nIn := in.NumFields()
	rn := array.NewInt64Builder(w.EC.Mem)
	defer rn.Release()
	parts := make([]arrow.RecordBatch, 0, len(idx))
	defer func() { ReleaseAll(parts) }()
	for _, i := range idx {
		ks := kept[i]
		slices.Sort(ks)
		rows := make([]int32, len(ks))
		for j, x := range ks {
			rows[j] = int32(x >> 8)
			rn.Append(int64(x & 0xff))
		}
		p, err := TakeBatch(ctx, w.EC, in, segs[i].b.Columns()[:nIn], rows)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	cols, n, err := concatBatches(w.EC, in, parts)
	defer func() { ReleaseArrays(cols) }()
	if err != nil {
		return nil, err
	}
	nums := rn.NewArray()
	defer nums.Release()
	for range w.Calls {
		cols = append(cols, nums)
		nums.Retain()
	}
	return NewBatch(w.EC, w.Out, cols, int64(n))
}
