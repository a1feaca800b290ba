package parquetfile

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

func writeFile(t testing.TB, s *iceberg.Schema, opts WriterOptions, recs ...arrow.RecordBatch) ([]byte, Metrics) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), m
}

// readWithPqarrow is the test oracle: arrow-go's own Parquet reader.
func readWithPqarrow(t testing.TB, data []byte) arrow.Table {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// sameValues compares two arrays by value, ignoring field names and
// metadata of nested types.
func sameValues(t *testing.T, name string, want, got arrow.Array) {
	t.Helper()
	// uuid columns are the arrow.uuid extension type (here and in
	// pqarrow); compare their FixedSizeBinary(16) storage
	want, got = arrowschema.Storage(want), arrowschema.Storage(got)
	if want.Len() != got.Len() {
		t.Fatalf("%s: length %d, want %d", name, got.Len(), want.Len())
	}
	for i := 0; i < want.Len(); i++ {
		w, g := want.ValueStr(i), got.ValueStr(i)
		if w != g {
			t.Fatalf("%s row %d: got %s, want %s", name, i, g, w)
		}
	}
}

func TestWriterReadByPqarrow(t *testing.T) {
	s := allTypesSchema()
	rec := randomRecord(s, 5000, 1)
	defer rec.Release()
	data, m := writeFile(t, s, WriterOptions{PageSizeBytes: 4096, RowGroupSizeBytes: 64 << 10}, rec.NewSlice(0, 1), rec.NewSlice(1, 5000))
	tbl := readWithPqarrow(t, data)
	defer tbl.Release()
	if tbl.NumRows() != 5000 {
		t.Fatalf("rows %d", tbl.NumRows())
	}
	for i := 0; i < int(tbl.NumCols()); i++ {
		col := tbl.Column(i)
		id, ok := fieldIDOf(col.Field())
		if !ok || id != s.Fields()[i].ID {
			t.Fatalf("column %d: field id %v %v, want %d", i, id, ok, s.Fields()[i].ID)
		}
		got, err := array.Concatenate(col.Data().Chunks(), memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		sameValues(t, col.Name(), rec.Column(i), got)
		got.Release()
	}
	if m.RecordCount != 5000 || len(m.SplitOffsets) < 2 || m.FileSizeInBytes != int64(len(data)) {
		t.Fatalf("metrics %+v", m)
	}
}
