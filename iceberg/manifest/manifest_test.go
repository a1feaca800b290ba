package manifest

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func TestManifestRoundTripEveryField(t *testing.T) {
	schema, spec := allTypesSchema(t)
	for _, version := range []int{1, 2, 3} {
		t.Run("v"+string(rune('0'+version)), func(t *testing.T) {
			const snap = 77
			added := fullDataFile("s3://b/a.parquet", spec.ID, allTypesValues(1))
			if version == 3 {
				added.FirstRowID = ptr[int64](500)
			}
			if version >= 2 {
				added.ReferencedDataFile = ptr("s3://b/x.parquet")
			}
			if version == 3 {
				added.ContentOffset, added.ContentSizeInBytes = ptr[int64](4), ptr[int64](40)
			}
			existing := fullDataFile("s3://b/e.parquet", spec.ID, allTypesValues(2))
			nulls := fullDataFile("s3://b/n.parquet", spec.ID, make([]any, len(spec.Fields)))
			entries := []iceberg.ManifestEntry{
				{Status: iceberg.StatusAdded, DataFile: added},
				{Status: iceberg.StatusExisting, SnapshotID: ptr[int64](5), SequenceNumber: ptr[int64](3),
					FileSequenceNumber: ptr[int64](4), DataFile: existing},
				{Status: iceberg.StatusDeleted, SnapshotID: ptr[int64](snap), SequenceNumber: ptr[int64](2),
					FileSequenceNumber: ptr[int64](2), DataFile: nulls},
			}
			data, mf := writeManifest(t, version, spec, schema, iceberg.ManifestContentData, snap, entries)
			mf.SequenceNumber = 9
			if version == 1 {
				mf.SequenceNumber = 0
			}
			got, err := ReadManifestEntries(bytes.NewReader(data), mf)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(entries) {
				t.Fatalf("read %d entries, want %d", len(got), len(entries))
			}
			want := entries
			want[0].SnapshotID = ptr[int64](snap)
			want[0].SequenceNumber, want[0].FileSequenceNumber = ptr(mf.SequenceNumber), ptr(mf.SequenceNumber)
			if version == 1 {
				for i := range want {
					want[i].SequenceNumber, want[i].FileSequenceNumber = ptr[int64](0), ptr[int64](0)
					want[i].DataFile.ReferencedDataFile = nil
				}
			}
			for i := range want {
				if version < 3 {
					want[i].DataFile.FirstRowID, want[i].DataFile.ContentOffset, want[i].DataFile.ContentSizeInBytes = nil, nil, nil
				}
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("entry %d differs: %v", i, diffFields(got[i], want[i]))
				}
			}
		})
	}
}

func TestDeleteManifestRoundTrip(t *testing.T) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true})
	eq := iceberg.DataFile{Content: iceberg.ContentEqualityDeletes, FilePath: "eq.parquet", FileFormat: "parquet",
		RecordCount: 3, FileSizeInBytes: 10, EqualityIDs: []int{1, 2}}
	pos := iceberg.DataFile{Content: iceberg.ContentPositionDeletes, FilePath: "pos.parquet", FileFormat: iceberg.FormatParquet,
		RecordCount: 2, FileSizeInBytes: 20, ReferencedDataFile: ptr("d.parquet")}
	data, mf := writeManifest(t, 2, iceberg.UnpartitionedSpec, schema, iceberg.ManifestContentDeletes, 1,
		[]iceberg.ManifestEntry{{Status: iceberg.StatusAdded, DataFile: eq}, {Status: iceberg.StatusAdded, DataFile: pos}})
	mr, err := NewManifestReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if mr.Content() != iceberg.ManifestContentDeletes || mr.FormatVersion() != 2 {
		t.Fatalf("content %v version %d", mr.Content(), mr.FormatVersion())
	}
	mf.SequenceNumber = 4
	var got []iceberg.DataFile
	for e, err := range mr.Entries(mf) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.DataFile)
	}
	eq.FileFormat = iceberg.FormatParquet // written upper case
	if !reflect.DeepEqual(got, []iceberg.DataFile{eq, pos}) {
		t.Fatalf("got %+v", got)
	}
}

func TestManifestFileSummary(t *testing.T) {
	schema, spec := allTypesSchema(t)
	pt, err := partitionType(spec, schema)
	if err != nil {
		t.Fatal(err)
	}
	vals := [][]any{allTypesValues(3), allTypesValues(1), make([]any, len(spec.Fields))}
	var entries []iceberg.ManifestEntry
	for i, v := range vals {
		df := fullDataFile("f"+string(rune('0'+i)), spec.ID, v)
		entries = append(entries, iceberg.ManifestEntry{Status: iceberg.StatusAdded, DataFile: df})
	}
	entries[1].Status = iceberg.StatusExisting
	entries[1].SnapshotID, entries[1].SequenceNumber = ptr[int64](1), ptr[int64](6)
	_, mf := writeManifest(t, 2, spec, schema, iceberg.ManifestContentData, 9, entries)
	if mf.AddedFilesCount != 2 || mf.ExistingFilesCount != 1 || mf.AddedRowsCount != 200 || mf.ExistingRowsCount != 100 {
		t.Fatalf("counts %+v", mf)
	}
	if mf.SequenceNumber != UnassignedSequenceNumber || mf.MinSequenceNumber != 6 || mf.AddedSnapshotID != 9 {
		t.Fatalf("sequence numbers %+v", mf)
	}
	for i, f := range pt.FieldList {
		s := mf.Partitions[i]
		if !s.ContainsNull || s.ContainsNaN == nil || *s.ContainsNaN {
			t.Errorf("%s: summary flags %+v", f.Name, s)
		}
		lo, err := iceberg.DeserializeValue(f.Type, s.LowerBound)
		if err != nil {
			t.Fatalf("%s lower: %v", f.Name, err)
		}
		hi, err := iceberg.DeserializeValue(f.Type, s.UpperBound)
		if err != nil {
			t.Fatalf("%s upper: %v", f.Name, err)
		}
		a, b := vals[0][i], vals[1][i]
		if c, _ := iceberg.CompareValues(a, b); c > 0 {
			a, b = b, a
		}
		if !reflect.DeepEqual(lo, a) || !reflect.DeepEqual(hi, b) {
			t.Errorf("%s: bounds %v..%v, want %v..%v", f.Name, lo, hi, a, b)
		}
	}
}

func TestWriterRejectsBadEntries(t *testing.T) {
	schema, spec := allTypesSchema(t)
	good := fullDataFile("x", spec.ID, allTypesValues(1))
	wrongType := fullDataFile("x", spec.ID, allTypesValues(1))
	wrongType.Partition[1] = int64(5) // int field
	tests := []struct {
		name  string
		entry iceberg.ManifestEntry
		want  error
	}{
		{"existing without seq", iceberg.ManifestEntry{Status: iceberg.StatusExisting, SnapshotID: ptr[int64](1), DataFile: good}, ErrInvalidEntry},
		{"bad status", iceberg.ManifestEntry{Status: 7, DataFile: good}, ErrInvalidEntry},
		{"delete file in data manifest", iceberg.ManifestEntry{Status: iceberg.StatusAdded,
			DataFile: iceberg.DataFile{Content: iceberg.ContentPositionDeletes, SpecID: spec.ID, Partition: good.Partition}}, ErrInvalidEntry},
		{"wrong spec", iceberg.ManifestEntry{Status: iceberg.StatusAdded, DataFile: iceberg.DataFile{SpecID: 99}}, ErrInvalidEntry},
		{"short tuple", iceberg.ManifestEntry{Status: iceberg.StatusAdded, DataFile: iceberg.DataFile{SpecID: spec.ID}}, ErrInvalidEntry},
		{"wrong value type", iceberg.ManifestEntry{Status: iceberg.StatusAdded, DataFile: wrongType}, iceberg.ErrTypeMismatch},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := NewManifestWriter(&bytes.Buffer{}, 2, spec, schema, iceberg.ManifestContentData, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteEntry(tc.entry); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestWriterMisuse(t *testing.T) {
	schema, spec := allTypesSchema(t)
	t.Run("nil spec", func(t *testing.T) {
		_, err := NewManifestWriter(&bytes.Buffer{}, 2, nil, schema, iceberg.ManifestContentData, 1)
		if !errors.Is(err, ErrMissingArgument) {
			t.Fatalf("got %v, want ErrMissingArgument", err)
		}
	})
	t.Run("write after close", func(t *testing.T) {
		w, err := NewManifestWriter(&bytes.Buffer{}, 2, spec, schema, iceberg.ManifestContentData, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		entry := iceberg.ManifestEntry{Status: iceberg.StatusAdded, DataFile: fullDataFile("x", spec.ID, allTypesValues(1))}
		if err := w.WriteEntry(entry); !errors.Is(err, ErrWriterClosed) {
			t.Fatalf("got %v, want ErrWriterClosed", err)
		}
	})
}

func TestReadWithPartitionTypeReorders(t *testing.T) {
	schema, spec := allTypesSchema(t)
	vals := allTypesValues(4)
	data, mf := writeManifest(t, 2, spec, schema, iceberg.ManifestContentData, 1,
		[]iceberg.ManifestEntry{{Status: iceberg.StatusAdded, DataFile: fullDataFile("a", spec.ID, vals)}})
	want := &iceberg.StructType{FieldList: []iceberg.NestedField{
		{ID: 1001, Name: "x", Type: iceberg.IntType{}}, {ID: 1000, Name: "y", Type: iceberg.BooleanType{}},
		{ID: 5000, Name: "new", Type: iceberg.IntType{}}}}
	got, err := ReadManifestEntries(bytes.NewReader(data), mf, WithPartitionType(want))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got[0].DataFile.Partition, []any{vals[1], vals[0], nil}) {
		t.Fatalf("partition %v", got[0].DataFile.Partition)
	}
}
