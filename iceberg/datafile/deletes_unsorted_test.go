package datafile

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/scan"
)

// posRow is one row of a position delete file.
type posRow struct {
	path string
	pos  int64
}

// writeRawPositionDeletes writes rows in the given order (sorted or not),
// rowGroup rows per row group, as other writers may.
func writeRawPositionDeletes(t testing.TB, tt testTable, name string, rows []posRow, rowGroup int64, dict bool) iceberg.DataFile {
	t.Helper()
	ctx := context.Background()
	loc := tt.loc + "/data/" + name
	out, err := tt.fio.Create(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithStats(true),
		parquet.WithDictionaryDefault(dict), parquet.WithMaxRowGroupLength(rowGroup), parquet.WithDataPageSize(256))
	fw, err := pqarrow.NewFileWriter(posDeleteArrowSchema, out, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, posDeleteArrowSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.StringBuilder).Append(r.path)
		b.Field(1).(*array.Int64Builder).Append(r.pos)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return iceberg.DataFile{Content: iceberg.ContentPositionDeletes, FilePath: loc, FileFormat: iceberg.FormatParquet, RecordCount: int64(len(rows))}
}

// TestUnsortedPositionDeleteFiles reads delete files whose file_path (and
// pos within a path) are out of order, as iceberg-go v0.7.0 writes them:
// every path gets exactly its positions, with and without a cache, whose
// verdict on the order must not change the answer.
func TestUnsortedPositionDeleteFiles(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	ctx := context.Background()
	paths := []string{tt.loc + "/data/c.parquet", tt.loc + "/data/a.parquet", tt.loc + "/data/b.parquet"}
	// Interleaved paths and descending positions; a path recurs after a
	// larger one, which defeats a reader that stops at the first larger path.
	var unsorted []posRow
	for k := 0; k < 60; k++ {
		unsorted = append(unsorted, posRow{paths[k%3], int64(100 - k)})
	}
	unsorted = append(unsorted, posRow{paths[1], 7}, posRow{paths[1], 7}) // duplicate
	want := map[string][]int64{}
	for _, r := range unsorted {
		want[r.path] = append(want[r.path], r.pos)
	}
	for p := range want {
		slices.Sort(want[p])
		want[p] = slices.Compact(want[p])
	}
	sorted := slices.Clone(unsorted)
	slices.SortFunc(sorted, func(a, b posRow) int {
		if a.path != b.path {
			return map[bool]int{true: -1, false: 1}[a.path < b.path]
		}
		return int(a.pos - b.pos)
	})
	sorted = slices.Compact(sorted)
	tests := []struct {
		name     string
		rows     []posRow
		rowGroup int64
		dict     bool
		sorted   bool
	}{
		{"unsorted one row group dictionary", unsorted, 1 << 20, true, false},
		{"unsorted one row group plain", unsorted, 1 << 20, false, false},
		{"unsorted small row groups", unsorted, 7, true, false},
		{"sorted small row groups", sorted, 7, true, true},
		{"sorted one row group", sorted, 1 << 20, false, true},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := writeRawPositionDeletes(t, tt, fmt.Sprintf("del-%d.parquet", i), tc.rows, tc.rowGroup, tc.dict)
			cache := NewDeleteCache(0)
			for _, c := range []*DeleteCache{nil, cache, cache} {
				for _, p := range append(slices.Clone(paths), tt.loc+"/data/zz.parquet", tt.loc+"/data/0.parquet") {
					got, err := loadPositionDeletes(ctx, tt.fio, p, []iceberg.DataFile{d}, c)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want[p]) {
						t.Fatalf("cache %v: %s: positions %v, want %v", c != nil, p, got, want[p])
					}
				}
			}
			if s, known := cache.positionFileSorted(d.FilePath); !known || s != tc.sorted {
				t.Errorf("cache verdict sorted=%v known=%v, want sorted=%v", s, known, tc.sorted)
			}
		})
	}
}

// TestReadTaskUnsortedPositionDeletes applies an unsorted delete file
// covering two data files through ReadTask.
func TestReadTaskUnsortedPositionDeletes(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	a := writeAll(t, tt, WriterOptions{TaskID: 1}, testRows(t, testSchema(), 0, 50, []string{"x"}))[0]
	b := writeAll(t, tt, WriterOptions{TaskID: 2}, testRows(t, testSchema(), 50, 50, []string{"x"}))[0]
	// b's deletes first, then a's, positions descending.
	rows := []posRow{{b.FilePath, 40}, {b.FilePath, 3}, {a.FilePath, 49}, {a.FilePath, 0}, {b.FilePath, 10}}
	d := writeRawPositionDeletes(t, tt, "unsorted-deletes.parquet", rows, 1<<20, true)
	want := map[string][]int64{a.FilePath: {0, 49}, b.FilePath: {3, 10, 40}}
	cache := NewDeleteCache(0)
	for _, f := range []iceberg.DataFile{a, b} {
		task := scan.FileScanTask{File: f, DataSequenceNumber: 1, Deletes: []scan.DeleteFile{{File: d, DataSequenceNumber: 1}}}
		recs := readAll(t, tt, task, nil, ReadOptions{WithPositions: true, DeleteCache: cache})
		got := int64Column(t, recs, PosColumnName)
		wantPos := seqInts(0, int(f.RecordCount), func(i int) bool { return slices.Contains(want[f.FilePath], int64(i)) })
		if !slices.Equal(got, wantPos) {
			t.Errorf("%s: positions %v, want %v", f.FilePath, got, wantPos)
		}
	}
}
