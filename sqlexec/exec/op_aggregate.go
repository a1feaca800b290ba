package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// HashAggregate groups its input by Groups and computes Aggs per group. The
// output has the group columns then the aggregates. Without groups it emits
// exactly one row, even for empty input.
//
// Its group table counts against EC's memory limit: past half of it the
// table stops taking new groups, and rows of other groups go to spill
// partitions by key hash (see aggPass), aggregated one partition at a
// time once the input ends. Each group's rows are aggregated in input
// order wherever they land, so results equal the in-memory ones exactly.
// (A frozen table still grows in one way: DISTINCT aggregates remember
// the new values of the groups it holds.)
type HashAggregate struct {
	Input  RecordIterator
	Groups []Expr
	Aggs   []AggSpec
	Out    *arrow.Schema
	EC     *EvalContext
	done   bool
	spill  *aggSpill
}

func (h *HashAggregate) Schema() *arrow.Schema { return h.Out }

func (h *HashAggregate) Close() {
	h.Input.Close()
	if h.spill != nil {
		h.spill.release()
	}
}

func (h *HashAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if h.spill != nil {
		return h.spill.next(ctx)
	}
	if h.done {
		return nil, nil
	}
	h.done = true
	sp := newAggSpill(h.EC, h.Groups, h.Aggs, h.Out)
	h.spill = sp
	return sp.begin(ctx, func() (arrow.RecordBatch, error) { return sp.first(ctx, h.Input) })
}

// begin runs the first pass over the input and returns its output when
// everything stayed in memory, else the first batch of the spilled runs;
// a failed first pass releases what it spilled.
func (sp *aggSpill) begin(ctx context.Context, firstPass func() (arrow.RecordBatch, error)) (arrow.RecordBatch, error) {
	out, err := firstPass()
	if err != nil {
		sp.release()
		return nil, err
	}
	if out != nil {
		return out, nil
	}
	return sp.next(ctx)
}

// aggState is the group table and accumulators of one aggregation (or of
// one worker's share of it).
type aggState struct {
	ec       *EvalContext
	groups   []Expr
	specs    []AggSpec
	argCol   []int // per spec, its column among evalCols' (-1: no argument)
	gt       *groupTable
	accs     []accumulator
	groupIDs []int32
}

func newAggState(ec *EvalContext, groups []Expr, specs []AggSpec) (*aggState, error) {
	st := &aggState{ec: ec, groups: groups, specs: specs, accs: make([]accumulator, len(specs)),
		argCol: make([]int, len(specs)),
		gt:     newGroupTable(len(groups))}
	next := len(groups)
	for i, s := range specs {
		a, err := newAccumulator(s, ec.Mem)
		if err != nil {
			return nil, err
		}
		st.accs[i] = a
		st.argCol[i] = -1
		if s.Arg != nil {
			st.argCol[i] = next
			next++
		}
	}
	if len(groups) == 0 {
		st.gt.nGroups = 1
		st.gt.offs = append(st.gt.offs, 0)
		st.gt.hashes = append(st.gt.hashes, 0)
		for _, a := range st.accs {
			a.grow(1)
		}
	}
	return st, nil
}

// consume drains it into the state (it is not closed).
func (st *aggState) consume(ctx context.Context, it RecordIterator) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := it.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		err = st.update(ctx, b)
		b.Release()
		if err != nil {
			return err
		}
	}
}

func (st *aggState) update(ctx context.Context, b arrow.RecordBatch) error {
	cols, err := st.evalCols(b)
	defer ReleaseArrays(cols)
	if err != nil {
		return err
	}
	return st.updateCols(ctx, cols, int(b.NumRows()), nil)
}

// evalCols evaluates the group expressions, then each argument.
func (st *aggState) evalCols(b arrow.RecordBatch) ([]arrow.Array, error) {
	cols := make([]arrow.Array, 0, len(st.groups)+len(st.specs))
	for _, g := range st.groups {
		c, err := g.Eval(st.ec, b)
		if err != nil {
			return cols, err
		}
		cols = append(cols, c)
	}
	for _, s := range st.specs {
		if s.Arg == nil {
			continue
		}
		c, err := s.Arg.Eval(st.ec, b)
		if err != nil {
			return cols, err
		}
		cols = append(cols, c)
	}
	// Only a group key is taken as a dictionary (assign).
	decodeDictionaries(st.ec.Mem, cols[len(st.groups):])
	return cols, nil
}

// updateCols folds n rows of evaluated columns into the state. With miss
// set, the table takes no new groups: rows of groups it lacks are handed
// to miss (with their encoded key) and left out.
func (st *aggState) updateCols(ctx context.Context, cols []arrow.Array, n int, miss func(r int, enc []byte)) error {
	if cap(st.groupIDs) < n {
		st.groupIDs = make([]int32, n)
	}
	ids := st.groupIDs[:n]
	missed := false
	if len(st.groups) > 0 {
		st.gt.assign(cols[:len(st.groups)], ids, func(r int, enc []byte) {
			missed = true
			miss(r, enc)
		}, miss != nil)
		for _, a := range st.accs {
			a.grow(st.gt.nGroups)
		}
	} else {
		clear(ids)
	}
	var kept []int32
	if missed {
		kept = make([]int32, 0, n)
		keptIDs := ids[:0]
		for r, id := range ids {
			if id >= 0 {
				kept = append(kept, int32(r))
				keptIDs = append(keptIDs, id)
			}
		}
		if len(kept) == 0 {
			return nil
		}
		ids = keptIDs
	}
	for i := range st.specs {
		var arg arrow.Array
		if c := st.argCol[i]; c >= 0 {
			arg = cols[c]
			if kept != nil {
				sub, err := takeOrNull(ctx, st.ec, arg, kept)
				if err != nil {
					return err
				}
				defer sub.Release()
				arg = sub
			}
		}
		if err := st.accs[i].update(arg, ids); err != nil {
			return err
		}
	}
	return nil
}

// merge folds another worker's state into st.
func (st *aggState) merge(o *aggState) error {
	if len(st.groups) > 0 && o.gt.str && (st.gt.str || st.gt.nGroups == 0) {
		st.gt.str = true
		return st.mergeMapped(o, st.gt.mergeStrings(o.gt, st.ec.WorkerCount()))
	}
	mapping := make([]int32, o.gt.nGroups)
	if len(st.groups) > 0 {
		for g := range o.gt.nGroups {
			id, ok := st.gt.lookup(o.gt, g)
			if !ok {
				id = st.gt.addFrom(o.gt, g)
			}
			mapping[g] = id
		}
	}
	return st.mergeMapped(o, mapping)
}

// mergeMapped folds o's groups into st's groups mapping[g] (-1: skip).
func (st *aggState) mergeMapped(o *aggState, mapping []int32) error {
	for i, a := range st.accs {
		a.grow(st.gt.nGroups)
		if err := a.(mergeable).merge(o.accs[i], mapping); err != nil {
			return err
		}
	}
	return nil
}

func (st *aggState) output(out *arrow.Schema) (arrow.RecordBatch, error) {
	gt := st.gt
	if gt.nGroups == 0 {
		return nil, nil
	}
	cols := make([]arrow.Array, 0, out.NumFields())
	fail := func(err error) (arrow.RecordBatch, error) {
		ReleaseArrays(cols)
		return nil, err
	}
	for i := range st.groups {
		b := array.NewBuilder(st.ec.Mem, out.Field(i).Type)
		if sb, ok := b.(*array.StringBuilder); ok && gt.str {
			gt.appendStrings(sb)
			cols = append(cols, b.NewArray())
			b.Release()
			continue
		}
		gt.materialize()
		for _, v := range gt.keys[i] {
			if err := AppendValue(b, v); err != nil {
				b.Release()
				return fail(err)
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	for i, a := range st.accs {
		b := array.NewBuilder(st.ec.Mem, out.Field(len(st.groups)+i).Type)
		if err := a.build(b); err != nil {
			b.Release()
			return fail(err)
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	rb, err := NewBatch(st.ec, out, cols, int64(gt.nGroups))
	ReleaseArrays(cols)
	return rb, err
}
