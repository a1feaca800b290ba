package exec

import (
	"context"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"
)

// aggSpill drives an aggregation operator's passes: the first over its
// input, then one per spilled partition. It owns every spill file.
type aggSpill struct {
	ec     *EvalContext
	groups []Expr
	specs  []AggSpec
	out    *arrow.Schema
	files  spillFiles
	todo   []aggRun      // partitions still to aggregate, a stack
	schema *arrow.Schema // of the partition files
	// shared, for a parallel aggregation, is the workers' merged tables:
	// partitions' groups that it holds are merged into it, not emitted,
	// and it is emitted last.
	shared *aggState
	// partGroups and partSpecs read the partition files' columns.
	partGroups []Expr
	partSpecs  []AggSpec
	passes     int // partition passes run (for tests)
}

// aggRun is one partition: its files (one per worker that spilled into
// it) and the level of the pass that will aggregate it.
type aggRun struct {
	parts []sortedRun
	level int
}

func newAggSpill(ec *EvalContext, groups []Expr, specs []AggSpec, out *arrow.Schema) *aggSpill {
	return &aggSpill{ec: ec, groups: groups, specs: specs, out: out, files: spillFiles{dir: ec.SpillDir}}
}

// newBudget is one pass's (or one set of workers') budget: half the
// limit, since emitting the table copies it once more.
func (sp *aggSpill) newBudget() *aggBudget {
	return &aggBudget{limit: sp.ec.memoryLimit() / 2}
}

// first aggregates in and returns the rows of the groups that stayed in
// memory; the spilled partitions wait on the stack.
func (sp *aggSpill) first(ctx context.Context, in RecordIterator) (arrow.RecordBatch, error) {
	st, err := newAggState(sp.ec, sp.groups, sp.specs)
	if err != nil {
		return nil, err
	}
	p := newAggPass(sp.ec, st, sp.newBudget(), 0, maphash.MakeSeed(), &sp.files)
	if err := p.consume(ctx, in); err != nil {
		p.abort()
		return nil, err
	}
	parts, err := p.finish()
	if err != nil {
		return nil, err
	}
	if err := sp.push(p.schema, 1, [][]sortedRun{parts}); err != nil {
		return nil, err
	}
	return st.output(sp.out)
}

// push stacks partition i of every source as one run.
func (sp *aggSpill) push(schema *arrow.Schema, level int, sources [][]sortedRun) error {
	if schema == nil {
		return nil
	}
	if sp.schema == nil {
		sp.schema = schema
	} else if !sp.schema.Equal(schema) {
		return &BatchTypeError{Column: "aggregation spill", Want: sp.schema.String(), Got: schema.String()}
	}
	for i := range aggFanOut {
		var r aggRun
		for _, parts := range sources {
			if parts != nil && parts[i].path != "" {
				r.parts = append(r.parts, parts[i])
			}
		}
		if len(r.parts) > 0 {
			r.level = level
			sp.todo = append(sp.todo, r)
		}
	}
	return nil
}

// next aggregates partitions until one yields rows; at the end it emits
// the shared table, if any, and removes what is left.
func (sp *aggSpill) next(ctx context.Context) (arrow.RecordBatch, error) {
	for len(sp.todo) > 0 {
		r := sp.todo[len(sp.todo)-1]
		sp.todo = sp.todo[:len(sp.todo)-1]
		out, err := sp.process(ctx, r)
		if err != nil {
			sp.release()
			return nil, err
		}
		if out != nil {
			return out, nil
		}
	}
	st := sp.shared
	sp.release()
	if st != nil {
		return st.output(sp.out)
	}
	return nil, nil
}

// process aggregates one partition and returns the rows it emits.
func (sp *aggSpill) process(ctx context.Context, r aggRun) (arrow.RecordBatch, error) {
	if sp.partGroups == nil {
		sp.partGroups, sp.partSpecs = partitionExprs(sp.schema, len(sp.groups), sp.specs)
	}
	st, err := newAggState(sp.ec, sp.partGroups, sp.partSpecs)
	if err != nil {
		return nil, err
	}
	sp.passes++
	p := newAggPass(sp.ec, st, sp.newBudget(), r.level, maphash.MakeSeed(), &sp.files)
	for _, run := range r.parts {
		if err := sp.read(ctx, p, run); err != nil {
			p.abort()
			return nil, err
		}
	}
	parts, err := p.finish()
	if err != nil {
		return nil, err
	}
	if err := sp.push(p.schema, r.level+1, [][]sortedRun{parts}); err != nil {
		return nil, err
	}
	return sp.emit(ctx, st)
}

// read feeds one partition file to p and removes it.
func (sp *aggSpill) read(ctx context.Context, p *aggPass, run sortedRun) error {
	c, err := openRun(sp.ec, run, sp.schema, 0)
	if err != nil {
		return err
	}
	defer sp.files.remove(run.path)
	defer c.close()
	for c.batch != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := p.addCols(ctx, c.batch.Columns(), int(c.batch.NumRows())); err != nil {
			return err
		}
		if err := c.load(); err != nil {
			return err
		}
	}
	return nil
}

// emit returns st's rows; groups the shared table holds are merged
// into it instead.
func (sp *aggSpill) emit(ctx context.Context, st *aggState) (arrow.RecordBatch, error) {
	if sp.shared == nil {
		return st.output(sp.out)
	}
	mapping := make([]int32, st.gt.nGroups)
	kept := make([]int32, 0, st.gt.nGroups)
	for g := range st.gt.nGroups {
		if id, ok := sp.shared.gt.lookup(st.gt, g); ok {
			mapping[g] = id
		} else {
			mapping[g] = -1
			kept = append(kept, int32(g))
		}
	}
	if len(kept) < st.gt.nGroups {
		if err := sp.shared.mergeMapped(st, mapping); err != nil {
			return nil, err
		}
	}
	if len(kept) == 0 {
		return nil, nil
	}
	out, err := st.output(sp.out)
	if err != nil || out == nil || len(kept) == st.gt.nGroups {
		return out, err
	}
	defer out.Release()
	return TakeBatch(ctx, sp.ec, sp.out, out.Columns(), kept)
}

// release removes every spill file and drops what is left to do.
func (sp *aggSpill) release() {
	sp.files.removeAll()
	sp.todo = nil
	sp.shared = nil
}

// partitionExprs reads a partition file's columns: the groups, then one
// argument column per aggregate that has one.
func partitionExprs(schema *arrow.Schema, nGroups int, specs []AggSpec) ([]Expr, []AggSpec) {
	groups := make([]Expr, nGroups)
	for i := range groups {
		groups[i] = spillCol{i: i, t: schema.Field(i).Type}
	}
	out := make([]AggSpec, len(specs))
	next := nGroups
	for i, s := range specs {
		out[i] = s
		if s.Arg != nil {
			out[i].Arg = spillCol{i: next, t: schema.Field(next).Type}
			next++
		}
	}
	return groups, out
}

// spillCol is column i of a spill file.
type spillCol struct {
	i int
	t arrow.DataType
}

func (c spillCol) DataType() arrow.DataType { return c.t }
func (c spillCol) Eval(_ *EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	a := b.Column(c.i)
	a.Retain()
	return a, nil
}
