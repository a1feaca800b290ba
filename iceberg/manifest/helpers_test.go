package manifest

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/icesql/icesql/iceberg"
)

func ptr[T any](v T) *T { return &v }

// allTypesSchema has one column per partition value type, each
// partitioned by identity.
func allTypesSchema(t *testing.T) (*iceberg.Schema, *iceberg.PartitionSpec) {
	t.Helper()
	types := []iceberg.Type{
		iceberg.BooleanType{}, iceberg.IntType{}, iceberg.LongType{}, iceberg.FloatType{}, iceberg.DoubleType{},
		iceberg.DateType{}, iceberg.TimeType{}, iceberg.TimestampType{}, iceberg.TimestampTzType{},
		iceberg.StringType{}, iceberg.UUIDType{}, iceberg.BinaryType{}, iceberg.FixedType{Length: 3},
		iceberg.DecimalType{Precision: 10, Scale: 2}, iceberg.DecimalType{Precision: 38, Scale: 5},
	}
	var fields []iceberg.NestedField
	spec := &iceberg.PartitionSpec{ID: 3}
	for i, typ := range types {
		name := "c" + string(rune('a'+i))
		fields = append(fields, iceberg.NestedField{ID: i + 1, Name: name, Type: typ})
		spec.Fields = append(spec.Fields, iceberg.PartitionField{SourceID: i + 1, FieldID: 1000 + i,
			Name: name + "_p", Transform: iceberg.IdentityTransform{}})
	}
	s, err := iceberg.NewSchema(7, fields)
	if err != nil {
		t.Fatal(err)
	}
	return s, spec
}

func allTypesValues(k int64) []any {
	return []any{
		k%2 == 0, int32(k), k * 1000, float32(k) + 0.5, float64(k) - 0.25,
		iceberg.Date(19000 + k), iceberg.Time(3600_000_000 + k), iceberg.Timestamp(1_700_000_000_000_000 + k),
		iceberg.Timestamp(-k), "s" + string(rune('a'+k%26)), iceberg.UUID{1, 2, 3, byte(k)}, []byte{byte(k), 0xff},
		[]byte{1, 2, byte(k)}, iceberg.Decimal{Unscaled: decimal128.FromI64(-12345 - k), Scale: 2},
		iceberg.Decimal{Unscaled: decimal128.New(1<<40, 12345), Scale: 5},
	}
}

func fullDataFile(path string, specID int, part []any) iceberg.DataFile {
	return iceberg.DataFile{
		Content: iceberg.ContentData, FilePath: path, FileFormat: iceberg.FormatParquet, SpecID: specID,
		Partition: part, RecordCount: 100, FileSizeInBytes: 4096,
		ColumnSizes: map[int]int64{1: 10, 2: 20}, ValueCounts: map[int]int64{1: 100, 2: 100},
		NullValueCounts: map[int]int64{1: 0, 2: 5}, NaNValueCounts: map[int]int64{4: 1},
		LowerBounds: map[int][]byte{1: {0}, 2: {1, 0, 0, 0}}, UpperBounds: map[int][]byte{1: {1}, 2: {9, 0, 0, 0}},
		KeyMetadata: []byte("key"), SplitOffsets: []int64{4, 1000}, SortOrderID: ptr(1),
	}
}

// writeManifest writes entries with a fresh writer and returns the bytes
// and the manifest list entry (with sequence numbers assigned as seq).
func writeManifest(t *testing.T, version int, spec *iceberg.PartitionSpec, schema *iceberg.Schema,
	content iceberg.ManifestContent, snap int64, entries []iceberg.ManifestEntry) ([]byte, iceberg.ManifestFile) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewManifestWriter(&buf, version, spec, schema, content, snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := w.WriteEntry(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.BytesWritten() != int64(buf.Len()) {
		t.Fatalf("BytesWritten %d, buffer %d", w.BytesWritten(), buf.Len())
	}
	return buf.Bytes(), w.ToManifestFile("m.avro", int64(buf.Len()))
}
