package exec

import (
	"context"
	"encoding/binary"
	"hash/maphash"

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
	if st.gt.nGroups == 0 && o.gt.lazy {
		st.gt.lazy = true
	} else if st.gt.lazy && !o.gt.lazy {
		st.gt.materialize()
	}
	mapping := make([]int32, o.gt.nGroups)
	for g := 0; g < o.gt.nGroups; g++ {
		if len(st.groups) == 0 {
			mapping[g] = 0
			continue
		}
		k := o.gt.enc(g)
		h := o.gt.hashes[g]
		id, ok := st.gt.find(k, h)
		if !ok {
			id = st.gt.addGroup(k, h, func(c int) any { return o.gt.keyValue(c, g) })
		}
		mapping[g] = id
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

// groupTable maps encoded group keys (appendKey's encoding) to dense
// group ids: open addressing over slots holding a hash tag and the id,
// the keys' encodings in one arena, so finding a group allocates nothing.
type groupTable struct {
	slots  []uint64 // 0: empty; else tag<<32 | (id + 1)
	mask   uint64
	hashes []uint64 // per group, its key's hash
	arena  []byte   // the groups' encoded keys, back to back
	offs   []int32  // group g's encoding is arena[offs[g]:offs[g+1]]
	keys   [][]any  // per group column, per group (unless lazy)
	// lazy: the one String key column is read back from the encodings
	// instead of being kept in keys.
	lazy    bool
	recent  [64]int32 // assignStrings' cache: group id + 1 by a cheap hash of the key
	hits    int       // recent's hits over the rows seen, to stop using it
	seen    int
	buf     []byte
	nGroups int
	bytes   int64 // estimated footprint, for the memory budget
}

// groupSlotBytes is a group's overhead besides its key: its slot (at
// most half the slots are used), hash and offset.
const groupSlotBytes = 2*8 + 8 + 4

func newGroupTable(cols int) *groupTable {
	return &groupTable{slots: make([]uint64, 16), mask: 15, offs: []int32{0}, keys: make([][]any, cols)}
}

// enc is group g's encoded key.
func (gt *groupTable) enc(g int) []byte { return gt.arena[gt.offs[g]:gt.offs[g+1]] }

func hashKey(enc []byte) uint64 { return maphash.Bytes(rowHashSeed, enc) }

// find returns the group of the encoded key enc, whose hash is h.
func (gt *groupTable) find(enc []byte, h uint64) (int32, bool) {
	tag := h >> 32 << 32
	for i := h & gt.mask; ; i = (i + 1) & gt.mask {
		e := gt.slots[i]
		if e == 0 {
			return -1, false
		}
		if e&^0xffffffff == tag {
			g := int(uint32(e)) - 1
			if string(gt.arena[gt.offs[g]:gt.offs[g+1]]) == string(enc) {
				return int32(g), true
			}
		}
	}
}

// insertSlot places group g (hash h) in a free slot.
func (gt *groupTable) insertSlot(g int, h uint64) {
	i := h & gt.mask
	for gt.slots[i] != 0 {
		i = (i + 1) & gt.mask
	}
	gt.slots[i] = h>>32<<32 | uint64(g+1)
}

// grow doubles the slots once half of them are used.
func (gt *groupTable) grow() {
	if 2*(gt.nGroups+1) <= len(gt.slots) {
		return
	}
	gt.bytes += int64(len(gt.slots)) * 8
	gt.slots = make([]uint64, 2*len(gt.slots))
	gt.mask = uint64(len(gt.slots) - 1)
	for g := 0; g < gt.nGroups; g++ {
		gt.insertSlot(g, gt.hashes[g])
	}
}

// assign sets ids to the group of each row of the evaluated group
// columns. When frozen, a row whose group is new gets id -1 and is
// reported to miss instead of starting a group.
func (gt *groupTable) assign(cols []arrow.Array, ids []int32, miss func(r int, enc []byte), frozen bool) {
	if len(cols) == 1 {
		if s, ok := cols[0].(*array.String); ok {
			gt.assignStrings(s, ids, miss, frozen)
			return
		}
	}
	if gt.lazy {
		gt.materialize()
	}
	for r := range ids {
		gt.buf = gt.buf[:0]
		for _, c := range cols {
			gt.buf, _ = appendKey(gt.buf, c, r)
		}
		h := hashKey(gt.buf)
		id, ok := gt.find(gt.buf, h)
		if !ok {
			if frozen {
				ids[r] = -1
				miss(r, gt.buf)
				continue
			}
			id = gt.newGroup(cols, r, gt.buf, h)
		}
		ids[r] = id
	}
}

// assignStrings is the fast path for a single string key, encoded as
// appendKey does. Its keys stay in the arena (lazy). A small cache of
// recent groups by length and end bytes answers low-cardinality keys
// without hashing; it is dropped once it misses more than it hits.
func (gt *groupTable) assignStrings(s *array.String, ids []int32, miss func(r int, enc []byte), frozen bool) {
	if gt.nGroups == 0 {
		gt.lazy = true
	}
	cols := []arrow.Array{s}
	nulls := s.NullN() > 0
	useRecent := gt.seen < 4096 || 2*gt.hits > gt.seen
	for r := range ids {
		if nulls && s.IsNull(r) {
			gt.buf = append(gt.buf[:0], 0)
		} else {
			v := s.Value(r)
			var slot int
			if useRecent && len(v) > 0 && len(v) < 128 {
				gt.seen++
				slot = (len(v)*7 + int(v[0])*3 + int(v[len(v)-1])) & (len(gt.recent) - 1)
				if g := int(gt.recent[slot]) - 1; g >= 0 {
					if e := gt.arena[gt.offs[g]:gt.offs[g+1]]; len(e) == len(v)+2 && e[0] == 1 && string(e[2:]) == v {
						gt.hits++
						ids[r] = int32(g)
						continue
					}
				}
			}
			gt.buf = append(binary.AppendUvarint(append(gt.buf[:0], 1), uint64(len(v))), v...)
			h := hashKey(gt.buf)
			id, ok := gt.find(gt.buf, h)
			if !ok {
				if frozen {
					ids[r] = -1
					miss(r, gt.buf)
					continue
				}
				id = gt.newGroup(cols, r, gt.buf, h)
			}
			ids[r] = id
			if useRecent && len(v) > 0 && len(v) < 128 {
				gt.recent[slot] = id + 1
			}
			continue
		}
		h := hashKey(gt.buf)
		id, ok := gt.find(gt.buf, h)
		if !ok {
			if frozen {
				ids[r] = -1
				miss(r, gt.buf)
				continue
			}
			id = gt.newGroup(cols, r, gt.buf, h)
		}
		ids[r] = id
	}
}

// strKey reads a lazy table's key of group g back from its encoding
// (ok false: NULL).
func (gt *groupTable) strKey(g int) (string, bool) {
	e := gt.enc(g)
	if e[0] == 0 {
		return "", false
	}
	l, n := binary.Uvarint(e[1:])
	return string(e[1+n : 1+n+int(l)]), true
}

// keyValue is group g's value of key column c.
func (gt *groupTable) keyValue(c, g int) any {
	if gt.lazy {
		if v, ok := gt.strKey(g); ok {
			return v
		}
		return nil
	}
	return gt.keys[c][g]
}

// materialize moves a lazy table's keys into keys.
func (gt *groupTable) materialize() {
	if !gt.lazy {
		return
	}
	vals := make([]any, gt.nGroups)
	for g := range vals {
		vals[g] = gt.keyValue(0, g)
		gt.bytes += 16 + valueBytes(vals[g])
	}
	gt.keys[0] = vals
	gt.lazy = false
}

func (gt *groupTable) newGroup(cols []arrow.Array, r int, enc []byte, h uint64) int32 {
	return gt.addGroup(enc, h, func(c int) any { return ValueAt(cols[c], r) })
}

// addGroup appends a group of encoded key enc (hash h) whose key column c
// holds key(c).
func (gt *groupTable) addGroup(enc []byte, h uint64, key func(c int) any) int32 {
	gt.grow()
	gt.bytes += int64(len(enc)) + groupSlotBytes
	for c := range gt.keys {
		if gt.lazy {
			break
		}
		v := key(c)
		gt.keys[c] = append(gt.keys[c], v)
		gt.bytes += 16 + valueBytes(v)
	}
	id := int32(gt.nGroups)
	gt.arena = append(gt.arena, enc...)
	gt.offs = append(gt.offs, int32(len(gt.arena)))
	gt.hashes = append(gt.hashes, h)
	gt.insertSlot(gt.nGroups, h)
	gt.nGroups++
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
		if sb, ok := b.(*array.StringBuilder); ok && gt.lazy {
			for g := range gt.nGroups {
				if v, ok := gt.strKey(g); ok {
					sb.Append(v)
				} else {
					sb.AppendNull()
				}
			}
			cols = append(cols, b.NewArray())
			b.Release()
			continue
		}
		if gt.lazy {
			gt.materialize()
		}
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
