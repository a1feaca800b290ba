package exec

import (
	"context"
	"hash/maphash"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// aggregate runs one hybrid pass per input on its own goroutine, all
// under one budget and one hash seed, then merges the tables that stayed
// in memory. Partition i of every worker is aggregated as one run;
// groups that some worker's table also held are merged into the shared
// table, which is emitted last.
func (p *ParallelAggregate) aggregate(ctx context.Context) (arrow.RecordBatch, error) {
	sp := newAggSpill(p.EC, p.Groups, p.Aggs, p.Out)
	p.spill = sp
	return sp.begin(ctx, func() (arrow.RecordBatch, error) { return sp.parallelFirst(ctx, p.Inputs) })
}

func (sp *aggSpill) parallelFirst(ctx context.Context, inputs []RecordIterator) (arrow.RecordBatch, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	budget, seed := sp.newBudget(), maphash.MakeSeed()
	passes := make([]*aggPass, len(inputs))
	files := make([]spillFiles, len(inputs))
	errs := make([]error, len(inputs))
	var wg sync.WaitGroup
	for i, in := range inputs {
		files[i].dir = sp.files.dir
		st, err := newAggState(sp.ec, sp.groups, sp.specs)
		if err != nil {
			return nil, err
		}
		passes[i] = newAggPass(sp.ec, st, budget, 0, seed, &files[i])
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := passes[i].consume(wctx, in); err != nil {
				errs[i] = err
				cancel()
			}
		}()
	}
	wg.Wait()
	// the workers' files become the operator's, to be removed with it
	for _, f := range files {
		for path := range f.paths {
			if sp.files.paths == nil {
				sp.files.paths = map[string]bool{}
			}
			sp.files.paths[path] = true
		}
	}
	if err := firstError(ctx, errs); err != nil {
		for _, p := range passes {
			p.abort()
		}
		return nil, err
	}
	sources := make([][]sortedRun, len(passes))
	var finishErr error
	for i, p := range passes {
		if finishErr != nil {
			p.abort()
			continue
		}
		sources[i], finishErr = p.finish()
		if finishErr == nil {
			finishErr = sp.push(p.schema, 1, nil)
		}
	}
	if finishErr != nil {
		return nil, finishErr
	}
	if err := sp.push(sp.schema, 1, sources); err != nil {
		return nil, err
	}
	// the first worker's table becomes the shared one (merging it into
	// an empty table would only copy it)
	if len(passes) == 0 {
		st, err := newAggState(sp.ec, sp.groups, sp.specs)
		if err != nil {
			return nil, err
		}
		return st.output(sp.out)
	}
	shared := passes[0].st
	passes[0].st = nil
	for _, p := range passes[1:] {
		if err := shared.merge(p.st); err != nil {
			return nil, err
		}
		p.st = nil
	}
	if len(sp.todo) == 0 {
		return shared.output(sp.out)
	}
	sp.shared = shared
	return nil, nil
}
