package load

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// Nested values read from JSON are kept in these forms until appended:
// a list as []any, a struct as structValue (one value per field, in
// field order) and a map as mapValue.
type structValue []any

type mapValue struct{ keys, values []any }

// fromJSONNested converts a JSON array or object to the nested type t.
func fromJSONNested(t iceberg.Type, v any) (any, error) {
	switch t := t.(type) {
	case *iceberg.ListType:
		elems, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("want a JSON array for %s", t)
		}
		out := make([]any, len(elems))
		for i, e := range elems {
			c, err := fromJSON(t.Element, e)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i+1, err)
			}
			out[i] = c
		}
		return out, nil
	case *iceberg.MapType:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("want a JSON object for %s", t)
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys) // a stable order for the same input
		m := mapValue{}
		for _, k := range keys {
			kv, err := fromText(t.Key, k)
			if err != nil {
				return nil, fmt.Errorf("key %q: %w", k, err)
			}
			vv, err := fromJSON(t.Value, obj[k])
			if err != nil {
				return nil, fmt.Errorf("value of key %q: %w", k, err)
			}
			m.keys, m.values = append(m.keys, kv), append(m.values, vv)
		}
		return m, nil
	case *iceberg.StructType:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("want a JSON object for %s", t)
		}
		out := make(structValue, len(t.FieldList))
		for k, e := range obj {
			i := fieldIndex(t, k)
			if i < 0 {
				return nil, fmt.Errorf("key %q is not a field of %s", k, t)
			}
			c, err := fromJSON(t.FieldList[i].Type, e)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", t.FieldList[i].Name, err)
			}
			out[i] = c
		}
		return out, nil
	}
	return nil, errors.New("nested JSON values fill list, map and struct columns only")
}

func fieldIndex(t *iceberg.StructType, name string) int {
	for i, f := range t.FieldList {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// appendAny appends a value in the Iceberg Go form, or one of the
// nested forms above, to a builder of the matching Arrow type.
func appendAny(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch b := b.(type) {
	case *array.ListBuilder:
		elems, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%w: %T for a list", ErrBadValue, v)
		}
		b.Append(true)
		for _, e := range elems {
			if err := appendAny(b.ValueBuilder(), e); err != nil {
				return err
			}
		}
		return nil
	case *array.MapBuilder:
		m, ok := v.(mapValue)
		if !ok {
			return fmt.Errorf("%w: %T for a map", ErrBadValue, v)
		}
		b.Append(true)
		for i := range m.keys {
			if err := appendAny(b.KeyBuilder(), m.keys[i]); err != nil {
				return err
			}
			if err := appendAny(b.ItemBuilder(), m.values[i]); err != nil {
				return err
			}
		}
		return nil
	case *array.StructBuilder:
		fields, ok := v.(structValue)
		if !ok || len(fields) != b.NumField() {
			return fmt.Errorf("%w: %T for a struct", ErrBadValue, v)
		}
		b.Append(true)
		for i, f := range fields {
			if err := appendAny(b.FieldBuilder(i), f); err != nil {
				return err
			}
		}
		return nil
	}
	return arrowschema.AppendValue(b, v)
}
