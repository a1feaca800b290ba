package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// MaxRecursion is how many times a recursive CTE's recursive term may
// produce rows; a step after that producing rows is a runaway recursion.
const MaxRecursion = 10000

// seenEntryOverhead approximates a map entry's bookkeeping beyond its key.
const seenEntryOverhead = 48

// RecursiveUnion evaluates a recursive CTE: the Anchor's rows are the
// first working table; then Step runs the recursive term over the
// working table and its rows become the next one, until a step yields
// no (new) rows. Every row is output as soon as it is produced, so a
// LIMIT above stops the recursion early. With Distinct (UNION), a row
// equal to one already output (NULLs equal) is dropped, so cycles end.
type RecursiveUnion struct {
	// Name is the CTE's, for errors.
	Name   string
	Anchor RecordIterator
	// Step returns the recursive term over a working table. The batches
	// stay owned by the caller: the iterator retains what it keeps.
	Step     func(work []arrow.RecordBatch) (RecordIterator, error)
	Distinct bool
	// MaxIterations bounds the steps that produce rows (0: MaxRecursion).
	MaxIterations int
	// Shared are join build sides the steps probe (hashed once, not
	// per step); Close closes them.
	Shared []*JoinBuild
	Out    *arrow.Schema
	EC     *EvalContext

	started    bool
	done       bool
	cur        RecordIterator // the anchor, then the running step
	work       []arrow.RecordBatch
	next       []arrow.RecordBatch
	nextBytes  int64
	iterations int
	seen       map[string]struct{}
	seenBytes  int64
	key        []byte
}

func (r *RecursiveUnion) Schema() *arrow.Schema { return r.Out }

func (r *RecursiveUnion) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if r.done {
			return nil, nil
		}
		if !r.started {
			r.started = true
			r.cur = r.Anchor
		}
		b, err := r.cur.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			if err := r.advance(); err != nil {
				return nil, err
			}
			continue
		}
		out, err := r.accept(ctx, b)
		b.Release()
		if err != nil || out != nil {
			return out, err
		}
	}
}

// advance ends the current pass and starts the step over the rows it
// produced, or finishes when there were none.
func (r *RecursiveUnion) advance() error {
	r.cur.Close()
	r.cur = nil
	ReleaseAll(r.work)
	r.work, r.next, r.nextBytes = r.next, nil, 0
	if len(r.work) == 0 {
		r.finish()
		return nil
	}
	r.iterations++
	it, err := r.Step(r.work)
	if err != nil {
		return err
	}
	r.cur = it
	return nil
}

func (r *RecursiveUnion) maxIterations() int {
	if r.MaxIterations > 0 {
		return r.MaxIterations
	}
	return MaxRecursion
}

// accept keeps b's new rows (all of them for UNION ALL) in the output
// schema, adds them to the next working table and returns them (nil:
// none new).
func (r *RecursiveUnion) accept(ctx context.Context, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(b.NumRows())
	if n == 0 {
		return nil, nil
	}
	out, err := NewBatch(r.EC, r.Out, b.Columns(), b.NumRows())
	if err != nil {
		return nil, err
	}
	if r.Distinct {
		all := out
		out, err = r.newRows(ctx, all)
		all.Release()
		if err != nil || out == nil {
			return nil, err
		}
	}
	if limit := r.maxIterations(); r.iterations > limit {
		out.Release()
		return nil, &RecursionLimitError{CTE: r.Name, Bound: "iterations", Max: int64(limit)}
	}
	r.nextBytes += batchBytes(out)
	if limit := r.EC.memoryLimit(); r.nextBytes+r.seenBytes > limit {
		out.Release()
		return nil, &RecursionLimitError{CTE: r.Name, Bound: "memory", Max: limit}
	}
	out.Retain()
	r.next = append(r.next, out)
	return out, nil
}

// newRows returns b's rows not seen before (nil: none; b itself, retained,
// when all are new) and marks them seen.
func (r *RecursiveUnion) newRows(ctx context.Context, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if r.seen == nil {
		r.seen = map[string]struct{}{}
	}
	n := int(b.NumRows())
	cols := b.Columns()
	idx := make([]int32, 0, n)
	for row := 0; row < n; row++ {
		r.key = r.key[:0]
		for _, c := range cols {
			r.key, _ = appendKey(r.key, c, row)
		}
		if _, dup := r.seen[string(r.key)]; dup {
			continue
		}
		r.seen[string(r.key)] = struct{}{}
		r.seenBytes += int64(len(r.key)) + seenEntryOverhead
		idx = append(idx, int32(row))
	}
	switch len(idx) {
	case 0:
		return nil, nil
	case n:
		b.Retain()
		return b, nil
	}
	return TakeBatch(ctx, r.EC, r.Out, cols, idx)
}

func (r *RecursiveUnion) finish() {
	r.done = true
	ReleaseAll(r.work)
	ReleaseAll(r.next)
	r.work, r.next, r.seen = nil, nil, nil
}

// Close releases the working tables and closes the running input.
func (r *RecursiveUnion) Close() {
	if r.cur != nil {
		r.cur.Close()
		r.cur = nil
	}
	if r.Anchor != nil {
		r.Anchor.Close()
	}
	for _, jb := range r.Shared {
		jb.Close()
	}
	r.Shared = nil
	r.finish()
}
