package planner

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/sqlexec/exec"
)

// metadataAggregate is the one row the table's metadata gives, or the
// fallback aggregate's operators when the metadata does not answer.
func (b *builder) metadataAggregate(m *MetadataAggregate) (exec.RecordIterator, error) {
	vals, ok, err := m.Table.(MetadataAggregator).AggregateFromMetadata(b.ctx, m.Filters, m.Aggs)
	if err != nil {
		return nil, err
	}
	if !ok || len(vals) != len(m.Cols) {
		return b.build(m.Fallback)
	}
	out := SchemaOf(m.Cols)
	cols := make([]arrow.Array, len(m.Cols))
	defer func() { exec.ReleaseArrays(cols) }()
	for i, c := range m.Cols {
		bl := array.NewBuilder(b.ec.Mem, c.Type)
		err := exec.AppendValue(bl, vals[i])
		if err == nil {
			cols[i] = bl.NewArray()
		}
		bl.Release()
		if err != nil {
			// a value the column cannot hold: let the scan answer
			return b.build(m.Fallback)
		}
	}
	rb, err := exec.NewBatch(b.ec, out, cols, 1)
	if err != nil {
		return nil, err
	}
	return &exec.Values{Out: out, Batches: []arrow.RecordBatch{rb}}, nil
}
