package parquetfile

import (
	"bytes"
	"context"
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

func benchRecord(b *testing.B) arrow.RecordBatch {
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
	b.Run("icesql", func(b *testing.B) {
		for b.Loop() {
			buf.Reset()
			w, err := NewWriter(&buf, benchSchema(), WriterOptions{})
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

func BenchmarkScan(b *testing.B) {
	rec := benchRecord(b)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, benchSchema(), WriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		b.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.Run("icesql", func(b *testing.B) {
		for b.Loop() {
			r, err := Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				b.Fatal(err)
			}
			rr, err := r.NewRecordReader(context.Background(), benchSchema(), ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			n := int64(0)
			for {
				rec, err := rr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				n += rec.NumRows()
				rec.Release()
			}
			if n != benchRows {
				b.Fatalf("read %d rows", n)
			}
		}
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("pqarrow", func(b *testing.B) {
		for b.Loop() {
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: DefaultBatchSize}, memory.DefaultAllocator)
			if err != nil {
				b.Fatal(err)
			}
			rr, err := fr.GetRecordReader(context.Background(), nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			n := int64(0)
			for rr.Next() {
				n += rr.RecordBatch().NumRows()
			}
			if err := rr.Err(); err != nil && err != io.EOF {
				b.Fatal(err)
			}
			rr.Release()
			if n != benchRows {
				b.Fatalf("read %d rows", n)
			}
		}
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}
