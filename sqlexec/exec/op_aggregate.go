package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// HashAggregate groups its input by Groups and computes Aggs per group. The
// output has the group columns then the aggregates. Without groups it emits
// exactly one row, even for empty input.
type HashAggregate struct {
	Input  RecordIterator
	Groups []Expr
	Aggs   []AggSpec
	Out    *arrow.Schema
	EC     *EvalContext
	done   bool
}

func (h *HashAggregate) Schema() *arrow.Schema { return h.Out }
func (h *HashAggregate) Close()                { h.Input.Close() }

func (h *HashAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if h.done {
		return nil, nil
	}
	h.done = true
	st, err := newAggState(h.EC, h.Groups, h.Aggs)
	if err != nil {
		return nil, err
	}
	if err := st.consume(ctx, h.Input); err != nil {
		return nil, err
	}
	return st.output(h.Out)
}

// aggState is the group table and accumulators of one aggregation (or of
// one worker's share of it).
type aggState struct {
	ec       *EvalContext
	groups   []Expr
	specs    []AggSpec
	gt       *groupTable
	accs     []accumulator
	groupIDs []int32
}

func newAggState(ec *EvalContext, groups []Expr, specs []AggSpec) (*aggState, error) {
	st := &aggState{ec: ec, groups: groups, specs: specs, accs: make([]accumulator, len(specs)),
		gt: &groupTable{ids: map[string]int32{}, keys: make([][]any, len(groups))}}
	for i, s := range specs {
		a, err := newAccumulator(s, ec.Mem)
		if err != nil {
			return nil, err
		}
		st.accs[i] = a
	}
	if len(groups) == 0 {
		st.gt.nGroups = 1
		st.gt.encs = []string{""}
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
		err = st.update(b)
		b.Release()
		if err != nil {
			return err
		}
	}
}

func (st *aggState) update(b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if cap(st.groupIDs) < n {
		st.groupIDs = make([]int32, n)
	}
	ids := st.groupIDs[:n]
	if len(st.groups) > 0 {
		if err := st.gt.assign(st.ec, b, st.groups, ids); err != nil {
			return err
		}
		for _, a := range st.accs {
			a.grow(st.gt.nGroups)
		}
	} else {
		clear(ids)
	}
	for i, s := range st.specs {
		var arg arrow.Array
		var err error
		if s.Arg != nil {
			if arg, err = s.Arg.Eval(st.ec, b); err != nil {
				return err
			}
		}
		err = st.accs[i].update(arg, ids)
		if arg != nil {
			arg.Release()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// merge folds another worker's state into st.
func (st *aggState) merge(o *aggState) error {
	mapping := make([]int32, o.gt.nGroups)
	for g := 0; g < o.gt.nGroups; g++ {
		if len(st.groups) == 0 {
			mapping[g] = 0
			continue
		}
		k := o.gt.encs[g]
		id, ok := st.gt.ids[k]
		if !ok {
			for c := range st.gt.keys {
				st.gt.keys[c] = append(st.gt.keys[c], o.gt.keys[c][g])
			}
			id = int32(st.gt.nGroups)
			st.gt.nGroups++
			st.gt.ids[k] = id
			st.gt.encs = append(st.gt.encs, k)
		}
		mapping[g] = id
	}
	for i, a := range st.accs {
		a.grow(st.gt.nGroups)
		if err := a.(mergeable).merge(o.accs[i], mapping); err != nil {
			return err
		}
	}
	return nil
}

// groupTable maps encoded group keys to dense group ids.
type groupTable struct {
	ids     map[string]int32
	keys    [][]any  // per group column, per group
	encs    []string // per group, its encoded key (for merging)
	buf     []byte
	nGroups int
}

func (gt *groupTable) assign(ec *EvalContext, b arrow.RecordBatch, groups []Expr, ids []int32) error {
	cols := make([]arrow.Array, len(groups))
	defer func() { ReleaseArrays(cols) }()
	for i, g := range groups {
		c, err := g.Eval(ec, b)
		if err != nil {
			return err
		}
		cols[i] = c
	}
	if len(cols) == 1 {
		if s, ok := cols[0].(*array.String); ok {
			gt.assignStrings(s, ids)
			return nil
		}
	}
	for r := range ids {
		gt.buf = gt.buf[:0]
		for _, c := range cols {
			gt.buf, _ = appendKey(gt.buf, c, r)
		}
		id, ok := gt.ids[string(gt.buf)]
		if !ok {
			id = gt.newGroup(cols, r, string(gt.buf))
		}
		ids[r] = id
	}
	return nil
}

// assignStrings is the fast path for a single string key; NULL is kept
// apart from every string by a separate id.
func (gt *groupTable) assignStrings(s *array.String, ids []int32) {
	nullID := int32(-1)
	if id, ok := gt.ids["\x00"]; ok {
		nullID = id
	}
	cols := []arrow.Array{s}
	for r := range ids {
		if s.IsNull(r) {
			if nullID < 0 {
				nullID = gt.newGroup(cols, r, "\x00")
			}
			ids[r] = nullID
			continue
		}
		v := s.Value(r)
		// the key "\x01"+v keeps strings distinct from the NULL key
		gt.buf = append(append(gt.buf[:0], 1), v...)
		id, ok := gt.ids[string(gt.buf)]
		if !ok {
			id = gt.newGroup(cols, r, string(gt.buf))
		}
		ids[r] = id
	}
}

func (gt *groupTable) newGroup(cols []arrow.Array, r int, enc string) int32 {
	for i, c := range cols {
		gt.keys[i] = append(gt.keys[i], ValueAt(c, r))
	}
	id := int32(gt.nGroups)
	gt.nGroups++
	gt.ids[enc] = id
	gt.encs = append(gt.encs, enc)
	return id
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
