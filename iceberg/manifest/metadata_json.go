package manifest

import (
	"encoding/json"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// schemaJSON is the table schema as metadata JSON for the manifest's
// "schema" key. It defers to the root package's marshaller when *Schema
// has one and otherwise writes the spec's Appendix C form itself.
func schemaJSON(s *iceberg.Schema) ([]byte, error) {
	if m, ok := any(s).(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	fields, err := fieldsJSON(s.Fields())
	if err != nil {
		return nil, err
	}
	ids := s.IdentifierFieldIDs
	if ids == nil {
		ids = []int{}
	}
	return json.Marshal(obj{{"type", "struct"}, {"schema-id", s.ID}, {"identifier-field-ids", ids}, {"fields", fields}})
}

func fieldsJSON(fields []iceberg.NestedField) ([]obj, error) {
	out := make([]obj, 0, len(fields))
	for _, f := range fields {
		t, err := typeJSON(f.Type)
		if err != nil {
			return nil, err
		}
		o := obj{{"id", f.ID}, {"name", f.Name}, {"required", f.Required}, {"type", t}}
		if f.Doc != "" {
			o = append(o, kv{"doc", f.Doc})
		}
		out = append(out, o)
	}
	return out, nil
}

func typeJSON(t iceberg.Type) (any, error) {
	switch t := t.(type) {
	case *iceberg.StructType:
		fields, err := fieldsJSON(t.FieldList)
		if err != nil {
			return nil, err
		}
		return obj{{"type", "struct"}, {"fields", fields}}, nil
	case *iceberg.ListType:
		e, err := typeJSON(t.Element)
		if err != nil {
			return nil, err
		}
		return obj{{"type", "list"}, {"element-id", t.ElementID}, {"element", e}, {"element-required", t.ElementRequired}}, nil
	case *iceberg.MapType:
		k, err := typeJSON(t.Key)
		if err != nil {
			return nil, err
		}
		v, err := typeJSON(t.Value)
		if err != nil {
			return nil, err
		}
		return obj{{"type", "map"}, {"key-id", t.KeyID}, {"key", k}, {"value-id", t.ValueID},
			{"value", v}, {"value-required", t.ValueRequired}}, nil
	case nil:
		return nil, fmt.Errorf("%w: field without a type", iceberg.ErrInvalidSchema)
	}
	return t.String(), nil
}

// specJSON is the "partition-spec" key: only the spec's fields array.
func specJSON(spec *iceberg.PartitionSpec) ([]byte, error) {
	fields := make([]obj, 0, len(spec.Fields))
	for _, f := range spec.Fields {
		if f.Transform == nil {
			return nil, fmt.Errorf("%w: field %q has no transform", iceberg.ErrInvalidPartitionSpec, f.Name)
		}
		fields = append(fields, obj{{"name", f.Name}, {"transform", f.Transform.String()},
			{"source-id", f.SourceID}, {"field-id", f.FieldID}})
	}
	return json.Marshal(fields)
}

// partitionType is the struct of partition values for a spec over a
// schema: one optional field per partition field, typed by its transform.
func partitionType(spec *iceberg.PartitionSpec, schema *iceberg.Schema) (*iceberg.StructType, error) {
	out := &iceberg.StructType{FieldList: make([]iceberg.NestedField, 0, len(spec.Fields))}
	for _, f := range spec.Fields {
		src, ok := schema.FindFieldByID(f.SourceID)
		if !ok {
			return nil, fmt.Errorf("%w: partition field %q: source column %d is not in the schema",
				iceberg.ErrInvalidPartitionSpec, f.Name, f.SourceID)
		}
		if f.Transform == nil {
			return nil, fmt.Errorf("%w: field %q has no transform", iceberg.ErrInvalidPartitionSpec, f.Name)
		}
		out.FieldList = append(out.FieldList, iceberg.NestedField{
			ID: f.FieldID, Name: f.Name, Type: f.Transform.ResultType(src.Type)})
	}
	return out, nil
}
