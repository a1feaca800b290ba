package planner

import (
	"github.com/icesql/icesql/sqlexec/exec"
)

// parallelAggregate builds an Aggregate over a Filter/Project chain on a
// Scan as one partial aggregation per worker, each running its own copy
// of the chain over batches (or partitions) of the shared scan. It
// returns nil when the shape does not allow it: DISTINCT aggregates,
// subqueries (whose state is per operator) or anything but filters and
// projections between the scan and the aggregate.
func (b *builder) parallelAggregate(n *Aggregate, aggs []exec.AggSpec) (exec.RecordIterator, error) {
	workers := b.ec.WorkerCount()
	if workers < 2 {
		return nil, nil
	}
	for _, a := range n.Aggs {
		if a.Distinct {
			return nil, nil
		}
	}
	if exprsHaveSubquery(planExprs(n)) {
		return nil, nil
	}
	var chain []Plan
	p := n.Input
	for {
		if exprsHaveSubquery(planExprs(p)) {
			return nil, nil
		}
		switch x := p.(type) {
		case *Filter:
			chain = append(chain, x)
			p = x.Input
			continue
		case *Project:
			chain = append(chain, x)
			p = x.Input
			continue
		}
		break
	}
	s, ok := p.(*Scan)
	if !ok {
		return nil, nil
	}
	req := ScanRequest{Columns: s.Cols, Filters: s.Filters, Limit: s.Limit}
	var parts []exec.RecordIterator
	if pt, ok := s.Table.(PartitionedTable); ok {
		ps, err := pt.ScanPartitions(b.ctx, req)
		if err != nil {
			return nil, err
		}
		parts = ps
	} else {
		it, err := s.Table.Scan(b.ctx, req)
		if err != nil {
			return nil, err
		}
		parts = []exec.RecordIterator{it}
	}
	residual := b.scanResidual(s, req)
	src := exec.NewSharedSource(SchemaOf(s.Columns()), parts, workers)
	inputs := make([]exec.RecordIterator, workers)
	for w := range inputs {
		var it exec.RecordIterator = src.Handle()
		if residual != nil {
			it = &exec.Filter{Input: it, Pred: residual, EC: b.ec}
		}
		for i := len(chain) - 1; i >= 0; i-- {
			switch x := chain[i].(type) {
			case *Filter:
				it = &exec.Filter{Input: it, Pred: x.Pred, EC: b.ec}
			case *Project:
				it = &exec.Project{Input: it, Exprs: toExec(x.Exprs), Out: SchemaOf(x.Cols), EC: b.ec}
			}
		}
		inputs[w] = it
	}
	return &exec.ParallelAggregate{Inputs: inputs, Source: src, Groups: toExec(n.Groups), Aggs: aggs, Out: SchemaOf(n.Cols), EC: b.ec}, nil
}

func exprsHaveSubquery(es []Expr) bool {
	for _, e := range es {
		if hasSubquery(e) {
			return true
		}
	}
	return false
}
