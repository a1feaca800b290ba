package sqlexec

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// buildBatch builds one batch of rows in the Iceberg Go value form, with
// []any for lists and structs and map[string]string or [][2]any for maps.
func buildBatch(schema *arrow.Schema, rows [][]any) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, row := range rows {
		if len(row) != schema.NumFields() {
			return nil, fmt.Errorf("sqlexec: internal: row has %d values for %d columns", len(row), schema.NumFields())
		}
		for i, v := range row {
			if err := appendAny(b.Field(i), v); err != nil {
				return nil, fmt.Errorf("column %s: %w", schema.Field(i).Name, err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// rowsIterator is an in-memory result.
func rowsIterator(schema *arrow.Schema, rows [][]any) (*batchIterator, error) {
	rec, err := buildBatch(schema, rows)
	if err != nil {
		return nil, err
	}
	return &batchIterator{schema: schema, batches: []arrow.RecordBatch{rec}}, nil
}

func appendAny(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch bb := b.(type) {
	case *array.ListBuilder:
		items, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%w: %T for a list", iceberg.ErrTypeMismatch, v)
		}
		bb.Append(true)
		for _, it := range items {
			if err := appendAny(bb.ValueBuilder(), it); err != nil {
				return err
			}
		}
		return nil
	case *array.MapBuilder:
		bb.Append(true)
		switch m := v.(type) {
		case map[string]string:
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				bb.KeyBuilder().(*array.StringBuilder).Append(k)
				if err := appendAny(bb.ItemBuilder(), m[k]); err != nil {
					return err
				}
			}
		case [][2]any:
			for _, kv := range m {
				if err := appendAny(bb.KeyBuilder(), kv[0]); err != nil {
					return err
				}
				if err := appendAny(bb.ItemBuilder(), kv[1]); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("%w: %T for a map", iceberg.ErrTypeMismatch, v)
		}
		return nil
	case *array.StructBuilder:
		fields, ok := v.([]any)
		if !ok || len(fields) != bb.NumField() {
			return fmt.Errorf("%w: %T for a struct", iceberg.ErrTypeMismatch, v)
		}
		bb.Append(true)
		for i, f := range fields {
			if err := appendAny(bb.FieldBuilder(i), f); err != nil {
				return err
			}
		}
		return nil
	}
	return arrowschema.AppendValue(b, v)
}

// Arrow types of in-memory results.
var (
	tString    = arrow.BinaryTypes.String
	tLong      = arrow.PrimitiveTypes.Int64
	tInt       = arrow.PrimitiveTypes.Int32
	tBool      = arrow.FixedWidthTypes.Boolean
	tTimestamp = mustArrow(iceberg.TimestampTzType{})
	tStrMap    = arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String)
)

func field(name string, t arrow.DataType, nullable bool) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: nullable}
}

func schemaOf(fields ...arrow.Field) *arrow.Schema { return arrow.NewSchema(fields, nil) }

func mustArrow(t iceberg.Type) arrow.DataType {
	dt, err := arrowschema.TypeToArrow(t)
	if err != nil {
		panic(err) // only called on primitive types known to convert
	}
	return dt
}
