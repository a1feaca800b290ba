package manifest

import (
	"bytes"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// Nanosecond timestamp partition values use Avro's timestamp-nanos
// convention and survive a manifest round trip to the nanosecond.
func TestNanoTimestampPartitionValues(t *testing.T) {
	schema := iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "ts", Type: iceberg.TimestampNsType{}},
		iceberg.NestedField{ID: 2, Name: "tz", Type: iceberg.TimestampTzNsType{}},
	)
	spec := &iceberg.PartitionSpec{ID: 0, Fields: []iceberg.PartitionField{
		{SourceID: 1, FieldID: 1000, Name: "ts", Transform: iceberg.IdentityTransform{}},
		{SourceID: 2, FieldID: 1001, Name: "tz", Transform: iceberg.IdentityTransform{}},
		{SourceID: 2, FieldID: 1002, Name: "tz_hour", Transform: iceberg.HourTransform{}},
	}}
	cases := []struct {
		name string
		part []any
	}{
		{"values", []any{iceberg.TimestampNano(1767225600123456789), iceberg.TimestampNano(-1), int32(490896)}},
		{"nulls", []any{nil, nil, nil}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			df := fullDataFile("data/a.parquet", 0, c.part)
			data, mf := writeManifest(t, 3, spec, schema, iceberg.ManifestContentData, 7,
				[]iceberg.ManifestEntry{{Status: iceberg.StatusAdded, DataFile: df}})
			if !bytes.Contains(data, []byte(`"logicalType":"timestamp-nanos","adjust-to-utc":true`)) {
				t.Fatal("header lacks the timestamp-nanos logical type")
			}
			r, err := NewManifestReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			fields := r.PartitionType().FieldList
			if fields[0].Type != (iceberg.TimestampNsType{}) || fields[1].Type != (iceberg.TimestampTzNsType{}) || fields[2].Type != (iceberg.IntType{}) {
				t.Fatalf("partition type %v", r.PartitionType())
			}
			entries, err := ReadManifestEntries(bytes.NewReader(data), mf)
			if err != nil {
				t.Fatal(err)
			}
			got := entries[0].DataFile.Partition
			for i := range c.part {
				if got[i] != c.part[i] {
					t.Fatalf("partition value %d: %v (%T), want %v (%T)", i, got[i], got[i], c.part[i], c.part[i])
				}
			}
		})
	}
}
