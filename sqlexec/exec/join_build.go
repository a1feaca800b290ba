package exec

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// JoinBuild is the hashed build side of a hash join. It is built once, on
// first use, and is then read-only, so several HashJoins probing in
// parallel may share one (see HashJoin.Shared).
type JoinBuild struct {
	Input      RecordIterator
	Keys       []Expr
	NullsEqual bool
	EC         *EvalContext
	// Dictionary marks the string columns to hold, once built, as
	// dictionary<int32, string> arrays (the joins' output then carries
	// them so: gathered as indexes, grouped once per distinct value).
	Dictionary []bool

	once    sync.Once
	err     error
	cols    []arrow.Array
	rows    int
	table   *joinTable
	hasNull bool
}

// NewJoinBuild prepares the build side over input hashed on keys.
func NewJoinBuild(ec *EvalContext, input RecordIterator, keys []Expr, nullsEqual bool) *JoinBuild {
	return &JoinBuild{Input: input, Keys: keys, NullsEqual: nullsEqual, EC: ec}
}

// Schema is the build input's schema.
func (jb *JoinBuild) Schema() *arrow.Schema { return jb.Input.Schema() }

// Build drains the input and hashes it; later calls return the first
// call's result (concurrent callers wait for it).
func (jb *JoinBuild) Build(ctx context.Context) error {
	jb.once.Do(func() { jb.err = jb.build(ctx) })
	return jb.err
}

func (jb *JoinBuild) build(ctx context.Context) error {
	bs, err := Collect(ctx, jb.Input)
	if err != nil {
		return err
	}
	return jb.hash(ctx, bs)
}

// buildFrom hashes batches already read from the input (it takes them
// over); the input is not read again.
func (jb *JoinBuild) buildFrom(ctx context.Context, bs []arrow.RecordBatch) error {
	jb.once.Do(func() { jb.err = jb.hash(ctx, bs) })
	return jb.err
}

// hash concatenates bs (and releases them) and indexes the rows by key.
func (jb *JoinBuild) hash(ctx context.Context, bs []arrow.RecordBatch) error {
	schema := jb.Input.Schema()
	cols, n, err := concatBatches(jb.EC, schema, bs)
	ReleaseAll(bs)
	if err != nil {
		return err
	}
	jb.cols, jb.rows = cols, n
	if err := ctx.Err(); err != nil {
		return err
	}
	all := array.NewRecordBatch(schema, cols, int64(n))
	defer all.Release()
	keys, err := evalAll(jb.EC, all, jb.Keys)
	if err != nil {
		return err
	}
	jb.table, jb.hasNull = newJoinTable(keys, n, jb.NullsEqual)
	for i, d := range jb.Dictionary {
		if s, ok := jb.cols[i].(*array.String); ok && d {
			jb.cols[i] = dictionaryEncode(jb.EC.Mem, s)
			s.Release()
		}
	}
	return nil
}

// Close closes the input and releases the hashed rows.
func (jb *JoinBuild) Close() {
	jb.Input.Close()
	ReleaseArrays(jb.cols)
	jb.cols = nil
	jb.table.release()
}

// appendRowKey appends row r's key (all key columns) to buf.
func appendRowKey(buf []byte, keys []arrow.Array, r int) ([]byte, bool) {
	anyNull := false
	for _, k := range keys {
		var null bool
		buf, null = appendKey(buf, k, r)
		anyNull = anyNull || null
	}
	return buf, anyNull
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
