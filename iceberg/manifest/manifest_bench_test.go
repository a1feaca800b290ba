package manifest

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

const benchEntries = 10_000

func benchManifest(b *testing.B) (*iceberg.Schema, *iceberg.PartitionSpec, []iceberg.DataFile) {
	schema := iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "day", Type: iceberg.DateType{}},
		iceberg.NestedField{ID: 2, Name: "cat", Type: iceberg.StringType{}})
	spec := &iceberg.PartitionSpec{ID: 1, Fields: []iceberg.PartitionField{
		{SourceID: 1, FieldID: 1000, Name: "day", Transform: iceberg.IdentityTransform{}},
		{SourceID: 2, FieldID: 1001, Name: "cat", Transform: iceberg.IdentityTransform{}}}}
	files := make([]iceberg.DataFile, benchEntries)
	for i := range files {
		files[i] = fullDataFile("s3://bucket/table/data/file-"+strconv.Itoa(i)+".parquet", 1,
			[]any{iceberg.Date(19000 + i%30), "c" + strconv.Itoa(i%7)})
	}
	return schema, spec, files
}

func writeBench(b *testing.B, schema *iceberg.Schema, spec *iceberg.PartitionSpec, files []iceberg.DataFile) *bytes.Buffer {
	var buf bytes.Buffer
	w, err := NewManifestWriter(&buf, 2, spec, schema, iceberg.ManifestContentData, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		if err := w.Add(f); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return &buf
}

func BenchmarkWriteManifest10k(b *testing.B) {
	schema, spec, files := benchManifest(b)
	b.ReportAllocs()
	for b.Loop() {
		writeBench(b, schema, spec, files)
	}
}

func BenchmarkReadManifest10k(b *testing.B) {
	schema, spec, files := benchManifest(b)
	data := writeBench(b, schema, spec, files).Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, err := range ReadManifest(bytes.NewReader(data), iceberg.ManifestFile{SequenceNumber: 1, SpecID: 1}) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != benchEntries {
			b.Fatalf("read %d entries", n)
		}
	}
}
