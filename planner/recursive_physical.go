package planner

import (
	"maps"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// recursiveCTE builds the iteration: each step builds the recursive
// term afresh with its work table scans reading that step's rows. Join
// build sides that do not read the working table are hashed once and
// shared by every step.
func (b *builder) recursiveCTE(n *RecursiveCTE) (exec.RecordIterator, error) {
	anchor, err := b.build(n.Anchor)
	if err != nil {
		return nil, err
	}
	shared, err := b.invariantJoinBuilds(n.Recursive, n.Work)
	if err != nil {
		anchor.Close()
		return nil, err
	}
	// copies, so that builds of other references to the same CTE (each
	// with its own rows) never see this one's
	joinBuilds := maps.Clone(b.joinBuilds)
	if joinBuilds == nil {
		joinBuilds = map[*Join]*exec.JoinBuild{}
	}
	list := make([]*exec.JoinBuild, 0, len(shared))
	for j, jb := range shared {
		joinBuilds[j] = jb
		list = append(list, jb)
	}
	step := func(rows []arrow.RecordBatch) (exec.RecordIterator, error) {
		sb := *b
		sb.work = maps.Clone(b.work)
		if sb.work == nil {
			sb.work = map[*WorkTable][]arrow.RecordBatch{}
		}
		sb.work[n.Work] = rows
		sb.joinBuilds = joinBuilds
		return sb.build(n.Recursive)
	}
	return &exec.RecursiveUnion{Name: n.Work.Name, Anchor: anchor, Step: step, Distinct: n.Distinct,
		Shared: list, Out: SchemaOf(n.Columns()), EC: b.ec}, nil
}

// invariantJoinBuilds prepares the build side of every join in rec
// (outside nested recursive CTEs) whose right input does not read work.
func (b *builder) invariantJoinBuilds(rec Plan, work *WorkTable) (map[*Join]*exec.JoinBuild, error) {
	builds := map[*Join]*exec.JoinBuild{}
	var walk func(p Plan) error
	walk = func(p Plan) error {
		switch n := p.(type) {
		case *RecursiveCTE:
			return nil
		case *Join:
			if _, seen := builds[n]; !seen && countWorkScans(n.Right, work) == 0 {
				right, err := b.build(n.Right)
				if err != nil {
					return err
				}
				builds[n] = exec.NewJoinBuild(b.ec, right, toExec(n.RightKeys), false)
				return walk(n.Left)
			}
		}
		for _, c := range p.Children() {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(rec); err != nil {
		for _, jb := range builds {
			jb.Close()
		}
		return nil, err
	}
	return builds, nil
}

// sharedJoin probes a build side hashed once for all steps.
func (b *builder) sharedJoin(n *Join, jb *exec.JoinBuild) (exec.RecordIterator, error) {
	l, err := b.build(n.Left)
	if err != nil {
		return nil, err
	}
	j := &exec.HashJoin{Left: l, Shared: jb, LeftKeys: toExec(n.LeftKeys), RightKeys: toExec(n.RightKeys),
		Type: n.Type, NullAware: n.NullAware, Out: SchemaOf(n.Columns()), EC: b.ec, Unread: n.Unread}
	if n.Residual != nil {
		j.Residual = n.Residual
	}
	return j, nil
}

func (b *builder) workTableScan(n *WorkTableScan) (exec.RecordIterator, error) {
	rows, ok := b.work[n.Work]
	if !ok {
		return nil, recursiveErr(n.Work.Name, "its working table is read outside its recursive term")
	}
	out := SchemaOf(n.Columns())
	bs := make([]arrow.RecordBatch, len(rows))
	for i, r := range rows {
		r.Retain()
		bs[i] = r
	}
	return &exec.Values{Out: out, Batches: bs}, nil
}
