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

// groupTable maps encoded group keys to dense group ids.
type groupTable struct {
	ids     map[string]int32
	keys    [][]any // per group column, per group
	buf     []byte
	nGroups int
}

func (h *HashAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if h.done {
		return nil, nil
	}
	h.done = true
	accs := make([]accumulator, len(h.Aggs))
	for i, s := range h.Aggs {
		a, err := newAccumulator(s, h.EC.Mem)
		if err != nil {
			return nil, err
		}
		accs[i] = a
	}
	gt := &groupTable{ids: map[string]int32{}, keys: make([][]any, len(h.Groups))}
	if len(h.Groups) == 0 {
		gt.nGroups = 1
		for _, a := range accs {
			a.grow(1)
		}
	}
	var groupIDs []int32
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := h.Input.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		n := int(b.NumRows())
		groupIDs = groupIDs[:0]
		groupIDs = append(groupIDs, make([]int32, n)...)
		if len(h.Groups) > 0 {
			if err := gt.assign(h.EC, b, h.Groups, groupIDs); err != nil {
				b.Release()
				return nil, err
			}
			for _, a := range accs {
				a.grow(gt.nGroups)
			}
		}
		for i, s := range h.Aggs {
			var arg arrow.Array
			if s.Arg != nil {
				if arg, err = s.Arg.Eval(h.EC, b); err != nil {
					b.Release()
					return nil, err
				}
			}
			err = accs[i].update(arg, groupIDs)
			if arg != nil {
				arg.Release()
			}
			if err != nil {
				b.Release()
				return nil, err
			}
		}
		b.Release()
	}
	return h.output(gt, accs)
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
			id = gt.newGroup(cols, r)
			gt.ids[string(gt.buf)] = id
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
				nullID = gt.newGroup(cols, r)
				gt.ids["\x00"] = nullID
			}
			ids[r] = nullID
			continue
		}
		v := s.Value(r)
		// the key "\x01"+v keeps strings distinct from the NULL key
		gt.buf = append(append(gt.buf[:0], 1), v...)
		id, ok := gt.ids[string(gt.buf)]
		if !ok {
			id = gt.newGroup(cols, r)
			gt.ids[string(gt.buf)] = id
		}
		ids[r] = id
	}
}

func (gt *groupTable) newGroup(cols []arrow.Array, r int) int32 {
	for i, c := range cols {
		gt.keys[i] = append(gt.keys[i], ValueAt(c, r))
	}
	gt.nGroups++
	return int32(gt.nGroups - 1)
}

func (h *HashAggregate) output(gt *groupTable, accs []accumulator) (arrow.RecordBatch, error) {
	if gt.nGroups == 0 {
		return nil, nil
	}
	cols := make([]arrow.Array, 0, h.Out.NumFields())
	fail := func(err error) (arrow.RecordBatch, error) {
		ReleaseArrays(cols)
		return nil, err
	}
	for i := range h.Groups {
		b := array.NewBuilder(h.EC.Mem, h.Out.Field(i).Type)
		for _, v := range gt.keys[i] {
			if err := AppendValue(b, v); err != nil {
				b.Release()
				return fail(err)
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	for i, a := range accs {
		b := array.NewBuilder(h.EC.Mem, h.Out.Field(len(h.Groups)+i).Type)
		if err := a.build(b); err != nil {
			b.Release()
			return fail(err)
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	rb := array.NewRecordBatch(h.Out, cols, int64(gt.nGroups))
	ReleaseArrays(cols)
	return rb, nil
}
