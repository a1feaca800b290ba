package manifest

import (
	"bytes"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func FuzzReadManifest(f *testing.F) {
	schema := iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "d", Type: iceberg.DecimalType{Precision: 9, Scale: 2}},
		iceberg.NestedField{ID: 2, Name: "s", Type: iceberg.StringType{}})
	spec := &iceberg.PartitionSpec{Fields: []iceberg.PartitionField{
		{SourceID: 1, FieldID: 1000, Name: "d", Transform: iceberg.IdentityTransform{}},
		{SourceID: 2, FieldID: 1001, Name: "s", Transform: iceberg.IdentityTransform{}}}}
	for _, v := range []int{1, 2, 3} {
		var buf bytes.Buffer
		w, err := NewManifestWriter(&buf, v, spec, schema, iceberg.ManifestContentData, 1)
		if err != nil {
			f.Fatal(err)
		}
		df := fullDataFile("f", 0, []any{nil, "x"})
		if err := w.Add(df); err != nil {
			f.Fatal(err)
		}
		if err := w.Close(); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for range ReadManifest(bytes.NewReader(data), iceberg.ManifestFile{SequenceNumber: 1, FirstRowID: ptr[int64](0)}) {
		}
	})
}

func FuzzReadManifestList(f *testing.F) {
	for _, v := range []int{1, 2, 3} {
		var buf bytes.Buffer
		m := iceberg.ManifestFile{Path: "p", AddedSnapshotID: 1, SequenceNumber: UnassignedSequenceNumber,
			MinSequenceNumber: UnassignedSequenceNumber, Partitions: []iceberg.FieldSummary{{LowerBound: []byte{1}}}}
		if _, err := WriteManifestList(&buf, v, 1, nil, 2, ptr[int64](0), []iceberg.ManifestFile{m}); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ReadManifestList(bytes.NewReader(data))
	})
}
