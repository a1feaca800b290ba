package interop

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go/catalog"
	gotable "github.com/apache/iceberg-go/table"
	"github.com/icesql/icesql/iceberg/fileio"
)

// goIdent is the iceberg-go identifier of namespace levels plus name.
func goIdent(ns []string, name string) gotable.Identifier {
	return append(append(gotable.Identifier{}, ns...), name)
}

func goLoad(tb testing.TB, cat catalog.Catalog, ident gotable.Identifier) *gotable.Table {
	tb.Helper()
	t, err := cat.LoadTable(context.Background(), ident)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// goRows reads the table's current rows with iceberg-go's scan, rendered
// and sorted.
func goRows(tb testing.TB, t *gotable.Table) []string {
	tb.Helper()
	tbl, err := t.Scan().ToArrowTable(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	defer tbl.Release()
	var rows []string
	forEachRecord(tbl, func(rec arrow.RecordBatch) { rows = append(rows, renderRecord(rec)...) })
	return sortRows(rows)
}

func forEachRecord(tbl arrow.Table, fn func(arrow.RecordBatch)) {
	rdr := array.NewTableReader(tbl, 0)
	defer rdr.Release()
	for rdr.Next() {
		fn(rdr.RecordBatch())
	}
}

// recordReader presents records as an array.RecordReader for
// iceberg-go's Append.
func recordReader(tb testing.TB, recs ...arrow.RecordBatch) array.RecordReader {
	tb.Helper()
	rdr, err := array.NewRecordReader(recs[0].Schema(), recs)
	if err != nil {
		tb.Fatal(err)
	}
	return rdr
}

// readStringColumn reads one string column of a local Parquet file with
// arrow-go's reader.
func readStringColumn(tb testing.TB, location, column string) []string {
	tb.Helper()
	path, err := fileio.LocalPath(location)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		tb.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	defer tbl.Release()
	var out []string
	forEachRecord(tbl, func(rec arrow.RecordBatch) {
		col, ok := rec.Column(fieldIndex(rec, column)).(*array.String)
		if !ok {
			tb.Fatalf("%s: column %s is %v, not string", location, column, rec.Column(fieldIndex(rec, column)).DataType())
		}
		for i := range col.Len() {
			out = append(out, col.Value(i))
		}
	})
	return out
}
