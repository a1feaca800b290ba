package planner

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/sqlexec/exec"
)

// parallelAggregate builds an Aggregate over a chain of filters,
// projections and join probes on a Scan as one partial aggregation per
// worker, each running its own copy of the chain over batches (or
// partitions) of the shared scan; each join's right side is built once
// and probed by every worker. It returns nil when the shape does not
// allow it: DISTINCT aggregates, subqueries (whose state is per
// operator), RIGHT or FULL joins, or any other node between the scan and
// the aggregate, or build sides that together pass the memory limit
// (a shared build side cannot spill, so the serial plan, whose joins
// can, runs instead).
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
		case *Generate:
			chain = append(chain, x)
			p = x.Input
			continue
		case *Join:
			if !probeParallel(x) {
				return nil, nil
			}
			chain = append(chain, x)
			p = x.Left
			continue
		}
		break
	}
	s, ok := p.(*Scan)
	if !ok {
		return nil, nil
	}
	var joinDict map[*Join][]bool
	if len(chain) == 1 {
		if j, ok := chain[0].(*Join); ok {
			if d := dictionaryJoinKey(n, j); d != nil {
				joinDict = map[*Join][]bool{j: d}
			}
		}
	}
	builds, fits, err := b.sharedBuilds(chain, joinDict)
	if err != nil || !fits {
		return nil, err
	}
	req := b.scanRequest(s)
	if len(chain) == 0 {
		req.Dictionary = dictionaryGroupKey(n, s, b.scanResidual(s, req))
	}
	var parts []exec.RecordIterator
	if pt, ok := s.Table.(PartitionedTable); ok {
		parts, err = pt.ScanPartitions(b.ctx, req)
	} else {
		var it exec.RecordIterator
		if it, err = s.Table.Scan(b.ctx, req); err == nil {
			parts = []exec.RecordIterator{it}
		}
	}
	if err != nil {
		closeBuilds(builds)
		return nil, err
	}
	residual := b.scanResidual(s, req)
	src := exec.NewSharedSource(SchemaOf(s.Columns()), parts, workers)
	inputs := make([]exec.RecordIterator, workers)
	for w := range inputs {
		var it exec.RecordIterator = src.Handle()
		if residual != nil {
			it = &exec.Filter{Input: it, Pred: residual, EC: b.ec}
		}
		// Under EXPLAIN ANALYZE the workers' copies of a node share its
		// counters.
		it = b.an.wrap(s, it)
		for i := len(chain) - 1; i >= 0; i-- {
			switch x := chain[i].(type) {
			case *Filter:
				it = &exec.Filter{Input: it, Pred: x.Pred, EC: b.ec}
			case *Project:
				it = &exec.Project{Input: it, Exprs: toExec(x.Exprs), Out: SchemaOf(x.Cols), EC: b.ec}
			case *Generate:
				it = x.operator(it, b.ec)
			case *Join:
				j := &exec.HashJoin{Left: it, Shared: builds[x], LeftKeys: toExec(x.LeftKeys), Type: x.Type,
					NullAware: x.NullAware, Out: joinOut(x, joinDict[x]), EC: b.ec, Unread: x.Unread}
				if x.Residual != nil {
					j.Residual = x.Residual
				}
				it = j
			}
			it = b.an.wrap(chain[i], it)
		}
		inputs[w] = it
	}
	shared := make([]*exec.JoinBuild, 0, len(builds))
	for _, jb := range builds {
		shared = append(shared, jb)
	}
	return &exec.ParallelAggregate{Inputs: inputs, Source: src, Builds: shared, Groups: toExec(n.Groups), Aggs: aggs, Out: SchemaOf(n.Cols), EC: b.ec}, nil
}

// probeParallel reports whether workers may each probe part of a join's
// left side against one shared build: every output row then depends on
// one probe row only (not so for RIGHT and FULL, whose unmatched build
// rows need all probes).
func probeParallel(j *Join) bool {
	switch j.Type {
	case exec.JoinInner, exec.JoinLeft, exec.JoinSemi, exec.JoinAnti:
		return true
	}
	return false
}

// sharedBuilds builds the right side of every join in chain once, for all
// workers to probe. fits is false, and nothing is kept, when the build
// sides together pass the memory limit; the caller then plans joins that
// spill (which read their build sides again: at most the limit's worth
// of rows was read here).
func (b *builder) sharedBuilds(chain []Plan, dict map[*Join][]bool) (builds map[*Join]*exec.JoinBuild, fits bool, err error) {
	builds = map[*Join]*exec.JoinBuild{}
	var used int64
	for _, p := range chain {
		j, ok := p.(*Join)
		if !ok {
			continue
		}
		right, err := b.build(j.Right)
		if err != nil {
			closeBuilds(builds)
			return nil, false, err
		}
		keys := toExec(j.RightKeys)
		held, estimate, over, err := exec.CollectJoinBuild(b.ctx, b.ec, right, keys, used)
		if err != nil || over {
			exec.ReleaseAll(held)
			right.Close()
			closeBuilds(builds)
			return nil, false, err
		}
		used += estimate
		jb, err := exec.NewJoinBuildDict(b.ctx, b.ec, right, keys, false, held, dict[j])
		if err != nil {
			closeBuilds(builds)
			return nil, false, err
		}
		builds[j] = jb
	}
	return builds, true, nil
}

func closeBuilds(builds map[*Join]*exec.JoinBuild) {
	for _, jb := range builds {
		jb.Close()
	}
}

func exprsHaveSubquery(es []Expr) bool {
	for _, e := range es {
		if hasSubquery(e) {
			return true
		}
	}
	return false
}

// dictionaryGroupKey asks the scan for an aggregate's only group key as
// dictionary arrays when it is a string column the scan feeds straight
// to the group table (no aggregate argument or residual filter reads
// it): the group table then works per distinct dictionary entry.
func dictionaryGroupKey(n *Aggregate, s *Scan, residual Expr) []bool {
	if len(n.Groups) != 1 {
		return nil
	}
	ref, ok := n.Groups[0].(*ColumnRef)
	cols := s.Columns()
	if !ok || ref.Index < 0 || ref.Index >= len(cols) || cols[ref.Index].Type.ID() != arrow.STRING {
		return nil
	}
	used := map[int]bool{}
	if residual != nil {
		columnsUsed(residual, used)
	}
	for _, a := range n.Aggs {
		if a.Arg != nil {
			columnsUsed(a.Arg, used)
		}
	}
	if used[ref.Index] {
		return nil
	}
	dict := make([]bool, len(cols))
	dict[ref.Index] = true
	return dict
}

// dictionaryJoinKey marks the build column of an inner or left join
// below an aggregate whose only group key it is, a string column nothing
// else reads: the build holds it as a dictionary, so the join gathers
// indexes and the group table maps each distinct value once.
func dictionaryJoinKey(n *Aggregate, j *Join) []bool {
	if (j.Type != exec.JoinInner && j.Type != exec.JoinLeft) || j.Residual != nil || len(n.Groups) != 1 {
		return nil
	}
	ref, ok := n.Groups[0].(*ColumnRef)
	nl := numColumns(j.Left)
	right := j.Right.Columns()
	if !ok || ref.Index < nl || ref.Index-nl >= len(right) || right[ref.Index-nl].Type.ID() != arrow.STRING {
		return nil
	}
	used := map[int]bool{}
	for _, a := range n.Aggs {
		if a.Arg != nil {
			columnsUsed(a.Arg, used)
		}
	}
	keys := map[int]bool{} // indexes of the right side's columns
	for _, k := range j.RightKeys {
		columnsUsed(k, keys)
	}
	if used[ref.Index] || keys[ref.Index-nl] {
		return nil
	}
	dict := make([]bool, len(right))
	dict[ref.Index-nl] = true
	return dict
}

// joinOut is a join's output schema, with the build columns dict marks
// as dictionaries.
func joinOut(j *Join, dict []bool) *arrow.Schema {
	out := SchemaOf(j.Columns())
	if dict == nil {
		return out
	}
	fields := out.Fields()
	nl := len(fields) - len(dict)
	for i, d := range dict {
		if d {
			fields[nl+i].Type = exec.DictionaryString
		}
	}
	md := out.Metadata()
	return arrow.NewSchema(fields, &md)
}
