// Package writeorder sorts the rows a write produces by the table's
// default sort order (ALTER TABLE ... WRITE ORDERED BY), as Java's
// writers sort each task's rows before writing them: every file written
// is then sorted, so its column bounds are tight and scans prune by them.
package writeorder

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

// Keys returns the sort keys of meta's default sort order over rows in
// the table schema's column order, and the order id to record on the
// files written from them. It returns no keys and id 0 when the table is
// unsorted or a source of the order is not a top-level column of rows
// (then nothing claims the files sorted); no keys and the order's id
// when the order has only void fields (every order is that order).
func Keys(meta *iceberg.TableMetadata, rows *arrow.Schema) ([]exec.SortKey, int, error) {
	order := meta.SortOrder()
	if order == nil || len(order.Fields) == 0 {
		return nil, 0, nil
	}
	keys, ok, err := sortKeys(meta.CurrentSchema(), order, rows)
	if err != nil || !ok {
		return nil, 0, err
	}
	return keys, order.OrderID, nil
}

// sortKeys is the sort keys of order over rows in the schema's
// column order; ok is false when a source is not a top-level column.
func sortKeys(schema *iceberg.Schema, order *iceberg.SortOrder, rows *arrow.Schema) ([]exec.SortKey, bool, error) {
	fields := schema.Fields()
	if rows.NumFields() != len(fields) {
		return nil, false, nil
	}
	var keys []exec.SortKey
	last := len(order.Fields) - 1
	for last >= 0 {
		if _, void := order.Fields[last].Transform.(iceberg.VoidTransform); !void {
			break
		}
		last--
	}
	for i, f := range order.Fields[:last+1] {
		col := -1
		for c, nf := range fields {
			if nf.ID == f.SourceID {
				col = c
			}
		}
		if col < 0 {
			return nil, false, nil
		}
		src := fields[col]
		if _, void := f.Transform.(iceberg.VoidTransform); void {
			continue
		}
		var key exec.Expr = &planner.ColumnRef{Index: col, Name: src.Name, Type: rows.Field(col).Type}
		_, identity := f.Transform.(iceberg.IdentityTransform)
		// A monotone transform as the last key: ordering by its source
		// orders by the transform too (more finely), without computing it.
		if !identity && !(i == last && monotone(f.Transform)) {
			tk, err := newTransformKey(col, src.Type, f.Transform)
			if err != nil {
				return nil, false, err
			}
			key = tk
		}
		keys = append(keys, exec.SortKey{Expr: key, Desc: f.Direction == iceberg.SortDesc, NullsFirst: f.NullOrder == iceberg.NullsFirst})
	}
	return keys, true, nil
}

// monotone reports whether a transform never reverses the order of two
// values (bucket does).
func monotone(tr iceberg.Transform) bool {
	switch tr.(type) {
	case iceberg.YearTransform, iceberg.MonthTransform, iceberg.DayTransform, iceberg.HourTransform, iceberg.TruncateTransform:
		return true
	}
	return false
}

// transformKey evaluates a sort field's transform of a column, row by row
// through the Iceberg value form (the transforms' own code, so the order
// is the one every engine computes).
type transformKey struct {
	col int
	src iceberg.Type
	tr  iceberg.Transform
	typ arrow.DataType
}

func newTransformKey(col int, src iceberg.Type, tr iceberg.Transform) (*transformKey, error) {
	if !tr.CanTransform(src) {
		return nil, fmt.Errorf("%w: sort order transform %s cannot apply to %s", iceberg.ErrInvalidMetadata, tr, src)
	}
	typ, err := arrowschema.TypeToArrow(tr.ResultType(src))
	if err != nil {
		return nil, err
	}
	return &transformKey{col: col, src: src, tr: tr, typ: typ}, nil
}

func (k *transformKey) DataType() arrow.DataType { return k.typ }
func (k *transformKey) String() string           { return fmt.Sprintf("%s(#%d)", k.tr, k.col) }

func (k *transformKey) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	col := b.Column(k.col)
	bld := array.NewBuilder(ec.Mem, k.typ)
	defer bld.Release()
	bld.Reserve(col.Len())
	for i := range col.Len() {
		v, err := arrowschema.ValueAt(col, i, k.src)
		if err != nil {
			return nil, err
		}
		if err := arrowschema.AppendValue(bld, k.tr.Apply(v)); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}
