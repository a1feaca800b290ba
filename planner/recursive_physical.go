package planner

import (
	"maps"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// recursiveCTE builds the iteration: each step builds the recursive
// term afresh with its work table scans reading that step's rows.
func (b *builder) recursiveCTE(n *RecursiveCTE) (exec.RecordIterator, error) {
	anchor, err := b.build(n.Anchor)
	if err != nil {
		return nil, err
	}
	step := func(rows []arrow.RecordBatch) (exec.RecordIterator, error) {
		// a copy, so that builds of other references to the same CTE
		// (each with its own rows) never see this one's
		sb := *b
		sb.work = maps.Clone(b.work)
		if sb.work == nil {
			sb.work = map[*WorkTable][]arrow.RecordBatch{}
		}
		sb.work[n.Work] = rows
		return sb.build(n.Recursive)
	}
	return &exec.RecursiveUnion{Name: n.Work.Name, Anchor: anchor, Step: step, Distinct: n.Distinct,
		Out: SchemaOf(n.Columns()), EC: b.ec}, nil
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
