package parquetfile

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

const benchRows = 1_000_000

func benchSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		req(1, "id", iceberg.LongType{}),
		opt(2, "name", iceberg.StringType{}),
		opt(3, "category", iceberg.StringType{}),
		opt(4, "ts", iceberg.TimestampTzType{}),
		opt(5, "amount", iceberg.DoubleType{}),
	)
}

func benchRecord(b testing.TB) arrow.RecordBatch {
	as, err := arrowschema.ToArrow(benchSchema())
	if err != nil {
		b.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer rb.Release()
	cats := []string{"books", "garden", "electronics", "toys", "food"}
	for i := range benchRows {
		rb.Field(0).(*array.Int64Builder).Append(int64(i))
		rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("customer-%07d", i*7919%benchRows))
		if i%10 == 0 {
			rb.Field(2).AppendNull()
		} else {
			rb.Field(2).(*array.StringBuilder).Append(cats[i%len(cats)])
		}
		rb.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000_000 + int64(i)*1000))
		rb.Field(4).(*array.Float64Builder).Append(float64(i%10000) / 100)
	}
	return rb.NewRecordBatch()
}

func BenchmarkWrite(b *testing.B) {
	rec := benchRecord(b)
	defer rec.Release()
	var buf bytes.Buffer
	// icesql's default row groups end at DefaultRowGroupRowLimit rows;
	// bytes-only cuts them at the byte target alone, as Java.
	for _, v := range []struct {
		name string
		opts WriterOptions
	}{{"icesql", WriterOptions{}}, {"icesql-bytes-only", WriterOptions{RowGroupRowLimit: -1}}} {
		b.Run(v.name, func(b *testing.B) {
			for b.Loop() {
				buf.Reset()
				w, err := NewWriter(&buf, benchSchema(), v.opts)
				if err != nil {
					b.Fatal(err)
				}
				for i := int64(0); i < benchRows; i += 65536 {
					s := rec.NewSlice(i, min(i+65536, benchRows))
					if err := w.Write(s); err != nil {
						b.Fatal(err)
					}
					s.Release()
				}
				if _, err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
	b.Run("pqarrow", func(b *testing.B) {
		for b.Loop() {
			buf.Reset()
			props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd))
			fw, err := pqarrow.NewFileWriter(rec.Schema(), &buf, props, pqarrow.DefaultWriterProps())
			if err != nil {
				b.Fatal(err)
			}
			for i := int64(0); i < benchRows; i += 65536 {
				s := rec.NewSlice(i, min(i+65536, benchRows))
				if err := fw.WriteBuffered(s); err != nil {
					b.Fatal(err)
				}
				s.Release()
			}
			if err := fw.Close(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}

// benchFile writes the benchmark rows as one file; rowGroupBytes 0 keeps
// the default (a single row group).
func benchFile(b testing.TB, rowGroupBytes int64) []byte {
	rec := benchRecord(b)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, benchSchema(), WriterOptions{RowGroupSizeBytes: rowGroupBytes})
	if err != nil {
		b.Fatal(err)
	}
	for i := int64(0); i < benchRows; i += 65536 {
		s := rec.NewSlice(i, min(i+65536, benchRows))
		if err := w.Write(s); err != nil {
			b.Fatal(err)
		}
		s.Release()
	}
	if _, err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// scanIcesql reads the file with projection and opts and returns the rows.
func scanIcesql(b *testing.B, data []byte, projection *iceberg.Schema, opts ReadOptions) int64 {
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	rr, err := r.NewRecordReader(context.Background(), projection, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer rr.Close()
	n := int64(0)
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n += rec.NumRows()
		rec.Release()
	}
}

// scanPqarrow reads the file with iceberg-go's reader stack: the columns
// (nil for all) and row groups (nil for all) given.
func scanPqarrow(b *testing.B, data []byte, columns, rowGroups []int) int64 {
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: DefaultBatchSize, Parallel: true}, memory.DefaultAllocator)
	if err != nil {
		b.Fatal(err)
	}
	rr, err := fr.GetRecordReader(context.Background(), columns, rowGroups)
	if err != nil {
		b.Fatal(err)
	}
	defer rr.Release()
	n := int64(0)
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	if err := rr.Err(); err != nil && err != io.EOF {
		b.Fatal(err)
	}
	return n
}

func reportRows(b *testing.B, rows int64) {
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// cpuMeter reports the process CPU time per operation of a benchmark
// (all goroutines: decoding runs beside the caller).
type cpuMeter struct{ start int64 }

func startCPU() cpuMeter { return cpuMeter{processCPU()} }

func (m cpuMeter) report(b *testing.B) {
	b.ReportMetric(float64(processCPU()-m.start)/1e6/float64(b.N), "cpu-ms/op")
}

// benchScanPair runs icesql and pqarrow side by side over data: each
// sub-benchmark's read must return want rows; rows/s counts benchRows.
func benchScanPair(b *testing.B, icesql, pqarrow func(b *testing.B) int64, want int64) {
	for _, side := range []struct {
		name string
		scan func(b *testing.B) int64
	}{{"icesql", icesql}, {"pqarrow", pqarrow}} {
		b.Run(side.name, func(b *testing.B) {
			cpu := startCPU()
			for b.Loop() {
				if n := side.scan(b); n != want {
					b.Fatalf("read %d rows, want %d", n, want)
				}
			}
			cpu.report(b)
			reportRows(b, benchRows)
		})
	}
}

// BenchmarkScan reads every column of every row.
func BenchmarkScan(b *testing.B) {
	data := benchFile(b, 0)
	benchScanPair(b,
		func(b *testing.B) int64 { return scanIcesql(b, data, benchSchema(), ReadOptions{}) },
		func(b *testing.B) int64 { return scanPqarrow(b, data, nil, nil) }, benchRows)
}

// BenchmarkScanProjected reads 2 of the 5 columns (id, category).
func BenchmarkScanProjected(b *testing.B) {
	data := benchFile(b, 0)
	proj, err := benchSchema().Select(1, 3)
	if err != nil {
		b.Fatal(err)
	}
	benchScanPair(b,
		func(b *testing.B) int64 { return scanIcesql(b, data, proj, ReadOptions{}) },
		func(b *testing.B) int64 { return scanPqarrow(b, data, []int{0, 2}, nil) }, benchRows)
}

// BenchmarkScanSkipRowGroups reads a file of about 16 row groups keeping
// those whose id range meets the last eighth of the ids (stats pruning).
// rows/s counts the file's rows: the work a scan of the whole file saves.
func BenchmarkScanSkipRowGroups(b *testing.B) {
	data := benchFile(b, 4<<20)
	cut := int64(benchRows * 7 / 8)
	filter := func(st map[int]ColumnStats) bool {
		id := st[1]
		return id.Max == nil || id.Max.(int64) >= cut
	}
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	// pqarrow has no statistics filter: iceberg-go prunes row groups
	// itself from the footer, so hand it the same row groups.
	var keep []int
	var kept int64
	for i, rg := range r.file.Metadata().RowGroups {
		first := rg.Columns[0].MetaData.Statistics
		if max := int64(binary.LittleEndian.Uint64(first.MaxValue)); max >= cut {
			keep = append(keep, i)
			kept += rg.NumRows
		}
	}
	if len(keep) == 0 || len(keep) == r.NumRowGroups() {
		b.Fatalf("kept %d of %d row groups", len(keep), r.NumRowGroups())
	}
	benchScanPair(b,
		func(b *testing.B) int64 {
			return scanIcesql(b, data, benchSchema(), ReadOptions{RowGroupFilter: filter})
		},
		func(b *testing.B) int64 { return scanPqarrow(b, data, nil, keep) }, kept)
}

// BenchmarkWriteOneRow writes a file of a single row, as a one-row INSERT
// does: the per-file cost (codec set-up, footer) dominates.
func BenchmarkWriteOneRow(b *testing.B) {
	rec := benchRecord(b)
	defer rec.Release()
	row := rec.NewSlice(0, 1)
	defer row.Release()
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		w, err := NewWriter(&buf, benchSchema(), WriterOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Write(row); err != nil {
			b.Fatal(err)
		}
		if _, err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScanOneColumn reads one string column (name): the pages of a
// single column are decoded concurrently.
func BenchmarkScanOneColumn(b *testing.B) {
	data := benchFile(b, 0)
	proj, err := benchSchema().Select(2)
	if err != nil {
		b.Fatal(err)
	}
	benchScanPair(b,
		func(b *testing.B) int64 { return scanIcesql(b, data, proj, ReadOptions{}) },
		func(b *testing.B) int64 { return scanPqarrow(b, data, []int{1}, nil) }, benchRows)
}
