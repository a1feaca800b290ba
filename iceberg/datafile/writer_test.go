package datafile

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/iceberg/scan"
)

var fileNamePattern = regexp.MustCompile(`/00007-3-[0-9a-f-]{36}-\d{5}\.parquet$`)

func TestWriterPartitions(t *testing.T) {
	cats := []string{"a", "b", "", "c d"}
	tests := []struct {
		name   string
		fields []iceberg.PartitionField
		// tuple computes the expected partition of row i.
		tuple func(i int) []any
	}{
		{"unpartitioned", nil, func(int) []any { return []any{} }},
		{"identity", []iceberg.PartitionField{{SourceID: 2, Name: "category", Transform: iceberg.IdentityTransform{}}},
			func(i int) []any {
				if cats[i%4] == "" {
					return []any{nil}
				}
				return []any{cats[i%4]}
			}},
		{"days", []iceberg.PartitionField{{SourceID: 3, Name: "ts_day", Transform: iceberg.DayTransform{}}},
			func(i int) []any { return []any{iceberg.Date((day0 + int64(i)*3_600_000_000) / dayMicros)} }},
		{"bucket", []iceberg.PartitionField{{SourceID: 1, Name: "id_bucket", Transform: iceberg.BucketTransform{N: 4}}},
			func(i int) []any { return []any{iceberg.BucketTransform{N: 4}.Apply(int64(i))} }},
		{"nested identity", []iceberg.PartitionField{{SourceID: 6, Name: "point_x", Transform: iceberg.IdentityTransform{}}},
			func(i int) []any { return []any{float64(i % 5)} }},
		{"month and truncate", []iceberg.PartitionField{
			{SourceID: 3, Name: "ts_month", Transform: iceberg.MonthTransform{}},
			{SourceID: 2, Name: "category_trunc", Transform: iceberg.TruncateTransform{W: 1}},
		}, func(i int) []any {
			var c any
			if cats[i%4] != "" {
				c = cats[i%4][:1]
			}
			month := int32((2024 - 1970) * 12) // January 2024: 31*24 hours from day0
			if i >= 31*24 {
				month++
			}
			return []any{month, c}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := newTestTable(t, testSchema(), &iceberg.PartitionSpec{Fields: tc.fields}, nil)
			const n = 1000
			recs := []arrow.RecordBatch{testRows(t, testSchema(), 0, 600, cats), testRows(t, testSchema(), 600, n-600, cats)}
			files := writeAll(t, tt, WriterOptions{PartitionID: 7, TaskID: 3}, recs...)
			var total int64
			seen := map[string]bool{}
			for _, f := range files {
				total += f.RecordCount
				if f.Content != iceberg.ContentData || f.FileFormat != iceberg.FormatParquet || f.SpecID != tt.meta.DefaultSpecID() {
					t.Errorf("%s: content %v format %v spec %d", f.FilePath, f.Content, f.FileFormat, f.SpecID)
				}
				if !fileNamePattern.MatchString(f.FilePath) || !strings.HasPrefix(f.FilePath, fileio.NewFileBase(tt.loc)+"/data/") {
					t.Errorf("file name %s does not follow the Java pattern", f.FilePath)
				}
				if f.SortOrderID == nil || *f.SortOrderID != 0 {
					t.Errorf("sort order id %v, want 0", f.SortOrderID)
				}
				if len(f.Partition) != len(tc.fields) {
					t.Fatalf("partition %v for %d fields", f.Partition, len(tc.fields))
				}
				key := partitionKey(f.Partition)
				if seen[key] {
					t.Errorf("two files for partition %v", f.Partition)
				}
				seen[key] = true
				if len(tc.fields) > 0 {
					path, err := tt.meta.CurrentSpec().PartitionPath(f.Partition, tt.meta.CurrentSchema())
					if err != nil {
						t.Fatal(err)
					}
					if !strings.Contains(f.FilePath, "/data/"+path+"/") {
						t.Errorf("file %s is not under partition path %s", f.FilePath, path)
					}
				}
				checkFileRows(t, tt, f)
				if f.ValueCounts[1] != f.RecordCount || f.NullValueCounts[1] != 0 || f.LowerBounds[1] == nil || f.ColumnSizes[1] <= 0 {
					t.Errorf("metrics for id: values %d nulls %d lower %x size %d", f.ValueCounts[1], f.NullValueCounts[1], f.LowerBounds[1], f.ColumnSizes[1])
				}
				if len(f.SplitOffsets) == 0 || f.FileSizeInBytes <= 0 {
					t.Errorf("split offsets %v size %d", f.SplitOffsets, f.FileSizeInBytes)
				}
				if tc.tuple != nil {
					// Every row of the file must belong to the file's partition.
					tbl := readFileOracle(t, tt.fio, f.FilePath)
					ids := tbl.Column(0).Data().Chunks()
					for _, ch := range ids {
						for _, id := range ch.(*array.Int64).Int64Values() {
							if want := tc.tuple(int(id)); partitionKey(want) != key {
								t.Fatalf("row %d with partition %v in file of %v", id, want, f.Partition)
							}
						}
					}
					tbl.Release()
				}
			}
			if total != n {
				t.Errorf("files hold %d rows, want %d", total, n)
			}
			ids := checkRowValues(t, tt, files)
			slices.Sort(ids)
			if !slices.Equal(ids, seqInts(0, n, nil)) {
				t.Errorf("ids read back are not 0..%d", n-1)
			}
			if got := len(listFiles(t, tt)); got != len(files) {
				t.Errorf("%d files on disk, %d returned", got, len(files))
			}
		})
	}
}

// checkFileRows reads the file and compares its row count and metadata.
func checkFileRows(t *testing.T, tt testTable, f iceberg.DataFile) {
	t.Helper()
	tbl := readFileOracle(t, tt.fio, f.FilePath)
	defer tbl.Release()
	if tbl.NumRows() != f.RecordCount {
		t.Errorf("%s: %d rows, DataFile says %d", f.FilePath, tbl.NumRows(), f.RecordCount)
	}
}

func TestWriterRollsAtTargetSize(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, map[string]string{iceberg.PropWriteTargetFileSizeBytes: "20000"})
	pq := parquetfile.WriterOptions{RowGroupSizeBytes: 8 << 10}
	recs := []arrow.RecordBatch{testRows(t, testSchema(), 0, 40000, []string{"x"})}
	files := writeAll(t, tt, WriterOptions{Parquet: &pq}, recs...)
	if len(files) < 2 {
		t.Fatalf("wrote %d files, want several at a 20 kB target", len(files))
	}
	var total int64
	for i, f := range files {
		total += f.RecordCount
		checkFileRows(t, tt, f)
		if !strings.HasSuffix(f.FilePath, fmt.Sprintf("-%05d.parquet", i+1)) {
			t.Errorf("file %d named %s", i, f.FilePath)
		}
	}
	if total != 40000 {
		t.Errorf("%d rows written", total)
	}
	// Values survive slicing at roll points, nested columns included.
	ids := checkRowValues(t, tt, files)
	if !slices.Equal(ids, seqInts(0, 40000, nil)) {
		t.Errorf("ids read back out of order or missing")
	}
}

func TestWriterRejectsBadBatches(t *testing.T) {
	schema := testSchema()
	as, _ := arrowschema.ToArrow(schema)
	nullID := func() arrow.RecordBatch {
		b := array.NewRecordBuilder(memory.DefaultAllocator, as)
		defer b.Release()
		b.Field(0).AppendNull()
		for i := 1; i < 5; i++ {
			b.Field(i).AppendNull()
		}
		return b.NewRecordBatch()
	}
	wrongType := func() arrow.RecordBatch {
		fields := append([]arrow.Field(nil), as.Fields()...)
		fields[1] = arrow.Field{Name: "category", Type: arrow.PrimitiveTypes.Int64, Nullable: true}
		b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
		defer b.Release()
		b.Field(0).(*array.Int64Builder).Append(1)
		for i := 1; i < 5; i++ {
			b.Field(i).AppendNull()
		}
		return b.NewRecordBatch()
	}
	tests := []struct {
		name   string
		rec    func() arrow.RecordBatch
		want   error
		column string
	}{
		{"null in required column", nullID, iceberg.ErrNotNullViolation, "id"},
		{"wrong type", wrongType, iceberg.ErrTypeMismatch, "category"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := &iceberg.PartitionSpec{Fields: []iceberg.PartitionField{{SourceID: 2, Name: "category", Transform: iceberg.IdentityTransform{}}}}
			tt := newTestTable(t, schema, spec, nil)
			ctx := context.Background()
			w := NewWriter(ctx, tt.fio, tt.meta, WriterOptions{})
			err := w.Write(ctx, tc.rec())
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			var ce *arrowschema.ColumnError
			if !errors.As(err, &ce) || ce.Column != tc.column {
				t.Errorf("error %v does not name column %q", err, tc.column)
			}
			if files := listFiles(t, tt); len(files) != 0 {
				t.Errorf("files left on disk: %v", files)
			}
			// The writer stays usable after a rejected batch.
			if err := w.Write(ctx, testRows(t, schema, 0, 10, []string{"a"})); err != nil {
				t.Fatal(err)
			}
			files, err := w.Close(ctx)
			if err != nil || len(files) != 1 || files[0].RecordCount != 10 {
				t.Fatalf("after rejection: %v %v", files, err)
			}
		})
	}
}

func TestWriterAbortRemovesFiles(t *testing.T) {
	spec := &iceberg.PartitionSpec{Fields: []iceberg.PartitionField{{SourceID: 3, Name: "ts_day", Transform: iceberg.DayTransform{}}}}
	tt := newTestTable(t, testSchema(), spec, map[string]string{iceberg.PropWriteTargetFileSizeBytes: "4000"})
	ctx := context.Background()
	pq := parquetfile.WriterOptions{RowGroupSizeBytes: 2 << 10}
	w := NewWriter(ctx, tt.fio, tt.meta, WriterOptions{Parquet: &pq})
	if err := w.Write(ctx, testRows(t, testSchema(), 0, 3000, []string{"a"})); err != nil {
		t.Fatal(err)
	}
	if len(listFiles(t, tt)) == 0 {
		t.Fatal("nothing on disk before abort")
	}
	if err := w.Abort(ctx); err != nil {
		t.Fatal(err)
	}
	if files := listFiles(t, tt); len(files) != 0 {
		t.Errorf("files left after abort: %v", files)
	}
	if err := w.Write(ctx, testRows(t, testSchema(), 0, 1, []string{"a"})); !errors.Is(err, ErrWriterClosed) {
		t.Errorf("write after abort: %v", err)
	}
}

func TestWriterHonoursCodecAndDataPath(t *testing.T) {
	dataDir := "data-elsewhere"
	tt := newTestTable(t, testSchema(), nil, map[string]string{iceberg.PropParquetCompression: "snappy"})
	tt2 := newTestTable(t, testSchema(), nil, map[string]string{PropWriteDataPath: tt.loc + "/" + dataDir + "/", iceberg.PropParquetCompression: "bogus"})
	files := writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 0, 10, []string{"a"}))
	tbl := readFileOracle(t, tt.fio, files[0].FilePath)
	tbl.Release()
	ctx := context.Background()
	w := NewWriter(ctx, tt2.fio, tt2.meta, WriterOptions{})
	if err := w.Write(ctx, testRows(t, testSchema(), 0, 10, []string{"a"})); !errors.Is(err, ErrBadProperty) || !errors.Is(err, parquetfile.ErrUnknownCodec) {
		t.Errorf("bogus codec: %v", err)
	}
	pq := parquetfile.WriterOptions{Compression: "gzip"}
	files = writeAll(t, tt2, WriterOptions{Parquet: &pq}, testRows(t, testSchema(), 0, 10, []string{"a"}))
	if !strings.HasPrefix(files[0].FilePath, fileio.NewFileBase(tt.loc)+"/"+dataDir+"/0000") {
		t.Errorf("write.data.path ignored: %s", files[0].FilePath)
	}
}

// checkRowValues reads every file back with ReadTask, checks each row's
// columns against the values testRows derives from its id, and returns the
// ids in file order.
func checkRowValues(t *testing.T, tt testTable, files []iceberg.DataFile) []int64 {
	t.Helper()
	var ids []int64
	for _, f := range files {
		for _, r := range readAll(t, tt, scan.FileScanTask{File: f}, nil, ReadOptions{}) {
			idCol := r.Column(0).(*array.Int64)
			ts := r.Column(2).(*array.Timestamp)
			point := r.Column(3).(*array.Struct)
			tags := r.Column(4).(*array.List)
			for i := 0; i < int(r.NumRows()); i++ {
				id := idCol.Value(i)
				ids = append(ids, id)
				if from, to := tags.ValueOffsets(i); int(to-from) != int(id%3) {
					t.Fatalf("row %d has %d tags", id, to-from)
				}
				if x, y := point.Field(0).(*array.Float64).Value(i), point.Field(1).(*array.Float64).Value(i); x != float64(id%5) || y != float64(-id) {
					t.Fatalf("row %d has point (%v, %v)", id, x, y)
				}
				if got := int64(ts.Value(i)); got != day0+id*3_600_000_000 {
					t.Fatalf("row %d has ts %d", id, got)
				}
			}
		}
	}
	return ids
}
