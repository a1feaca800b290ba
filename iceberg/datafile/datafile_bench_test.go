package datafile

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/iceberg/scan"
)

const benchRows = 1_000_000

func benchSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		iceberg.NestedField{ID: 2, Name: "name", Type: iceberg.StringType{}},
		iceberg.NestedField{ID: 3, Name: "city", Type: iceberg.StringType{}},
		iceberg.NestedField{ID: 4, Name: "ts", Type: iceberg.TimestampTzType{}},
		iceberg.NestedField{ID: 5, Name: "amount", Type: iceberg.DoubleType{}},
	)
}

// benchBatches builds benchRows rows in batches of 8192.
func benchBatches(b *testing.B) []arrow.RecordBatch {
	as, err := arrowschema.ToArrow(benchSchema())
	if err != nil {
		b.Fatal(err)
	}
	cities := []string{"Amsterdam", "Berlin", "Cairo", "Delhi", "Edinburgh", "Fes", "Geneva"}
	var out []arrow.RecordBatch
	rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer rb.Release()
	for i := 0; i < benchRows; i++ {
		rb.Field(0).(*array.Int64Builder).Append(int64(i))
		rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("name-%07d", i*7919%benchRows))
		rb.Field(2).(*array.StringBuilder).Append(cities[i%len(cities)])
		rb.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(day0 + int64(i)*1_000_000))
		rb.Field(4).(*array.Float64Builder).Append(float64(i%1000) / 10)
		if (i+1)%8192 == 0 || i == benchRows-1 {
			out = append(out, rb.NewRecordBatch())
		}
	}
	b.Cleanup(func() {
		for _, r := range out {
			r.Release()
		}
	})
	return out
}

func BenchmarkWriter(b *testing.B) {
	specs := map[string]*iceberg.PartitionSpec{
		"unpartitioned":  nil,
		"day(ts)":        {Fields: []iceberg.PartitionField{{SourceID: 4, Name: "ts_day", Transform: iceberg.DayTransform{}}}},
		"identity(city)": {Fields: []iceberg.PartitionField{{SourceID: 3, Name: "city", Transform: iceberg.IdentityTransform{}}}},
		"bucket(id)":     {Fields: []iceberg.PartitionField{{SourceID: 1, Name: "id_bucket", Transform: iceberg.BucketTransform{N: 8}}}},
		// Per-file setup cost: 64 open files of about 16k rows each.
		"bucket(id,64)": {Fields: []iceberg.PartitionField{{SourceID: 1, Name: "id_bucket", Transform: iceberg.BucketTransform{N: 64}}}},
	}
	batches := benchBatches(b)
	for name, spec := range specs {
		b.Run(name, func(b *testing.B) {
			tt := newTestTable(b, benchSchema(), spec, nil)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				w := NewWriter(ctx, tt.fio, tt.meta, WriterOptions{})
				for _, r := range batches {
					if err := w.Write(ctx, r); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := w.Close(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(benchRows*b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

func BenchmarkReadTask(b *testing.B) {
	tt := newTestTable(b, benchSchema(), nil, nil)
	ctx := context.Background()
	w := NewWriter(ctx, tt.fio, tt.meta, WriterOptions{})
	for _, r := range benchBatches(b) {
		if err := w.Write(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	files, err := w.Close(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rows := int64(0)
		for _, f := range files {
			it, err := ReadTask(ctx, tt.fio, tt.meta, scan.FileScanTask{File: f}, nil, ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			for {
				rec, err := it.Next(ctx)
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				rows += rec.NumRows()
				rec.Release()
			}
			it.Close()
		}
		if rows != benchRows {
			b.Fatalf("read %d rows", rows)
		}
	}
	b.ReportMetric(float64(benchRows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkReadTaskEqualityDeletes reads 8 data files that share one
// equality delete file of 50k ids, each task parsing it again or sharing a
// DeleteCache.
func BenchmarkReadTaskEqualityDeletes(b *testing.B) {
	tt := newTestTable(b, benchSchema(), nil, nil)
	ctx := context.Background()
	batches := benchBatches(b)
	var files []iceberg.DataFile
	per := len(batches) / 8
	for k := 0; k < 8; k++ {
		w := NewWriter(ctx, tt.fio, tt.meta, WriterOptions{TaskID: int64(k)})
		for _, r := range batches[k*per : min((k+1)*per, len(batches))] {
			if err := w.Write(ctx, r); err != nil {
				b.Fatal(err)
			}
		}
		fs, err := w.Close(ctx)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, fs...)
	}
	eq := benchEqualityDeletes(b, tt, 50_000)
	for _, cached := range []bool{false, true} {
		b.Run(fmt.Sprintf("cache=%v", cached), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				opts := ReadOptions{}
				if cached {
					opts.DeleteCache = NewDeleteCache(0)
				}
				for _, f := range files {
					task := scan.FileScanTask{File: f, DataSequenceNumber: 1, Deletes: []scan.DeleteFile{{File: eq, DataSequenceNumber: 2}}}
					it, err := ReadTask(ctx, tt.fio, tt.meta, task, nil, opts)
					if err != nil {
						b.Fatal(err)
					}
					for {
						rec, err := it.Next(ctx)
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						rec.Release()
					}
					it.Close()
				}
			}
		})
	}
}

// benchEqualityDeletes writes an equality delete file on id with every
// 20th id below 20*n.
func benchEqualityDeletes(b *testing.B, tt testTable, n int) iceberg.DataFile {
	ctx := context.Background()
	schema, err := tt.meta.CurrentSchema().Select(1)
	if err != nil {
		b.Fatal(err)
	}
	as, _ := arrowschema.ToArrow(schema)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer rb.Release()
	for i := 0; i < n; i++ {
		rb.Field(0).(*array.Int64Builder).Append(int64(i * 20))
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	loc := tt.loc + "/data/eq-deletes.parquet"
	out, err := tt.fio.Create(ctx, loc)
	if err != nil {
		b.Fatal(err)
	}
	pw, err := parquetfile.NewWriter(out, schema, parquetfile.WriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := pw.Write(rec); err != nil {
		b.Fatal(err)
	}
	if _, err := pw.Close(); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return iceberg.DataFile{Content: iceberg.ContentEqualityDeletes, FilePath: loc, FileFormat: iceberg.FormatParquet,
		RecordCount: int64(n), EqualityIDs: []int{1}}
}

// BenchmarkPositionDeletesPerTask reads, for each of 200 data files, its
// positions from one delete file covering all of them (100k rows), sorted
// or not, without a cache and with one (which lets tasks stop early in a
// file a full read found sorted).
func BenchmarkPositionDeletesPerTask(b *testing.B) {
	tt := newTestTable(b, benchSchema(), nil, nil)
	ctx := context.Background()
	const files, per = 200, 500
	pathOf := func(i int) string { return fmt.Sprintf("%s/data/%05d-0-op-00001.parquet", tt.loc, i) }
	var sorted, unsorted []posRow
	for f := 0; f < files; f++ {
		for k := 0; k < per; k++ {
			sorted = append(sorted, posRow{pathOf(f), int64(k * 3)})
		}
	}
	for f := files - 1; f >= 0; f-- {
		unsorted = append(unsorted, sorted[f*per:(f+1)*per]...)
	}
	for _, order := range []struct {
		name string
		rows []posRow
	}{{"sorted", sorted}, {"unsorted", unsorted}} {
		d := writeRawPositionDeletes(b, tt, order.name+"-deletes.parquet", order.rows, 1<<20, true)
		for _, cached := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/cache=%v", order.name, cached), func(b *testing.B) {
				for b.Loop() {
					var cache *DeleteCache
					if cached {
						cache = NewDeleteCache(0)
					}
					for f := 0; f < files; f++ {
						pos, err := loadPositionDeletes(ctx, tt.fio, pathOf(f), []iceberg.DataFile{d}, cache)
						if err != nil || len(pos) != per {
							b.Fatalf("%d positions, %v", len(pos), err)
						}
					}
				}
			})
		}
	}
}
