package exec

import (
	"cmp"
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// topNOutRows is the size of the batches the reduction emits.
const topNOutRows = 1 << 16

// topNFinish merges the workers' candidates into the first worker's
// table (ties across workers broken by input position, as within one)
// and emits each partition's first RowLimit rows with their row
// numbers, the partitions in order of first appearance (the window's
// output order is not promised to anyone above it: the planner only
// takes this path under a filter on the row number).
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

// topNEmit gathers every group's candidates, numbered, in group order.
func (w *Window) topNEmit(ctx context.Context, st *topNWorker, segs []topNSeg, in *arrow.Schema) ([]arrow.RecordBatch, error) {
	total := 0
	for _, c := range st.cnt {
		total += int(c)
	}
	if total == 0 || len(segs) == 0 {
		return nil, nil
	}
	k := st.k
	idx := make([][]int32, len(segs))
	order := make([]rowRef, 0, total)
	rn := array.NewInt64Builder(w.EC.Mem)
	defer rn.Release()
	rn.Reserve(total)
	for g, c := range st.cnt {
		for i, ref := range st.refs[g*k : g*k+int(c)] {
			s := ref >> 32
			order = append(order, rowRef{src: int32(s), pos: int32(len(idx[s]))})
			idx[s] = append(idx[s], int32(uint32(ref)))
			rn.UnsafeAppend(int64(i + 1))
		}
	}
	srcs := make([]arrow.RecordBatch, len(segs))
	for i, s := range segs {
		srcs[i] = s.b
	}
	rows, err := interleave(ctx, w.EC, segs[0].b.Schema(), srcs, idx, order)
	if err != nil {
		return nil, err
	}
	defer rows.Release()
	nums := rn.NewArray()
	defer nums.Release()
	cols := append([]arrow.Array{}, rows.Columns()[:in.NumFields()]...)
	for range w.Calls {
		cols = append(cols, nums)
	}
	all, err := NewBatch(w.EC, w.Out, cols, int64(total))
	if err != nil {
		return nil, err
	}
	defer all.Release()
	var out []arrow.RecordBatch
	for lo := 0; lo < total; lo += topNOutRows {
		out = append(out, all.NewSlice(int64(lo), int64(min(total, lo+topNOutRows))))
	}
	return out, nil
}
