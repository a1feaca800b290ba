package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
)

func readAll(t *testing.T, data []byte, proj *iceberg.Schema, opts ReadOptions) arrow.Table {
	t.Helper()
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.NewRecordReader(context.Background(), proj, opts)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := rr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	tbl := array.NewTableFromRecords(rr.Schema(), recs)
	for _, rec := range recs {
		rec.Release()
	}
	return tbl
}

func column(t *testing.T, tbl arrow.Table, i int) arrow.Array {
	t.Helper()
	a, err := array.Concatenate(tbl.Column(i).Data().Chunks(), memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRoundTripAllTypes(t *testing.T) {
	s := allTypesSchema()
	rec := randomRecord(s, 5000, 2)
	defer rec.Release()
	for _, codec := range []string{"zstd", "snappy", "gzip", "uncompressed"} {
		t.Run(codec, func(t *testing.T) {
			data, _ := writeFile(t, s, WriterOptions{Compression: codec, PageSizeBytes: 8192, RowGroupSizeBytes: 128 << 10}, rec)
			tbl := readAll(t, data, s, ReadOptions{BatchSize: 777})
			defer tbl.Release()
			if tbl.NumRows() != rec.NumRows() {
				t.Fatalf("rows %d, want %d", tbl.NumRows(), rec.NumRows())
			}
			for i := range s.Fields() {
				got := column(t, tbl, i)
				if !arrow.TypeEqual(got.DataType(), rec.Column(i).DataType(), arrow.CheckMetadata()) {
					t.Fatalf("column %d type %v, want %v", i, got.DataType(), rec.Column(i).DataType())
				}
				if !array.ApproxEqual(got, rec.Column(i), array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
					sameValues(t, s.Fields()[i].Name, rec.Column(i), got)
					t.Fatalf("column %d differs", i)
				}
				got.Release()
			}
		})
	}
}

func TestReadEveryRowGroupAndPosition(t *testing.T) {
	s := allTypesSchema()
	rec := randomRecord(s, 3000, 3)
	defer rec.Release()
	var parts []arrow.RecordBatch
	for i := int64(0); i < 3000; i += 500 {
		parts = append(parts, rec.NewSlice(i, i+500))
	}
	data, m := writeFile(t, s, WriterOptions{RowGroupSizeBytes: 32 << 10}, parts...)
	if len(m.SplitOffsets) < 3 {
		t.Fatalf("want several row groups, got %v", m.SplitOffsets)
	}
	proj, err := s.Select(1)
	if err != nil {
		t.Fatal(err)
	}
	tbl := readAll(t, data, proj, ReadOptions{WithPosition: true, BatchSize: 1000})
	defer tbl.Release()
	pos := column(t, tbl, 1).(*array.Int64)
	for i := 0; i < pos.Len(); i++ {
		if pos.Value(i) != int64(i) {
			t.Fatalf("_pos[%d] = %d", i, pos.Value(i))
		}
	}
}

func TestReadEOFAndCorrupt(t *testing.T) {
	s := allTypesSchema()
	rec := randomRecord(s, 100, 4)
	defer rec.Release()
	data, _ := writeFile(t, s, WriterOptions{}, rec)
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.NewRecordReader(context.Background(), s, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	first, err := rr.Next()
	if err != nil {
		t.Fatal(err)
	}
	first.Release()
	if _, err := rr.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("second Next: %v, want io.EOF", err)
	}
	for _, cut := range []int{0, 3, 8, len(data) / 2, len(data) - 9, len(data) - 1} {
		_, err := Open(bytes.NewReader(data[:cut]), int64(cut))
		if !errors.Is(err, iceberg.ErrInvalidDataFile) {
			t.Fatalf("truncated to %d: %v", cut, err)
		}
	}
}
