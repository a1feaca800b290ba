package manifest

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/hamba/avro/v2/ocf"
	"github.com/icesql/icesql/iceberg"
)

func TestManifestListRoundTrip(t *testing.T) {
	const snap = 42
	newData := iceberg.ManifestFile{Path: "new.avro", Length: 10, SpecID: 1, AddedSnapshotID: snap,
		SequenceNumber: UnassignedSequenceNumber, MinSequenceNumber: UnassignedSequenceNumber,
		AddedFilesCount: 2, ExistingFilesCount: 1, AddedRowsCount: 100, ExistingRowsCount: 25,
		Partitions: []iceberg.FieldSummary{{ContainsNull: true, ContainsNaN: ptr(false), LowerBound: []byte{1}, UpperBound: []byte{9}},
			{ContainsNull: false}}}
	newDeletes := iceberg.ManifestFile{Path: "del.avro", Length: 11, Content: iceberg.ManifestContentDeletes,
		AddedSnapshotID: snap, SequenceNumber: UnassignedSequenceNumber, MinSequenceNumber: 3,
		AddedFilesCount: 1, AddedRowsCount: 7, KeyMetadata: []byte("k")}
	old := iceberg.ManifestFile{Path: "old.avro", Length: 12, AddedSnapshotID: 7, SequenceNumber: 2, MinSequenceNumber: 1,
		ExistingFilesCount: 3, DeletedFilesCount: 1, ExistingRowsCount: 30, DeletedRowsCount: 4, FirstRowID: ptr[int64](0),
		Partitions: []iceberg.FieldSummary{}}
	in := []iceberg.ManifestFile{newData, newDeletes, old}

	tests := []struct {
		version  int
		firstRow *int64
		wantNext *int64
	}{{1, nil, nil}, {2, nil, nil}, {3, ptr[int64](1000), ptr[int64](1125)}}
	for _, tc := range tests {
		t.Run("v"+string(rune('0'+tc.version)), func(t *testing.T) {
			var buf bytes.Buffer
			written, next, err := WriteManifestListEntries(&buf, tc.version, snap, ptr[int64](41), 5, tc.firstRow, in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(next, tc.wantNext) {
				t.Fatalf("next row id %v, want %v", next, tc.wantNext)
			}
			got, err := ReadManifestList(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			want := []iceberg.ManifestFile{newData, newDeletes, old}
			want[0].SequenceNumber, want[0].MinSequenceNumber = 5, 5
			want[1].SequenceNumber = 5
			switch tc.version {
			case 1:
				for i := range want {
					want[i].Content, want[i].SequenceNumber, want[i].MinSequenceNumber, want[i].FirstRowID = 0, 0, 0, nil
				}
			case 2:
				want[2].FirstRowID = nil
			case 3:
				want[0].FirstRowID = ptr[int64](1000)
			}
			for i := range want {
				if d := diffFields(got[i], want[i]); len(d) > 0 {
					t.Errorf("manifest %d differs: %v", i, d)
				}
				if d := diffFields(written[i], got[i]); len(d) > 0 {
					t.Errorf("manifest %d as written differs from as read: %v", i, d)
				}
			}
			if in[0].SequenceNumber != UnassignedSequenceNumber {
				t.Fatal("input slice was modified")
			}
		})
	}
}

func TestManifestListMetadataAndUnassigned(t *testing.T) {
	var buf bytes.Buffer
	if _, err := WriteManifestList(&buf, 2, 10, nil, 3, nil, nil); err != nil {
		t.Fatal(err)
	}
	dec, err := ocf.NewDecoder(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	meta := dec.Metadata()
	for k, v := range map[string]string{"snapshot-id": "10", "parent-snapshot-id": "null", "sequence-number": "3",
		"format-version": "2", "avro.codec": "deflate"} {
		if string(meta[k]) != v {
			t.Errorf("metadata %s = %q, want %q", k, meta[k], v)
		}
	}
	foreign := []iceberg.ManifestFile{{Path: "x", AddedSnapshotID: 9, SequenceNumber: UnassignedSequenceNumber}}
	if _, err := WriteManifestList(&bytes.Buffer{}, 2, 10, nil, 3, nil, foreign); !errors.Is(err, ErrUnassignedSequence) {
		t.Fatalf("got %v, want ErrUnassignedSequence", err)
	}
}
