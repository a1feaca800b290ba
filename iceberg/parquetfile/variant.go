package parquetfile

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// A variant column is stored unshredded (spec Appendix A): a group
// annotated VARIANT with two required BINARY fields, metadata and value,
// which carry no field ids and are found by name.

var variantGroupType = parquet.Variant().Type()

// variantNode makes n the Parquet group of a variant column.
func variantNode(n *pqNode) {
	n.typ = variantGroupType
	n.fields = []parquet.Field{
		&pqNode{name: "metadata", typ: parquet.ByteArrayType},
		&pqNode{name: "value", typ: parquet.ByteArrayType},
	}
}

// variantParts returns the metadata and value arrays of a variant array
// (the arrow variant extension type, or its struct storage).
func variantParts(arr arrow.Array) (meta, value arrow.Array, err error) {
	st, ok := arrowschema.Storage(arr).(*array.Struct)
	if !ok {
		return nil, nil, fmt.Errorf("%w: variant column given as %v", iceberg.ErrTypeMismatch, arr.DataType())
	}
	stt := st.DataType().(*arrow.StructType)
	mi, ok1 := stt.FieldIdx("metadata")
	vi, ok2 := stt.FieldIdx("value")
	if !ok1 || !ok2 {
		return nil, nil, fmt.Errorf("%w: variant column given as %v (want metadata and value)", iceberg.ErrTypeMismatch, arr.DataType())
	}
	if _, ok := stt.FieldIdx("typed_value"); ok {
		return nil, nil, fmt.Errorf("%w: writing shredded variants", iceberg.ErrUnsupported)
	}
	return st.Field(mi), st.Field(vi), nil
}

// bindVariant binds a variant field to its group in the file: a struct
// node of the metadata and value leaves, whose Arrow type is the variant
// extension type, or for a shredded group (a typed_value field, or an
// optional value) a node reassembled from its columns
// (bindShreddedVariant).
func (b *binder) bindVariant(n *rnode, c *parquet.Column, path []string, slotDef, rep byte) error {
	f := n.field
	if c.Leaf() || isListColumn(c) || isMapColumn(c) || bareRepeated(c, int(rep)) {
		return fmt.Errorf("%w: field %q (id %d) is a variant in the table but not a group in the file", iceberg.ErrTypeMismatch, f.Name, f.ID)
	}
	if isShreddedVariant(c) {
		return b.bindShreddedVariant(n, c, path, slotDef, rep)
	}
	var meta, value *parquet.Column
	for _, child := range c.Columns() {
		switch child.Name() {
		case "metadata":
			meta = child
		case "value":
			value = child
		}
	}
	if meta == nil || value == nil || !meta.Leaf() || !value.Leaf() {
		return fmt.Errorf("%w: variant field %q (id %d) lacks a metadata or value column", iceberg.ErrInvalidDataFile, f.Name, f.ID)
	}
	n.kind = kindStruct
	for _, part := range []struct {
		name string
		col  *parquet.Column
	}{{"metadata", meta}, {"value", value}} {
		pf := iceberg.NestedField{Name: part.name, Type: iceberg.BinaryType{}, Required: part.col.Required()}
		child, err := b.bind(pf, part.col, append(path, part.name), slotDef, rep)
		if err != nil {
			return err
		}
		n.children = append(n.children, child)
	}
	return nil
}

// isVariantColumn reports a group annotated VARIANT.
func isVariantColumn(c *parquet.Column) bool {
	lt := c.Type().LogicalType()
	if lt == nil {
		return false
	}
	_, ok := lt.Value.(*format.VariantType)
	return ok
}

// sqlNull reports a SQL NULL at row i. arrow-go's variant arrays also
// report a variant null (a value) as null, so their storage decides.
func sqlNull(arr arrow.Array, i int) bool {
	if _, ok := arr.(*extensions.VariantArray); ok {
		return arrowschema.Storage(arr).IsNull(i)
	}
	return arr.IsNull(i)
}
