package load

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// legacyListColumns reports, per top-level field of the Parquet schema
// (in pqarrow's field order), whether it holds a legacy 2-level list
// whose repeated group is itself annotated LIST (old_list_structure's
// `repeated group array (LIST) { repeated int32 array; }`). pqarrow
// reads that group as a struct of its one field, its annotation
// ignored; LogicalTypes.md's backward-compatibility rules (as
// iceberg/parquetfile's listElement applies them, so add_files) make it
// the element, a list. parquetCell unwraps such structs in those
// columns only, so a file's genuine one-field struct is never touched.
func legacyListColumns(root *schema.GroupNode) []bool {
	out := make([]bool, root.NumFields())
	for i := range out {
		out[i] = hasLegacyList(root.Field(i))
	}
	return out
}

func hasLegacyList(n schema.Node) bool {
	g, ok := n.(*schema.GroupNode)
	if !ok {
		return false
	}
	if isListNode(g) && g.NumFields() == 1 {
		if r, ok := g.Field(0).(*schema.GroupNode); ok && r.RepetitionType() == parquet.Repetitions.Repeated && isListNode(r) {
			return true
		}
	}
	for i := range g.NumFields() {
		if hasLegacyList(g.Field(i)) {
			return true
		}
	}
	return false
}

func isListNode(g *schema.GroupNode) bool {
	if _, ok := g.LogicalType().(schema.ListLogicalType); ok {
		return true
	}
	return g.ConvertedType() == schema.ConvertedTypes.List
}

// legacyElement is the element array of a list in a legacy-list column:
// a struct of exactly one list field (the shape pqarrow gives a LIST
// annotated repeated group) stands for that field; anything else is
// itself. The repeated group is required, so the struct has no NULLs
// of its own to lose.
func legacyElement(values arrow.Array) arrow.Array {
	s, ok := values.(*array.Struct)
	if !ok || s.NumField() != 1 || s.NullN() != 0 {
		return values
	}
	if _, ok := s.Field(0).(array.ListLike); !ok {
		return values
	}
	return s.Field(0)
}
