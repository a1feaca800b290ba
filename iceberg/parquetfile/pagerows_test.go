package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// pagesRowsFile writes n rows of (id long, name string), in batches of
// 7,000 rows so that page cuts fall inside batches.
func pagesRowsFile(t *testing.T, n int, opts WriterOptions) ([]byte, *iceberg.Schema) {
	t.Helper()
	s := iceberg.MustSchema(0, req(1, "id", iceberg.LongType{}), opt(2, "name", iceberg.StringType{}))
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer rb.Release()
	for i := range n {
		rb.Field(0).(*array.Int64Builder).Append(int64(i))
		rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("name-%06d", i))
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	for from := int64(0); from < int64(n); from += 7000 {
		part := rec.NewSlice(from, min(from+7000, int64(n)))
		if err := w.Write(part); err != nil {
			t.Fatal(err)
		}
		part.Release()
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), s
}

// pageValueCounts lists the value counts of each column's data pages, as
// arrow-go's reader sees them.
func pageValueCounts(t *testing.T, data []byte) [][]int64 {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]int64
	for c := range pf.MetaData().Schema.NumColumns() {
		var counts []int64
		for g := range pf.NumRowGroups() {
			pr, err := pf.RowGroup(g).GetColumnPageReader(c)
			if err != nil {
				t.Fatal(err)
			}
			for pr.Next() {
				if p, ok := pr.Page().(file.DataPage); ok {
					counts = append(counts, int64(p.NumValues()))
				}
			}
			if err := pr.Err(); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, counts)
	}
	return out
}

func TestPageRowLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  WriterOptions
		pages []int64
	}{
		{"default: by size only", WriterOptions{}, []int64{50000}},
		{"limit 20000", WriterOptions{PageRowLimit: 20000}, []int64{20000, 20000, 10000}},
		{"limit 15000", WriterOptions{PageRowLimit: 15000}, []int64{15000, 15000, 15000, 5000}},
		{"limit 1", WriterOptions{PageRowLimit: 1}, slices.Repeat([]int64{1}, 50)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 50000
			if tc.opts.PageRowLimit == 1 {
				n = 50
			}
			data, _ := pagesRowsFile(t, n, tc.opts)
			for c, counts := range pageValueCounts(t, data) {
				if !slices.Equal(counts, tc.pages) {
					t.Fatalf("column %d pages hold %v values, want %v", c, counts, tc.pages)
				}
			}
		})
	}
	// The byte size still cuts pages before the row limit.
	data, _ := pagesRowsFile(t, 50000, WriterOptions{PageSizeBytes: 64 << 10, PageRowLimit: 20000})
	for c, counts := range pageValueCounts(t, data) {
		if len(counts) <= 3 || slices.Max(counts) > 20000 {
			t.Fatalf("column %d: pages of %v values with 64 KiB pages", c, counts)
		}
	}
}

// TestBatchesEndOnPages: batches end where the pages end (pages of the
// row limit end on the same rows in every column), so no batch straddles
// a page; and the rows are all there, in order.
func TestBatchesEndOnPages(t *testing.T) {
	data, s := pagesRowsFile(t, 50000, WriterOptions{PageRowLimit: 20000})
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.NewRecordReader(context.Background(), s, ReadOptions{BatchSize: 8192})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	var sizes []int64
	next := int64(0)
	for {
		rec, err := rr.Next()
		if err != nil {
			break
		}
		ids := rec.Column(0).(*array.Int64)
		for i := range ids.Len() {
			if ids.Value(i) != next {
				t.Fatalf("row %d has id %d", next, ids.Value(i))
			}
			if got, want := rec.Column(1).(*array.String).Value(i), fmt.Sprintf("name-%06d", next); got != want {
				t.Fatalf("row %d has name %q, want %q", next, got, want)
			}
			next++
		}
		sizes = append(sizes, rec.NumRows())
		rec.Release()
	}
	want := []int64{8192, 8192, 3616, 8192, 8192, 3616, 8192, 1808}
	if next != 50000 || !slices.Equal(sizes, want) {
		t.Fatalf("read %d rows in batches %v, want 50000 in %v", next, sizes, want)
	}
}

func TestWriterOptionProperties(t *testing.T) {
	o, err := OptionsFromProperties(map[string]string{PropPageRowLimit: "500", PropCompressionLevel: "9", PropDictSizeBytes: "4096"})
	if err != nil || o.PageRowLimit != 500 || o.CompressionLevel != 9 || o.DictSizeBytes != 4096 {
		t.Fatalf("got %+v, %v", o, err)
	}
	for _, props := range []map[string]string{
		{PropPageRowLimit: "0"},
		{PropPageRowLimit: "many"},
		{PropDictSizeBytes: "-1"},
		{PropCompressionLevel: "x"},
	} {
		if _, err := OptionsFromProperties(props); err == nil {
			t.Errorf("%v accepted", props)
		}
	}
	for _, props := range []map[string]string{
		{PropCompressionLevel: "23"},
		{PropCompressionLevel: "10", PropCompressionCodec: "gzip"},
	} {
		if _, err := OptionsFromProperties(props); !errors.Is(err, ErrCompressionLevel) {
			t.Errorf("%v: got %v, want ErrCompressionLevel", props, err)
		}
	}
}

// TestCompressionLevel: the level reaches the encoder (the best level
// writes a smaller file than the default one), and every level's file
// reads back.
func TestCompressionLevel(t *testing.T) {
	sizes := map[int]int{}
	for _, level := range []int{1, 3, 19} {
		data, _ := pagesRowsFile(t, 30000, WriterOptions{CompressionLevel: level})
		sizes[level] = len(data)
		if got := readWithPqarrow(t, data).NumRows(); got != 30000 {
			t.Fatalf("level %d: %d rows read back", level, got)
		}
	}
	if sizes[19] >= sizes[3] || sizes[1] == sizes[3] {
		t.Fatalf("file sizes by level %v: want level 19 smaller than 3, and 1 different", sizes)
	}
}

// TestAllNullDictionaryPage: a page holding only nulls in a
// dictionary-encoded column (pages of the row limit make them common:
// here rows 100-199 are null) reads as nulls, not as the dictionary.
func TestAllNullDictionaryPage(t *testing.T) {
	s, rec := stringColumn(t, 300, func(i int) (string, bool) { return fmt.Sprintf("v%d", i%7), i < 100 || i >= 200 })
	defer rec.Release()
	for _, conc := range []int{0, 1} {
		data, _ := writeFile(t, s, WriterOptions{PageRowLimit: 100}, rec)
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		rr, err := r.NewRecordReader(context.Background(), s, ReadOptions{BatchSize: 64, Concurrency: conc})
		if err != nil {
			t.Fatal(err)
		}
		row := 0
		for {
			got, err := rr.Next()
			if err != nil {
				break
			}
			col := got.Column(0).(*array.String)
			for i := range col.Len() {
				if null := row >= 100 && row < 200; col.IsNull(i) != null || !null && col.Value(i) != fmt.Sprintf("v%d", row%7) {
					t.Fatalf("concurrency %d: row %d = %q (null %v)", conc, row, col.Value(i), col.IsNull(i))
				}
				row++
			}
			got.Release()
		}
		rr.Close()
		if row != 300 {
			t.Fatalf("concurrency %d: read %d rows, want 300", conc, row)
		}
	}
}

// TestDictSizeBytes: a chunk whose dictionary passes DictSizeBytes
// continues in PLAIN pages; under a larger limit it stays dictionary
// encoded. Either way the values read back.
func TestDictSizeBytes(t *testing.T) {
	// 2,000 distinct values of ~100 bytes (a 200 KB dictionary), each
	// seen 40 times, so the dictionary pays by cardinality.
	value := func(i int) string { return fmt.Sprintf("%097d", i%2000) }
	s, rec := stringColumn(t, 80000, func(i int) (string, bool) { return value(i), true })
	defer rec.Release()
	for _, tc := range []struct {
		limit     int
		wantPlain bool
	}{{64 << 10, true}, {1 << 20, false}} {
		data, _ := writeFile(t, s, WriterOptions{DictSizeBytes: tc.limit, PageSizeBytes: 256 << 10}, rec)
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		pr, err := pf.RowGroup(0).GetColumnPageReader(0)
		if err != nil {
			t.Fatal(err)
		}
		plain := false
		for pr.Next() {
			if dp, ok := pr.Page().(file.DataPage); ok && dp.Encoding() == 0 { // PLAIN
				plain = true
			}
		}
		if plain != tc.wantPlain {
			t.Fatalf("limit %d: PLAIN pages %v, want %v", tc.limit, plain, tc.wantPlain)
		}
		got := readWithPqarrow(t, data)
		col := got.Column(0).Data().Chunk(0).(*array.String)
		if got.NumRows() != 80000 || col.Value(0) != value(0) {
			t.Fatalf("limit %d: read %d rows, first %q", tc.limit, got.NumRows(), col.Value(0))
		}
		got.Release()
	}
}

// stringColumn is a record of one optional string column "s" (id 1) of n
// rows: value(i), or null where its second result is false.
func stringColumn(t *testing.T, n int, value func(i int) (string, bool)) (*iceberg.Schema, arrow.RecordBatch) {
	t.Helper()
	s := iceberg.MustSchema(0, opt(1, "s", iceberg.StringType{}))
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer rb.Release()
	for i := range n {
		if v, ok := value(i); ok {
			rb.Field(0).(*array.StringBuilder).Append(v)
		} else {
			rb.Field(0).AppendNull()
		}
	}
	return s, rb.NewRecordBatch()
}
