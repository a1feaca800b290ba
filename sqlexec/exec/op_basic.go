package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	cexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
)

// Filter keeps the rows where Pred is TRUE.
type Filter struct {
	Input RecordIterator
	Pred  Expr
	EC    *EvalContext
}

func (f *Filter) Schema() *arrow.Schema { return f.Input.Schema() }
func (f *Filter) Close()                { f.Input.Close() }

func (f *Filter) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := f.Input.Next(ctx)
		if err != nil || b == nil {
			return nil, err
		}
		out, err := FilterBatch(ctx, f.EC, b, f.Pred)
		b.Release()
		if err != nil {
			return nil, err
		}
		if out.NumRows() > 0 {
			return out, nil
		}
		out.Release()
	}
}

// FilterBatch returns the rows of b where pred is TRUE.
func FilterBatch(ctx context.Context, ec *EvalContext, b arrow.RecordBatch, pred Expr) (arrow.RecordBatch, error) {
	mask, err := pred.Eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer mask.Release()
	return compute.FilterRecordBatch(cexec.WithAllocator(ctx, ec.Mem), b, mask, compute.DefaultFilterOptions())
}

// Project computes one column per expression.
type Project struct {
	Input RecordIterator
	Exprs []Expr
	Out   *arrow.Schema
	EC    *EvalContext
}

func (p *Project) Schema() *arrow.Schema { return p.Out }
func (p *Project) Close()                { p.Input.Close() }

func (p *Project) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := p.Input.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	defer b.Release()
	return ProjectBatch(p.EC, b, p.Exprs, p.Out)
}

// ProjectBatch evaluates exprs over b into a batch of schema out.
func ProjectBatch(ec *EvalContext, b arrow.RecordBatch, exprs []Expr, out *arrow.Schema) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(exprs))
	for i, e := range exprs {
		c, err := e.Eval(ec, b)
		if err != nil {
			ReleaseArrays(cols)
			return nil, err
		}
		cols[i] = c
	}
	rb, err := NewBatch(ec, out, cols, b.NumRows())
	ReleaseArrays(cols)
	return rb, err
}

// Limit skips Offset rows then passes at most Count rows (Count < 0: no limit).
type Limit struct {
	Input  RecordIterator
	Offset int64
	Count  int64
	seen   int64
	passed int64
}

func (l *Limit) Schema() *arrow.Schema { return l.Input.Schema() }
func (l *Limit) Close()                { l.Input.Close() }

func (l *Limit) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if l.Count >= 0 && l.passed >= l.Count {
			return nil, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := l.Input.Next(ctx)
		if err != nil || b == nil {
			return nil, err
		}
		n := b.NumRows()
		start := int64(0)
		if l.seen < l.Offset {
			start = min(l.Offset-l.seen, n)
		}
		l.seen += n
		end := n
		if l.Count >= 0 {
			// compare remaining counts, never sums: Count may be MaxInt64
			if left := l.Count - l.passed; left < n-start {
				end = start + left
			}
		}
		if start >= end {
			b.Release()
			continue
		}
		l.passed += end - start
		if start == 0 && end == n {
			return b, nil
		}
		s := b.NewSlice(start, end)
		b.Release()
		return s, nil
	}
}

// Values replays fixed batches (it takes ownership of them).
type Values struct {
	Out     *arrow.Schema
	Batches []arrow.RecordBatch
	pos     int
}

func (v *Values) Schema() *arrow.Schema { return v.Out }

func (v *Values) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if v.pos >= len(v.Batches) {
		return nil, nil
	}
	b := v.Batches[v.pos]
	v.Batches[v.pos] = nil
	v.pos++
	return b, nil
}

func (v *Values) Close() {
	ReleaseAll(v.Batches[v.pos:])
	v.pos = len(v.Batches)
}

// Union concatenates its inputs (UNION ALL); inputs share a schema modulo names.
type Union struct {
	Inputs []RecordIterator
	Out    *arrow.Schema
	pos    int
}

func (u *Union) Schema() *arrow.Schema { return u.Out }

func (u *Union) Close() {
	for _, in := range u.Inputs {
		in.Close()
	}
}

func (u *Union) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for u.pos < len(u.Inputs) {
		b, err := u.Inputs[u.pos].Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			u.pos++
			continue
		}
		out, err := NewBatch(nil, u.Out, b.Columns(), b.NumRows())
		b.Release()
		return out, err
	}
	return nil, nil
}

// Empty yields no rows.
type Empty struct{ Out *arrow.Schema }

func (e *Empty) Schema() *arrow.Schema                           { return e.Out }
func (e *Empty) Next(context.Context) (arrow.RecordBatch, error) { return nil, nil }
func (e *Empty) Close()                                          {}
