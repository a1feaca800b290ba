package load

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg"
)

// parquetCell reads element i of a Parquet file's column as a value of
// the table type target: primitives through parquetValue and coerce,
// structs, lists and maps recursively into the nested forms appendAny
// takes (struct fields matched by name, case-insensitively; fields the
// file lacks are NULL). legacy marks a column of legacyListColumns.
func parquetCell(arr arrow.Array, i int, target iceberg.Type, legacy bool) (any, error) {
	if arr.IsNull(i) {
		return nil, nil
	}
	switch t := target.(type) {
	case *iceberg.StructType:
		a, ok := arr.(*array.Struct)
		if !ok {
			return nil, fmt.Errorf("%w: the file holds %s where the table has %s", ErrBadValue, arr.DataType(), t)
		}
		st := a.DataType().(*arrow.StructType)
		out := make(structValue, len(t.FieldList))
		for k := range st.NumFields() {
			name := st.Field(k).Name
			at := fieldIndex(t, name)
			if at < 0 {
				return nil, fmt.Errorf("%w: struct field %q is not a field of %s", ErrBadValue, name, t)
			}
			v, err := parquetCell(a.Field(k), i, t.FieldList[at].Type, legacy)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", name, err)
			}
			out[at] = v
		}
		return out, nil
	case *iceberg.ListType:
		if _, isMap := arr.(*array.Map); isMap {
			break
		}
		a, ok := arr.(array.ListLike)
		if !ok {
			return nil, fmt.Errorf("%w: the file holds %s where the table has %s", ErrBadValue, arr.DataType(), t)
		}
		start, end := a.ValueOffsets(i)
		values := a.ListValues()
		if _, ok := t.Element.(*iceberg.ListType); ok && legacy {
			values = legacyElement(values)
		}
		out := make([]any, 0, end-start)
		for j := start; j < end; j++ {
			v, err := parquetCell(values, int(j), t.Element, legacy)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", j-start+1, err)
			}
			out = append(out, v)
		}
		return out, nil
	case *iceberg.MapType:
		a, ok := arr.(*array.Map)
		if !ok {
			return nil, fmt.Errorf("%w: the file holds %s where the table has %s", ErrBadValue, arr.DataType(), t)
		}
		start, end := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		m := mapValue{}
		for j := start; j < end; j++ {
			k, err := parquetCell(keys, int(j), t.Key, legacy)
			if err == nil && k == nil {
				err = fmt.Errorf("%w: a NULL map key", ErrBadValue)
			}
			if err != nil {
				return nil, fmt.Errorf("key %d: %w", j-start+1, err)
			}
			v, err := parquetCell(items, int(j), t.Value, legacy)
			if err != nil {
				return nil, fmt.Errorf("value of key %v: %w", k, err)
			}
			m.keys, m.values = append(m.keys, k), append(m.values, v)
		}
		return m, nil
	}
	if ext, ok := arr.(array.ExtensionArray); ok {
		// arrow.uuid and other extensions over a primitive storage (Parquet's
		// UUID logical type as other writers' readers hand it over) read as
		// their storage; an extension type counts as nested by its methods.
		if _, nested := ext.Storage().DataType().(arrow.NestedType); !nested {
			arr = ext.Storage()
		}
	}
	if _, nested := arr.DataType().(arrow.NestedType); nested {
		return nil, fmt.Errorf("%w: the file holds %s where the table has %s", ErrBadValue, arr.DataType(), target)
	}
	v, err := parquetValue(arr, i, target)
	if err != nil {
		return nil, err
	}
	return coerce(target, v)
}
