package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// JoinType is the kind of join.
type JoinType int

// Join types. Semi and Anti output only the left (probe) columns.
const (
	JoinInner JoinType = iota
	JoinLeft
	JoinRight
	JoinFull
	JoinSemi
	JoinAnti
)

var joinNames = [...]string{"inner", "left", "right", "full", "semi", "anti"}

func (t JoinType) String() string { return joinNames[t] }

// HashJoin joins Left (probed, streamed) with Right (built into a hash table)
// on LeftKeys[i] = RightKeys[i], then Residual over the combined row. With
// no keys every pair is a candidate, which makes it the nested-loop join.
// NullAware gives Anti the semantics of NOT IN: a NULL on either side
// never counts as "not found".
type HashJoin struct {
	Left, Right         RecordIterator
	LeftKeys, RightKeys []Expr
	Residual            Expr
	Type                JoinType
	NullAware           bool
	NullsEqual          bool // set operations match NULL with NULL
	Out                 *arrow.Schema
	EC                  *EvalContext

	built        bool
	buildCols    []arrow.Array
	buildRows    int
	table        map[string][]int32
	buildHasNull bool
	matched      []bool
	leftDone     bool
	finished     bool
	buf          []byte
}

func (j *HashJoin) Schema() *arrow.Schema { return j.Out }

func (j *HashJoin) Close() {
	j.Left.Close()
	j.Right.Close()
	ReleaseArrays(j.buildCols)
	j.buildCols = nil
}

func (j *HashJoin) build(ctx context.Context) error {
	j.built = true
	bs, err := Collect(ctx, j.Right)
	if err != nil {
		return err
	}
	schema := j.Right.Schema()
	cols, n, err := concatBatches(j.EC, schema, bs)
	ReleaseAll(bs)
	if err != nil {
		return err
	}
	j.buildCols, j.buildRows = cols, n
	j.matched = make([]bool, n)
	j.table = map[string][]int32{}
	all := array.NewRecordBatch(schema, cols, int64(n))
	defer all.Release()
	keys, err := evalAll(j.EC, all, j.RightKeys)
	if err != nil {
		return err
	}
	defer ReleaseArrays(keys)
	for r := 0; r < n; r++ {
		key, null := j.rowKey(keys, r)
		if null && !j.NullsEqual {
			j.buildHasNull = true
			continue
		}
		j.table[string(key)] = append(j.table[string(key)], int32(r))
	}
	return nil
}

func evalAll(ec *EvalContext, b arrow.RecordBatch, exprs []Expr) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(exprs))
	for i, e := range exprs {
		a, err := e.Eval(ec, b)
		if err != nil {
			ReleaseArrays(out)
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func (j *HashJoin) rowKey(keys []arrow.Array, r int) ([]byte, bool) {
	j.buf = j.buf[:0]
	anyNull := false
	for _, k := range keys {
		var null bool
		j.buf, null = appendKey(j.buf, k, r)
		anyNull = anyNull || null
	}
	return j.buf, anyNull
}

func (j *HashJoin) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !j.built {
		if err := j.build(ctx); err != nil {
			return nil, err
		}
	}
	for !j.leftDone {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := j.Left.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			j.leftDone = true
			break
		}
		out, err := j.probe(ctx, b)
		b.Release()
		if err != nil {
			return nil, err
		}
		if out != nil && out.NumRows() > 0 {
			return out, nil
		}
		if out != nil {
			out.Release()
		}
	}
	if !j.finished && (j.Type == JoinRight || j.Type == JoinFull) {
		j.finished = true
		return j.unmatchedRight(ctx)
	}
	return nil, nil
}

func (j *HashJoin) probe(ctx context.Context, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	keys, err := evalAll(j.EC, b, j.LeftKeys)
	if err != nil {
		return nil, err
	}
	defer ReleaseArrays(keys)
	n := int(b.NumRows())
	var li, ri []int32
	probeNull := make([]bool, n)
	for r := 0; r < n; r++ {
		key, null := j.rowKey(keys, r)
		if null && !j.NullsEqual {
			probeNull[r] = true
			continue
		}
		for _, m := range j.table[string(key)] {
			li = append(li, int32(r))
			ri = append(ri, m)
		}
	}
	if j.Residual != nil && len(li) > 0 {
		if li, ri, err = j.applyResidual(ctx, b, li, ri); err != nil {
			return nil, err
		}
	}
	switch j.Type {
	case JoinSemi, JoinAnti:
		hit := make([]bool, n)
		for _, r := range li {
			hit[r] = true
		}
		var keep []int32
		for r := 0; r < n; r++ {
			pass := hit[r]
			if j.Type == JoinAnti {
				pass = !hit[r]
				if j.NullAware && j.buildRows > 0 && (j.buildHasNull || probeNull[r]) {
					pass = false
				}
			}
			if pass {
				keep = append(keep, int32(r))
			}
		}
		return TakeBatch(ctx, j.EC, j.Out, b.Columns(), keep)
	case JoinLeft, JoinFull:
		hit := make([]bool, n)
		for _, r := range li {
			hit[r] = true
		}
		for r := 0; r < n; r++ {
			if !hit[r] {
				li = append(li, int32(r))
				ri = append(ri, -1)
			}
		}
	}
	for _, r := range ri {
		if r >= 0 {
			j.matched[r] = true
		}
	}
	return j.assemble(ctx, b.Columns(), li, ri)
}

func (j *HashJoin) applyResidual(ctx context.Context, b arrow.RecordBatch, li, ri []int32) ([]int32, []int32, error) {
	combined, err := j.pairs(ctx, b.Columns(), li, ri)
	if err != nil {
		return nil, nil, err
	}
	defer combined.Release()
	mask, err := j.Residual.Eval(j.EC, combined)
	if err != nil {
		return nil, nil, err
	}
	defer mask.Release()
	keep := TruthMask(mask)
	var l2, r2 []int32
	for i, k := range keep {
		if k {
			l2 = append(l2, li[i])
			r2 = append(r2, ri[i])
		}
	}
	return l2, r2, nil
}

// pairs builds the combined left++right batch for index pairs.
func (j *HashJoin) pairs(ctx context.Context, left []arrow.Array, li, ri []int32) (arrow.RecordBatch, error) {
	lf, rf := j.Left.Schema().Fields(), j.Right.Schema().Fields()
	schema := arrow.NewSchema(append(append([]arrow.Field{}, lf...), rf...), nil)
	lb, err := TakeBatch(ctx, j.EC, j.Left.Schema(), left, li)
	if err != nil {
		return nil, err
	}
	defer lb.Release()
	rb, err := TakeBatch(ctx, j.EC, j.Right.Schema(), j.buildCols, ri)
	if err != nil {
		return nil, err
	}
	defer rb.Release()
	cols := append(append([]arrow.Array{}, lb.Columns()...), rb.Columns()...)
	return array.NewRecordBatch(schema, cols, int64(len(li))), nil
}

func (j *HashJoin) assemble(ctx context.Context, left []arrow.Array, li, ri []int32) (arrow.RecordBatch, error) {
	c, err := j.pairs(ctx, left, li, ri)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	return array.NewRecordBatch(j.Out, c.Columns(), c.NumRows()), nil
}

func (j *HashJoin) unmatchedRight(ctx context.Context) (arrow.RecordBatch, error) {
	var ri []int32
	for r, m := range j.matched {
		if !m {
			ri = append(ri, int32(r))
		}
	}
	if len(ri) == 0 {
		return nil, nil
	}
	ls := j.Left.Schema()
	left := make([]arrow.Array, ls.NumFields())
	for i, f := range ls.Fields() {
		left[i] = array.MakeArrayOfNull(j.EC.Mem, f.Type, 1)
	}
	defer ReleaseArrays(left)
	li := make([]int32, len(ri))
	for i := range li {
		li[i] = -1
	}
	return j.assemble(ctx, left, li, ri)
}
