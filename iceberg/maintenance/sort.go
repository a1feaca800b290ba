package maintenance

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/datafile"
)

// rowSorter orders the rows of record batches by a sort order whose
// source columns are top-level primitive columns.
type rowSorter struct {
	fields []sortKey
}

type sortKey struct {
	col   int // top-level column index
	typ   iceberg.Type
	field iceberg.SortField
}

func newRowSorter(schema *iceberg.Schema, order *iceberg.SortOrder) (*rowSorter, error) {
	s := &rowSorter{}
	for _, f := range order.Fields {
		col := slices.IndexFunc(schema.Fields(), func(nf iceberg.NestedField) bool { return nf.ID == f.SourceID })
		if col < 0 {
			return nil, &ArgumentError{Procedure: "rewrite_data_files", Argument: "sort_order",
				Reason: fmt.Sprintf("sort field %d is not a top-level column", f.SourceID)}
		}
		t := schema.Fields()[col].Type
		if _, ok := t.(iceberg.PrimitiveType); !ok {
			return nil, &ArgumentError{Procedure: "rewrite_data_files", Argument: "sort_order",
				Reason: fmt.Sprintf("cannot sort by nested column %q", schema.Fields()[col].Name)}
		}
		s.fields = append(s.fields, sortKey{col: col, typ: t, field: f})
	}
	return s, nil
}

// sort concatenates the records and returns their rows in order.
func (s *rowSorter) sort(ctx context.Context, recs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	tbl := array.NewTableFromRecords(recs[0].Schema(), recs)
	defer tbl.Release()
	cols := make([]arrow.Array, tbl.NumCols())
	for i := range cols {
		c, err := array.Concatenate(tbl.Column(i).Data().Chunks(), memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("maintenance: sorting rows: %w", err)
		}
		defer c.Release()
		cols[i] = c
	}
	rec := array.NewRecordBatch(tbl.Schema(), cols, tbl.NumRows())
	defer rec.Release()

	n := int(tbl.NumRows())
	keys := make([][]any, len(s.fields))
	for k, f := range s.fields {
		keys[k] = make([]any, n)
		for i := range n {
			v, err := arrowschema.ValueAt(cols[f.col], i, f.typ)
			if err != nil {
				return nil, err
			}
			if f.field.Transform != nil {
				v = f.field.Transform.Apply(v)
			}
			keys[k][i] = v
		}
	}
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		for k, f := range s.fields {
			if c := compareSortValues(keys[k][a], keys[k][b], f.field); c != 0 {
				return c
			}
		}
		return 0
	})
	return datafile.TakeRows(ctx, rec, idx)
}

// compareSortValues orders two values of one sort field, honouring its
// direction and null order.
func compareSortValues(a, b any, f iceberg.SortField) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil || b == nil:
		nullFirst := f.NullOrder != iceberg.NullsLast
		if (a == nil) == nullFirst {
			return -1
		}
		return 1
	}
	// Keys of one sort field share a type, so they are always comparable;
	// floats take the spec's order (-0 before +0, NaN last).
	c, _ := iceberg.CompareValues(a, b)
	if f.Direction == iceberg.SortDesc {
		return -c
	}
	return c
}
