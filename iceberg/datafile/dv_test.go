package datafile

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/scan"
)

func TestDVWriterRoundTrip(t *testing.T) {
	ctx := context.Background()
	tt := newTestTable(t, testSchema(), nil, map[string]string{iceberg.PropFormatVersion: "3"})
	a := iceberg.DataFile{FilePath: tt.loc + "/data/a.parquet", RecordCount: 1 << 20}
	b := iceberg.DataFile{FilePath: tt.loc + "/data/b.parquet", RecordCount: 100}
	w := NewDVWriter(ctx, tt.fio, tt.meta, WriterOptions{})
	for _, step := range []struct {
		f  iceberg.DataFile
		ps []int64
	}{{a, []int64{1, 5}}, {b, []int64{0}}, {a, []int64{3, 70000}}} {
		if err := w.Delete(ctx, step.f, step.ps); err != nil {
			t.Fatal(err)
		}
	}
	dvs, err := w.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(dvs) != 2 || dvs[0].FilePath != dvs[1].FilePath {
		t.Fatalf("want two vectors in one Puffin file, got %+v", dvs)
	}
	want := map[string][]int64{a.FilePath: {1, 3, 5, 70000}, b.FilePath: {0}}
	for _, d := range dvs {
		if !IsDeletionVector(d) || d.RecordCount != int64(len(want[*d.ReferencedDataFile])) {
			t.Fatalf("entry %+v", d)
		}
		got, err := ReadDeletionVector(ctx, tt.fio, d)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want[*d.ReferencedDataFile]) {
			t.Fatalf("%s: got %v", *d.ReferencedDataFile, got)
		}
	}
	t.Run("cardinality mismatch", func(t *testing.T) {
		d := dvs[0]
		d.RecordCount++
		if _, err := ReadDeletionVector(ctx, tt.fio, d); !errors.Is(err, ErrInvalidDeletionVector) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("blob past the end", func(t *testing.T) {
		d := dvs[0]
		off := d.FileSizeInBytes
		d.ContentOffset = &off
		if _, err := ReadDeletionVector(ctx, tt.fio, d); !errors.Is(err, ErrInvalidDeletionVector) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("two vectors for one file", func(t *testing.T) {
		task := scan.FileScanTask{File: b, Deletes: []scan.DeleteFile{{File: dvs[1]}, {File: dvs[1]}}}
		if _, _, err := PreviousDeletes(ctx, tt.fio, task); !errors.Is(err, ErrMultipleDeletionVectors) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("previous deletes", func(t *testing.T) {
		task := scan.FileScanTask{File: b, Deletes: []scan.DeleteFile{{File: dvs[1]}}}
		ps, replaced, err := PreviousDeletes(ctx, tt.fio, task)
		if err != nil || !slices.Equal(ps, []int64{0}) || len(replaced) != 1 {
			t.Fatalf("got %v %v %v", ps, replaced, err)
		}
	})
}

func TestDVWriterNeedsV3(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, map[string]string{iceberg.PropFormatVersion: "2"})
	w := NewDVWriter(context.Background(), tt.fio, tt.meta, WriterOptions{})
	if err := w.Delete(context.Background(), iceberg.DataFile{FilePath: "file:///x.parquet"}, []int64{1}); !errors.Is(err, iceberg.ErrUnsupported) {
		t.Fatalf("got %v", err)
	}
}
