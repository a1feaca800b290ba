package manifest

import (
	"encoding/json"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

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
