package datafile

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// colRef is a primitive column reachable through structs, for reading
// single values by row (equality keys, residual predicates).
type colRef struct {
	leaf    arrow.Array
	parents []arrow.Array
	typ     iceberg.Type
}

// value is row i's value in the Go value form; nil when it or a parent
// struct is null.
func (c colRef) value(i int) (any, error) {
	for _, p := range c.parents {
		if p.IsNull(i) {
			return nil, nil
		}
	}
	return arrowschema.ValueAt(c.leaf, i, c.typ)
}

// resolveColumns finds the columns of the given field ids in rec, whose
// top-level columns are schema's fields in order.
func resolveColumns(rec arrow.RecordBatch, schema *iceberg.Schema, ids []int, into map[int]colRef) error {
	for _, id := range ids {
		f, ok := schema.FindFieldByID(id)
		if !ok {
			continue
		}
		path, err := columnPath(schema, id)
		if err != nil {
			return fmt.Errorf("%w: field %d: %v", iceberg.ErrUnsupported, id, err)
		}
		if path[0] >= int(rec.NumCols()) {
			return fmt.Errorf("%w: record has no column for field %d", iceberg.ErrTypeMismatch, id)
		}
		ref := colRef{leaf: rec.Column(path[0]), typ: f.Type}
		for _, idx := range path[1:] {
			st, ok := ref.leaf.(*array.Struct)
			if !ok || idx >= st.NumField() {
				return fmt.Errorf("%w: field %d is not a struct child in the record", iceberg.ErrTypeMismatch, id)
			}
			ref.parents = append(ref.parents, st)
			ref.leaf = st.Field(idx)
		}
		into[id] = ref
	}
	return nil
}
