package datafile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/iceberg/scan"
)

// readAll drains a task and returns the records (released at test end).
func readAll(t *testing.T, tt testTable, task scan.FileScanTask, proj *iceberg.Schema, opts ReadOptions) []arrow.RecordBatch {
	t.Helper()
	ctx := context.Background()
	it, err := ReadTask(ctx, tt.fio, tt.meta, task, proj, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []arrow.RecordBatch
	for {
		rec, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(rec.Release)
		out = append(out, rec)
	}
	return out
}

// int64Column gathers a named int64 column over records.
func int64Column(t *testing.T, recs []arrow.RecordBatch, name string) []int64 {
	t.Helper()
	var out []int64
	for _, r := range recs {
		idx := r.Schema().FieldIndices(name)
		if len(idx) != 1 {
			t.Fatalf("no column %q in %v", name, r.Schema())
		}
		out = append(out, r.Column(idx[0]).(*array.Int64).Int64Values()...)
	}
	return out
}

func seqInts(from, to int, skip func(int) bool) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		if skip == nil || !skip(i) {
			out = append(out, int64(i))
		}
	}
	return out
}

func TestReadTaskProjectionAndEvolution(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	files := writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 0, 300, []string{"a", ""}))
	task := scan.FileScanTask{File: files[0]}

	// Add a column after the file was written.
	b := iceberg.NewMetadataBuilder(tt.meta)
	fields := append(slices.Clone(tt.meta.CurrentSchema().Fields()), iceberg.NestedField{ID: 9, Name: "added", Type: iceberg.StringType{}})
	if _, err := b.AddSchema(iceberg.MustSchema(1, fields...)); err != nil {
		t.Fatal(err)
	}
	if err := b.SetCurrentSchema(iceberg.LastAdded); err != nil {
		t.Fatal(err)
	}
	evolved, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("subset with nested field", func(t *testing.T) {
		proj, err := tt.meta.CurrentSchema().Select(7, 1)
		if err != nil {
			t.Fatal(err)
		}
		recs := readAll(t, tt, task, proj, ReadOptions{BatchSize: 128})
		if got := int64Column(t, recs, "id"); !slices.Equal(got, seqInts(0, 300, nil)) {
			t.Fatalf("ids %v", got)
		}
		r := recs[1]
		if r.NumCols() != 2 || r.Schema().Field(1).Name != "point" {
			t.Fatalf("schema %v", r.Schema())
		}
		st := r.Column(1).(*array.Struct)
		if st.NumField() != 1 || st.Field(0).(*array.Float64).Value(0) != -128 {
			t.Errorf("point.y of row 128: %v", st)
		}
	})
	t.Run("added column reads as null", func(t *testing.T) {
		tt2 := tt
		tt2.meta = evolved
		proj, err := evolved.CurrentSchema().Select(1, 9)
		if err != nil {
			t.Fatal(err)
		}
		recs := readAll(t, tt2, task, proj, ReadOptions{})
		n := 0
		for _, r := range recs {
			col := r.Column(1)
			if col.NullN() != col.Len() {
				t.Errorf("added column has %d non-null values", col.Len()-col.NullN())
			}
			n += col.Len()
		}
		if n != 300 {
			t.Errorf("%d rows", n)
		}
	})
	t.Run("positions", func(t *testing.T) {
		proj, _ := tt.meta.CurrentSchema().Select(1)
		recs := readAll(t, tt, task, proj, ReadOptions{BatchSize: 100, WithPositions: true})
		if got := int64Column(t, recs, PosColumnName); !slices.Equal(got, seqInts(0, 300, nil)) {
			t.Errorf("positions %v", got)
		}
	})
}

func TestPositionDeletes(t *testing.T) {
	spec := &iceberg.PartitionSpec{Fields: []iceberg.PartitionField{{SourceID: 2, Name: "category", Transform: iceberg.IdentityTransform{}}}}
	tests := []struct {
		name         string
		perPartition bool
		wantFiles    int
	}{
		{"per data file", false, 3},
		{"per partition", true, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := newTestTable(t, testSchema(), spec, nil)
			ctx := context.Background()
			// Two files in partition a (two writers), one in b.
			dataA1 := writeAll(t, tt, WriterOptions{TaskID: 1}, testRows(t, testSchema(), 0, 100, []string{"a"}))[0]
			dataA2 := writeAll(t, tt, WriterOptions{TaskID: 2}, testRows(t, testSchema(), 100, 100, []string{"a"}))[0]
			dataB := writeAll(t, tt, WriterOptions{TaskID: 3}, testRows(t, testSchema(), 200, 50, []string{"b"}))[0]
			deletes := map[string][]int64{
				dataA1.FilePath: {0, 5, 99},
				dataA2.FilePath: {1, 2, 3},
				dataB.FilePath:  {49},
			}
			w := NewPositionDeleteWriter(ctx, tt.fio, tt.meta, PositionDeleteOptions{PerPartition: tc.perPartition})
			for _, f := range []iceberg.DataFile{dataB, dataA2, dataA1} {
				pos := deletes[f.FilePath]
				// Split in two calls to exercise merging.
				if err := w.Delete(ctx, f, pos[1:]); err != nil {
					t.Fatal(err)
				}
				if err := w.Delete(ctx, f, pos[:1]); err != nil {
					t.Fatal(err)
				}
			}
			dfs, err := w.Close(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(dfs) != tc.wantFiles {
				t.Fatalf("%d delete files, want %d", len(dfs), tc.wantFiles)
			}
			for _, d := range dfs {
				checkPositionDeleteFile(t, tt, d, deletes)
			}
			for _, f := range []iceberg.DataFile{dataA1, dataA2, dataB} {
				task := scan.FileScanTask{File: f, DataSequenceNumber: 1}
				for _, d := range dfs {
					task.Deletes = append(task.Deletes, scan.DeleteFile{File: d, DataSequenceNumber: 1})
				}
				recs := readAll(t, tt, task, nil, ReadOptions{BatchSize: 16, WithPositions: true})
				gotPos := int64Column(t, recs, PosColumnName)
				wantPos := seqInts(0, int(f.RecordCount), func(i int) bool { return slices.Contains(deletes[f.FilePath], int64(i)) })
				if !slices.Equal(gotPos, wantPos) {
					t.Errorf("%s: positions after deletes %v, want %v", f.FilePath, gotPos, wantPos)
				}
				// An older delete (lower sequence number) does not apply.
				task.DataSequenceNumber = 2
				recs = readAll(t, tt, task, nil, ReadOptions{})
				if n := len(int64Column(t, recs, "id")); n != int(f.RecordCount) {
					t.Errorf("older deletes applied: %d rows of %d", n, f.RecordCount)
				}
			}
		})
	}
}

func checkPositionDeleteFile(t *testing.T, tt testTable, d iceberg.DataFile, deletes map[string][]int64) {
	t.Helper()
	if d.Content != iceberg.ContentPositionDeletes || d.FileFormat != iceberg.FormatParquet || d.SortOrderID != nil {
		t.Errorf("delete file %+v", d)
	}
	tbl := readFileOracle(t, tt.fio, d.FilePath)
	defer tbl.Release()
	if tbl.NumRows() != d.RecordCount {
		t.Errorf("%d rows, DataFile says %d", tbl.NumRows(), d.RecordCount)
	}
	for i, want := range []struct {
		name string
		id   int
	}{{DeleteFilePathName, DeleteFilePathID}, {DeleteFilePosName, DeleteFilePosID}} {
		f := tbl.Schema().Field(i)
		if id, _ := arrowschema.FieldID(f); f.Name != want.name || id != want.id {
			t.Errorf("column %d is %s id %d", i, f.Name, id)
		}
	}
	var paths []string
	var pos []int64
	for _, ch := range tbl.Column(0).Data().Chunks() {
		for i := 0; i < ch.Len(); i++ {
			paths = append(paths, ch.(*array.String).Value(i))
		}
	}
	for _, ch := range tbl.Column(1).Data().Chunks() {
		pos = append(pos, ch.(*array.Int64).Int64Values()...)
	}
	covered := map[string]bool{}
	for i := range paths {
		covered[paths[i]] = true
		if i > 0 && (paths[i] < paths[i-1] || paths[i] == paths[i-1] && pos[i] <= pos[i-1]) {
			t.Fatalf("rows not sorted at %d", i)
		}
	}
	for p := range covered {
		var got []int64
		for i := range paths {
			if paths[i] == p {
				got = append(got, pos[i])
			}
		}
		if !slices.Equal(got, deletes[p]) {
			t.Errorf("%s: positions %v want %v", p, got, deletes[p])
		}
	}
	if len(covered) == 1 {
		if d.ReferencedDataFile == nil || !covered[*d.ReferencedDataFile] {
			t.Errorf("referenced_data_file %v for a single data file", d.ReferencedDataFile)
		}
	} else if d.ReferencedDataFile != nil {
		t.Errorf("referenced_data_file set for %d data files", len(covered))
	}
	if string(d.LowerBounds[DeleteFilePathID]) != slices.Min(paths) || string(d.UpperBounds[DeleteFilePathID]) != slices.Max(paths) {
		t.Errorf("file_path bounds %q..%q", d.LowerBounds[DeleteFilePathID], d.UpperBounds[DeleteFilePathID])
	}
	lo, _ := iceberg.DeserializeValue(iceberg.LongType{}, d.LowerBounds[DeleteFilePosID])
	hi, _ := iceberg.DeserializeValue(iceberg.LongType{}, d.UpperBounds[DeleteFilePosID])
	if lo != slices.Min(pos) || hi != slices.Max(pos) {
		t.Errorf("pos bounds %v..%v", lo, hi)
	}
	if d.ValueCounts[DeleteFilePathID] != d.RecordCount || d.ColumnSizes[DeleteFilePosID] <= 0 || len(d.Partition) != 1 || d.Partition[0] == nil {
		t.Errorf("metrics/partition: %+v", d)
	}
}

func TestPositionDeleteWriterNeedsV2(t *testing.T) {
	for _, v := range []string{"1", "3"} {
		t.Run("v"+v, func(t *testing.T) {
			tt := newTestTable(t, testSchema(), nil, map[string]string{iceberg.PropFormatVersion: v})
			w := NewPositionDeleteWriter(context.Background(), tt.fio, tt.meta, PositionDeleteOptions{})
			err := w.Delete(context.Background(), iceberg.DataFile{FilePath: "file:///x.parquet"}, []int64{1})
			if !errors.Is(err, iceberg.ErrUnsupported) {
				t.Errorf("error %v", err)
			}
		})
	}
}

func TestPositionDeleteWriterRejectsBadPositions(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	f := iceberg.DataFile{FilePath: "file:///x.parquet", RecordCount: 10}
	for name, pos := range map[string][]int64{"descending": {3, 2}, "duplicate": {1, 1}, "negative": {-1}, "past end": {10}} {
		t.Run(name, func(t *testing.T) {
			w := NewPositionDeleteWriter(context.Background(), tt.fio, tt.meta, PositionDeleteOptions{})
			if err := w.Delete(context.Background(), f, pos); !errors.Is(err, ErrUnsortedPositions) {
				t.Errorf("error %v", err)
			}
		})
	}
}

// writeEqualityDeletes writes an equality delete file on the category
// column (id 2) with the given values ("" for null).
func writeEqualityDeletes(t *testing.T, tt testTable, cats ...string) iceberg.DataFile {
	t.Helper()
	ctx := context.Background()
	schema, err := tt.meta.CurrentSchema().Select(2)
	if err != nil {
		t.Fatal(err)
	}
	as, _ := arrowschema.ToArrow(schema)
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	for _, c := range cats {
		if c == "" {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.StringBuilder).Append(c)
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	loc := tt.loc + "/data/eq-" + iceberg.NewUUIDString() + ".parquet"
	out, err := tt.fio.Create(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	pw, err := parquetfile.NewWriter(out, schema, parquetfile.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := pw.Write(rec); err != nil {
		t.Fatal(err)
	}
	m, err := pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	df := iceberg.DataFile{Content: iceberg.ContentEqualityDeletes, FilePath: loc, EqualityIDs: []int{2}, Partition: []any{}}
	m.Apply(&df)
	return df
}

func TestEqualityDeletesAndResidual(t *testing.T) {
	cats := []string{"a", "b", "", "c"}
	tt := newTestTable(t, testSchema(), nil, nil)
	data := writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 0, 200, cats))[0]
	eq := writeEqualityDeletes(t, tt, "b", "")
	schema := tt.meta.CurrentSchema()
	idOnly, _ := schema.Select(1)
	bind := func(e expr.Expr) expr.BoundExpr {
		b, err := expr.Bind(schema, e, true)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	notBOrNull := func(i int) bool { return cats[i%4] == "b" || cats[i%4] == "" }
	tests := []struct {
		name      string
		deleteSeq int64
		residual  expr.BoundExpr
		proj      *iceberg.Schema
		skip      func(i int) bool
	}{
		{"same sequence number: not applied", 5, nil, nil, nil},
		{"older delete: not applied", 4, nil, nil, nil},
		{"newer delete applied", 6, nil, nil, notBOrNull},
		{"newer delete, key column not projected", 6, nil, idOnly, notBOrNull},
		{"residual only", 5, bind(expr.Lt("id", int64(50))), idOnly, func(i int) bool { return i >= 50 }},
		{"residual on struct field and delete", 6, bind(expr.GtEq("point.y", float64(-100))), idOnly,
			func(i int) bool { return notBOrNull(i) || i > 100 }},
		{"residual always true", 5, bind(expr.True()), nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			task := scan.FileScanTask{File: data, DataSequenceNumber: 5, Residual: tc.residual,
				Deletes: []scan.DeleteFile{{File: eq, DataSequenceNumber: tc.deleteSeq}}}
			recs := readAll(t, tt, task, tc.proj, ReadOptions{BatchSize: 64})
			if got, want := int64Column(t, recs, "id"), seqInts(0, 200, tc.skip); !slices.Equal(got, want) {
				t.Errorf("ids %v\nwant %v", got, want)
			}
			for _, r := range recs {
				if tc.proj != nil && r.NumCols() != int64(len(tc.proj.Fields())) {
					t.Errorf("record has %d columns, projection %d", r.NumCols(), len(tc.proj.Fields()))
				}
			}
		})
	}
}

func TestReadTaskErrors(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	ctx := context.Background()
	data := writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 0, 10, []string{"a"}))[0]
	garbage := tt.loc + "/data/garbage.parquet"
	out, _ := tt.fio.Create(ctx, garbage)
	_, _ = out.Write([]byte("PAR1 this is not a parquet file at all PAR1"))
	_ = out.Close()
	orc := data
	orc.FileFormat = iceberg.FormatORC
	tests := []struct {
		name string
		task scan.FileScanTask
		want error
	}{
		{"orc data file", scan.FileScanTask{File: orc}, ErrUnsupportedFormat},
		{"missing data file", scan.FileScanTask{File: iceberg.DataFile{FilePath: tt.loc + "/nope.parquet", FileFormat: iceberg.FormatParquet}}, fileio.ErrNotFound},
		{"corrupt data file", scan.FileScanTask{File: iceberg.DataFile{FilePath: garbage, FileFormat: iceberg.FormatParquet}}, iceberg.ErrInvalidDataFile},
		{"corrupt position delete file", scan.FileScanTask{File: data, Deletes: []scan.DeleteFile{{File: iceberg.DataFile{
			Content: iceberg.ContentPositionDeletes, FilePath: garbage, FileFormat: iceberg.FormatParquet}}}}, iceberg.ErrInvalidDataFile},
		{"corrupt equality delete file", scan.FileScanTask{File: data, Deletes: []scan.DeleteFile{{DataSequenceNumber: 1, File: iceberg.DataFile{
			Content: iceberg.ContentEqualityDeletes, FilePath: garbage, FileFormat: iceberg.FormatParquet, EqualityIDs: []int{1}}}}}, iceberg.ErrInvalidDataFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			it, err := ReadTask(ctx, tt.fio, tt.meta, tc.task, nil, ReadOptions{})
			if err == nil {
				it.Close()
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

// TestPositionDeletesManyFiles reads one large delete file covering many
// data files: long paths overflow the dictionary, so the path column has
// dictionary and plain pages.
func TestPositionDeletesManyFiles(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	ctx := context.Background()
	w := NewPositionDeleteWriter(ctx, tt.fio, tt.meta, PositionDeleteOptions{PerPartition: true})
	long := strings.Repeat("x", 400)
	pathOf := func(i int) string { return fmt.Sprintf("%s/data/%s-%05d.parquet", tt.loc, long, i) }
	posOf := func(i int) []int64 {
		out := make([]int64, 40)
		for k := range out {
			out[k] = int64(i + k*k)
		}
		return out
	}
	const files = 3000
	for i := files - 1; i >= 0; i-- {
		if err := w.Delete(ctx, iceberg.DataFile{FilePath: pathOf(i), Partition: []any{}}, posOf(i)); err != nil {
			t.Fatal(err)
		}
	}
	dfs, err := w.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(dfs) != 1 || dfs[0].RecordCount != files*40 || dfs[0].ReferencedDataFile != nil {
		t.Fatalf("delete files %+v", dfs)
	}
	// Without a cache, then twice with one: the first read learns that the
	// file is sorted, the second stops early.
	cache := NewDeleteCache(0)
	for _, c := range []*DeleteCache{nil, cache, cache} {
		for _, i := range []int{0, 1, 1499, 2998, 2999} {
			got, err := loadPositionDeletes(ctx, tt.fio, pathOf(i), dfs, c)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, posOf(i)) {
				t.Errorf("file %d: positions %v", i, got)
			}
		}
		for _, p := range []string{tt.loc + "/data/a.parquet", tt.loc + "/data/z.parquet", pathOf(5) + "x"} {
			if got, err := loadPositionDeletes(ctx, tt.fio, p, dfs, c); err != nil || len(got) != 0 {
				t.Errorf("%s: %v %v", p, got, err)
			}
		}
	}
	if sorted, known := cache.positionFileSorted(dfs[0].FilePath); !sorted || !known {
		t.Errorf("cache verdict sorted=%v known=%v", sorted, known)
	}
}
