package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// scanSchema is flat: every column takes the streaming read path.
func scanSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		req(1, "id", iceberg.LongType{}),
		opt(2, "name", iceberg.StringType{}),
		opt(3, "category", iceberg.StringType{}),
		opt(4, "ts", iceberg.TimestampTzType{}),
		opt(5, "amount", iceberg.DoubleType{}),
		opt(6, "flag", iceberg.BooleanType{}),
		opt(7, "small", iceberg.IntType{}),
		opt(8, "price", iceberg.DecimalType{Precision: 12, Scale: 2}),
	)
}

// scanRecord has unique (dictionary abandoned), low-cardinality and
// all-null stretches, so pages of both encodings and of mixed nulls occur.
func scanRecord(t testing.TB, n int) arrow.RecordBatch {
	as, err := arrowschema.ToArrow(scanSchema())
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer rb.Release()
	cats := []string{"books", "garden", "", "toys", "food"}
	for i := range n {
		rb.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%7 == 3 {
			rb.Field(1).AppendNull()
		} else {
			rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("customer-%07d", i*7919%n))
		}
		if i%10 == 0 || (i > n/2 && i < n/2+5000) {
			rb.Field(2).AppendNull()
		} else {
			rb.Field(2).(*array.StringBuilder).Append(cats[i%len(cats)])
		}
		rb.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000_000 + int64(i)*1000))
		rb.Field(4).(*array.Float64Builder).Append(float64(i%10000) / 100)
		if i%3 == 0 {
			rb.Field(5).AppendNull()
		} else {
			rb.Field(5).(*array.BooleanBuilder).Append(i%2 == 0)
		}
		rb.Field(6).(*array.Int32Builder).Append(int32(i % 100))
		if i%5 == 0 {
			rb.Field(7).AppendNull()
		} else {
			rb.Field(7).(*array.Decimal128Builder).Append(decimalFromInt(int64(i) - 5000))
		}
	}
	return rb.NewRecordBatch()
}

func TestStreamingRoundTrip(t *testing.T) {
	const n = 60_000
	rec := scanRecord(t, n)
	defer rec.Release()
	s := scanSchema()
	for _, tc := range []struct {
		name  string
		wopts WriterOptions
		ropts ReadOptions
	}{
		{"defaults", WriterOptions{}, ReadOptions{}},
		{"small-pages-serial", WriterOptions{PageSizeBytes: 8 << 10, Concurrency: 1}, ReadOptions{BatchSize: 1000, Concurrency: 1}},
		{"small-pages-row-groups", WriterOptions{PageSizeBytes: 16 << 10, RowGroupSizeBytes: 256 << 10, Compression: "snappy"}, ReadOptions{BatchSize: 4099}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, m := writeFile(t, s, tc.wopts, rec.NewSlice(0, 10), rec.NewSlice(10, n))
			if m.RecordCount != n || m.NullValueCounts[1] != 0 || m.NullValueCounts[6] != n/3 {
				t.Fatalf("metrics: rows %d nulls %v", m.RecordCount, m.NullValueCounts)
			}
			ours := readAll(t, data, s, tc.ropts)
			defer ours.Release()
			oracle := readWithPqarrow(t, data)
			defer oracle.Release()
			for i := range s.Fields() {
				got := column(t, ours, i)
				want, err := array.Concatenate(oracle.Column(i).Data().Chunks(), memory.DefaultAllocator)
				if err != nil {
					t.Fatal(err)
				}
				sameValues(t, s.Fields()[i].Name+" (pqarrow)", rec.Column(i), want)
				if !array.Equal(got, rec.Column(i)) {
					sameValues(t, s.Fields()[i].Name, rec.Column(i), got)
					t.Fatalf("column %d differs", i)
				}
				got.Release()
				want.Release()
			}
		})
	}
}

func TestRowGroupFilter(t *testing.T) {
	const n = 20_000
	rec := scanRecord(t, n)
	defer rec.Release()
	s := scanSchema()
	var parts []arrow.RecordBatch
	for i := int64(0); i < n; i += 2000 {
		parts = append(parts, rec.NewSlice(i, i+2000))
	}
	data, m := writeFile(t, s, WriterOptions{RowGroupSizeBytes: 48 << 10}, parts...)
	if len(m.SplitOffsets) < 4 {
		t.Fatalf("want several row groups, got %d", len(m.SplitOffsets))
	}
	var seen []map[int]ColumnStats
	keep := func(st map[int]ColumnStats) bool {
		seen = append(seen, st)
		id := st[1]
		return id.Min != nil && id.Min.(int64) <= 15000 && id.Max.(int64) >= 15000
	}
	tbl := readAll(t, data, s, ReadOptions{RowGroupFilter: keep, WithPosition: true})
	defer tbl.Release()
	if len(seen) != len(m.SplitOffsets) {
		t.Fatalf("filter asked %d times for %d row groups", len(seen), len(m.SplitOffsets))
	}
	if tbl.NumRows() == 0 || tbl.NumRows() >= n {
		t.Fatalf("kept %d rows", tbl.NumRows())
	}
	ids := column(t, tbl, 0).(*array.Int64)
	pos := column(t, tbl, len(s.Fields())).(*array.Int64)
	defer ids.Release()
	defer pos.Release()
	for i := 0; i < ids.Len(); i++ {
		if ids.Value(i) != pos.Value(i) {
			t.Fatalf("row %d: id %d at _pos %d", i, ids.Value(i), pos.Value(i))
		}
	}
	if ids.Value(0) > 15000 || ids.Value(ids.Len()-1) < 15000 {
		t.Fatalf("kept ids %d..%d do not hold 15000", ids.Value(0), ids.Value(ids.Len()-1))
	}
	// Statistics of the first row group: exact bounds and null counts.
	first := seen[0]
	if first[1].Min != int64(0) || first[1].NullCount != 0 || first[1].ValueCount == 0 {
		t.Fatalf("id stats %+v", first[1])
	}
	if c := first[3]; c.Min != "" || c.Max != "toys" || c.NullCount == 0 {
		t.Fatalf("category stats %+v", c)
	}
	if f := first[6]; f.Min != false || f.Max != true {
		t.Fatalf("flag stats %+v", f)
	}
	if _, ok := first[99]; ok {
		t.Fatal("stats for an unknown id")
	}
}

func TestNameMapping(t *testing.T) {
	// pqarrow writes no field ids when the Arrow schema carries none.
	as := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
	rb.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3}, nil)
	rb.Field(1).(*array.StringBuilder).AppendValues([]string{"x", "", "z"}, []bool{true, false, true})
	rec := rb.NewRecordBatch()
	rb.Release()
	defer rec.Release()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(as, &buf, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	table := iceberg.MustSchema(0, opt(20, "renamed_b", iceberg.StringType{}), req(10, "a", iceberg.LongType{}))
	mapping := func(path []string) (int, bool) {
		switch strings.Join(path, ".") {
		case "a":
			return 10, true
		case "b":
			return 20, true
		}
		return 0, false
	}
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.NewRecordReader(context.Background(), table, ReadOptions{}); !errors.Is(err, ErrNoFieldIDs) {
		t.Fatalf("without mapping: %v, want ErrNoFieldIDs", err)
	}
	fs, err := r.Schema(mapping)
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := fs.FindFieldByID(20); !ok || f.Name != "b" {
		t.Fatalf("mapped schema %v", fs)
	}
	tbl := readAll(t, data, table, ReadOptions{NameMapping: mapping})
	defer tbl.Release()
	for i, want := range []string{`["x" (null) "z"]`, "[1 2 3]"} {
		got := column(t, tbl, i)
		if got.String() != want {
			t.Errorf("column %d = %s, want %s", i, got, want)
		}
		got.Release()
	}
}

func TestRecordReaderClose(t *testing.T) {
	rec := scanRecord(t, 5000)
	defer rec.Release()
	data, _ := writeFile(t, scanSchema(), WriterOptions{}, rec)
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.NewRecordReader(context.Background(), scanSchema(), ReadOptions{BatchSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	b, err := rr.Next()
	if err != nil {
		t.Fatal(err)
	}
	if err := rr.Close(); err != nil {
		t.Fatal(err)
	}
	// The batch handed out before Close stays valid.
	if b.NumRows() != 1000 || b.Column(0).(*array.Int64).Value(999) != 999 {
		t.Fatalf("batch after close: %d rows", b.NumRows())
	}
	b.Release()
	if _, err := rr.Next(); !errors.Is(err, ErrReaderClosed) {
		t.Fatalf("Next after Close: %v", err)
	}
	if err := rr.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	// Closing a reader that reached EOF keeps reporting EOF.
	rr2, _ := r.NewRecordReader(context.Background(), scanSchema(), ReadOptions{})
	for {
		b, err := rr2.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b.Release()
	}
	rr2.Close()
	if _, err := rr2.Next(); err != io.EOF {
		t.Fatalf("Next after EOF and Close: %v", err)
	}
}
