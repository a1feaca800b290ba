package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Occurrence appends an INT64 column numbering each row among the rows
// equal to it so far (1 for the first copy, 2 for the second...; NULLs
// equal). Joining two numbered inputs on all columns gives INTERSECT ALL
// (semi) and EXCEPT ALL (anti) their multiset semantics.
type Occurrence struct {
	Input RecordIterator
	Out   *arrow.Schema // the input's fields then the INT64 number
	EC    *EvalContext
	seen  map[string]int64
	buf   []byte
}

func (o *Occurrence) Schema() *arrow.Schema { return o.Out }
func (o *Occurrence) Close()                { o.Input.Close() }

func (o *Occurrence) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := o.Input.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	defer b.Release()
	if o.seen == nil {
		o.seen = map[string]int64{}
	}
	n := int(b.NumRows())
	nb := array.NewInt64Builder(o.EC.Mem)
	defer nb.Release()
	nb.Reserve(n)
	for r := 0; r < n; r++ {
		o.buf = o.buf[:0]
		for _, c := range b.Columns() {
			o.buf, _ = appendKey(o.buf, c, r)
		}
		k := o.seen[string(o.buf)] + 1
		o.seen[string(o.buf)] = k
		nb.UnsafeAppend(k)
	}
	num := nb.NewArray()
	defer num.Release()
	cols := append(append([]arrow.Array{}, b.Columns()...), num)
	return NewBatch(o.EC, o.Out, cols, b.NumRows())
}
