package datafile

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/fileio"
)

const (
	dayMicros = int64(86_400_000_000)
	// day0 is 2024-01-01T00:00:00Z in µs.
	day0 = int64(1704067200) * 1_000_000
)

// testSchema has a required id, strings, a timestamptz, a struct and a
// list, with the ids NewTableMetadata assigns (breadth first).
func testSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		iceberg.NestedField{ID: 2, Name: "category", Type: iceberg.StringType{}},
		iceberg.NestedField{ID: 3, Name: "ts", Type: iceberg.TimestampTzType{}},
		iceberg.NestedField{ID: 4, Name: "point", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{
			{ID: 6, Name: "x", Type: iceberg.DoubleType{}},
			{ID: 7, Name: "y", Type: iceberg.DoubleType{}},
		}}},
		iceberg.NestedField{ID: 5, Name: "tags", Type: &iceberg.ListType{ElementID: 8, Element: iceberg.StringType{}}},
	)
}

type testTable struct {
	meta *iceberg.TableMetadata
	fio  *fileio.Local
	loc  string
}

func newTestTable(t testing.TB, schema *iceberg.Schema, spec *iceberg.PartitionSpec, props map[string]string) testTable {
	t.Helper()
	loc, err := fileio.LocalURI(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	meta, err := iceberg.NewTableMetadata(schema, spec, nil, loc, props)
	if err != nil {
		t.Fatal(err)
	}
	return testTable{meta: meta, fio: &fileio.Local{NoSync: true}, loc: loc}
}

// testRows builds n rows of testSchema: id = start+i, category cycles
// through cats, ts advances by hours from day0, point (i%5, -i), tags.
func testRows(t testing.TB, schema *iceberg.Schema, start, n int, cats []string) arrow.RecordBatch {
	t.Helper()
	as, err := arrowschema.ToArrow(schema)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	for i := start; i < start+n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if c := cats[i%len(cats)]; c == "" {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(c)
		}
		b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(day0 + int64(i)*3_600_000_000))
		sb := b.Field(3).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Float64Builder).Append(float64(i % 5))
		sb.FieldBuilder(1).(*array.Float64Builder).Append(float64(-i))
		lb := b.Field(4).(*array.ListBuilder)
		lb.Append(true)
		for k := 0; k < i%3; k++ {
			lb.ValueBuilder().(*array.StringBuilder).Append("t" + string(rune('a'+k)))
		}
	}
	return b.NewRecordBatch()
}

// readFileOracle reads a whole data file with arrow-go's own reader.
func readFileOracle(t testing.TB, fio fileio.FileIO, loc string) arrow.Table {
	t.Helper()
	in, err := fio.Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	data, err := io.ReadAll(io.NewSectionReader(in, 0, in.Size()))
	if err != nil {
		t.Fatal(err)
	}
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

// listFiles lists every file below the table location.
func listFiles(t testing.TB, tt testTable) []string {
	t.Helper()
	var out []string
	for fi, err := range tt.fio.List(context.Background(), tt.loc) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fi.Location)
	}
	return out
}

func writeAll(t testing.TB, tt testTable, opts WriterOptions, recs ...arrow.RecordBatch) []iceberg.DataFile {
	t.Helper()
	ctx := context.Background()
	w := NewWriter(ctx, tt.fio, tt.meta, opts)
	for _, r := range recs {
		if err := w.Write(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	files, err := w.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return files
}
