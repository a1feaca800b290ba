package arrowschema

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// MakeNulls returns n nulls of type t. Unlike array.MakeArrayOfNull it
// accepts nested types with a null-typed child (an unknown field inside a
// struct, list or map), which arrow-go cannot build that way.
func MakeNulls(mem memory.Allocator, t arrow.DataType, n int) arrow.Array {
	if !nestsNull(t) {
		return array.MakeArrayOfNull(mem, t, n)
	}
	b := array.NewBuilder(mem, t)
	defer b.Release()
	b.AppendNulls(n)
	return b.NewArray()
}

// nestsNull reports a nested type with a null-typed descendant.
func nestsNull(t arrow.DataType) bool {
	nested, ok := t.(arrow.NestedType)
	if !ok {
		return false
	}
	for _, f := range nested.Fields() {
		if f.Type.ID() == arrow.NULL || nestsNull(f.Type) {
			return true
		}
	}
	return false
}
