package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/google/uuid"
)

// nestedParquet writes a Parquet file (arrow-go's writer, names only, no
// field ids) with struct, list, map and list-of-struct columns, nulls at
// every level.
func nestedParquet(t *testing.T) string {
	t.Helper()
	inner := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true})
	sch := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "S", Type: arrow.StructOf(arrow.Field{Name: "Y", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "deep", Type: arrow.ListOf(inner), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	id := b.Field(0).(*array.Int64Builder)
	s := b.Field(1).(*array.StructBuilder)
	tags := b.Field(2).(*array.ListBuilder)
	m := b.Field(3).(*array.MapBuilder)
	deep := b.Field(4).(*array.ListBuilder)
	// row 1: everything set
	id.Append(1)
	s.Append(true)
	s.FieldBuilder(0).(*array.StringBuilder).Append("y1")
	s.FieldBuilder(1).(*array.Int32Builder).Append(7)
	tags.Append(true)
	tags.ValueBuilder().(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
	m.Append(true)
	m.KeyBuilder().(*array.StringBuilder).Append("k")
	m.ItemBuilder().(*array.Int64Builder).Append(9)
	deep.Append(true)
	d := deep.ValueBuilder().(*array.StructBuilder)
	d.Append(true)
	d.FieldBuilder(0).(*array.Int64Builder).Append(5)
	bl := d.FieldBuilder(1).(*array.ListBuilder)
	bl.Append(true)
	bl.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1, 2}, []bool{true, false})
	// row 2: nulls at every level
	id.Append(2)
	s.Append(true)
	s.FieldBuilder(0).(*array.StringBuilder).AppendNull()
	s.FieldBuilder(1).(*array.Int32Builder).Append(8)
	tags.Append(true)
	tags.ValueBuilder().(*array.StringBuilder).AppendNull()
	m.AppendNull()
	deep.Append(true)
	d.AppendNull()
	// row 3: null columns
	id.Append(3)
	s.AppendNull()
	tags.AppendNull()
	m.Append(true)
	deep.AppendNull()
	return writeParquet(t, b, "nested.parquet")
}

// writeParquet writes the builder's rows as a Parquet file (arrow-go's
// writer) in a temporary directory.
func writeParquet(t *testing.T, b *array.RecordBuilder, name string) string {
	t.Helper()
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCopyNestedParquet loads struct, list and map columns from Parquet
// with \copy (struct fields matched by name, in any order and case).
func TestCopyNestedParquet(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "wh")
	path := nestedParquet(t)
	out, errOut, code := runShell(t, "", "-format", "csv", "-c",
		"CREATE TABLE n (id BIGINT, s STRUCT<x: INT, y: STRING>, tags ARRAY<STRING>, m MAP<STRING, BIGINT>, deep ARRAY<STRUCT<a: BIGINT, b: ARRAY<INT>>>);"+
			" \\copy n FROM '"+path+"'\nSELECT * FROM n ORDER BY id", wh)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := []string{
		`1,"{""x"":7,""y"":""y1""}","[""a"",""b""]","{""k"":9}","[{""a"":5,""b"":[1,null]}]"`,
		`2,"{""x"":8,""y"":null}",[null],,[null]`,
		`3,,,{},`,
	}
	got := strings.Split(strings.TrimSpace(out), "\n")
	if len(got) != 4 || strings.Join(got[1:], "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
}

// TestCopyUUIDParquet loads Parquet's UUID logical type, which arrow-go
// (and so any reader built on it) hands over as the arrow.uuid extension,
// at the top level and inside a list, as DuckDB writes it.
func TestCopyUUIDParquet(t *testing.T) {
	ut := extensions.NewUUIDType()
	sch := arrow.NewSchema([]arrow.Field{
		{Name: "u", Type: ut, Nullable: true},
		{Name: "us", Type: arrow.ListOf(ut), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	u := b.Field(0).(*extensions.UUIDBuilder)
	us := b.Field(1).(*array.ListBuilder)
	first := uuid.MustParse("cfcd2084-95d5-65ef-66e7-dff9f98764da")
	u.Append(first)
	u.AppendNull()
	us.Append(true)
	us.ValueBuilder().(*extensions.UUIDBuilder).Append(first)
	us.AppendNull()
	path := writeParquet(t, b, "uuid.parquet")
	wh := filepath.Join(t.TempDir(), "wh")
	out, errOut, code := runShell(t, "", "-format", "csv", "-c",
		"CREATE TABLE u (u UUID, us ARRAY<UUID>); \\copy u FROM '"+path+"'\nSELECT * FROM u ORDER BY u NULLS LAST", wh)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "u,us\ncfcd2084-95d5-65ef-66e7-dff9f98764da,\"[\"\"cfcd2084-95d5-65ef-66e7-dff9f98764da\"\"]\"\n,"
	if strings.TrimSpace(out) != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", out, want)
	}
}

// TestCopyParquetTimestampNanos: \copy keeps all nine digits of a
// nanosecond timestamp in timestamp_ns and timestamptz_ns columns (from
// Parquet of any unit and from CSV text), and a microsecond column takes
// the instant truncated to microseconds.
func TestCopyParquetTimestampNanos(t *testing.T) {
	sch := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true},
		{Name: "nstz", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "us", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	const nanos = 1704164645123456789 // 2024-01-02 03:04:05.123456789
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	for _, f := range []int{1, 2, 4} {
		b.Field(f).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{nanos, 0}, []bool{true, false})
	}
	b.Field(3).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1704164645500, 0}, []bool{true, false})
	path := writeParquet(t, b, "ns.parquet")
	csv := filepath.Join(t.TempDir(), "ns.csv")
	if err := os.WriteFile(csv, []byte("id,ns,nstz,ms,us\n3,2024-01-02 03:04:05.987654321,2024-01-02 05:04:05.000000001+02:00,2024-01-02 03:04:05,2024-01-02 03:04:05.1234569\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wh := filepath.Join(t.TempDir(), "wh")
	out, errOut, code := runShell(t, "", "-format", "csv", "-c",
		"CREATE TABLE n (id BIGINT, ns TIMESTAMP_NS, nstz TIMESTAMPTZ_NS, ms TIMESTAMP_NS, us TIMESTAMP_NTZ) TBLPROPERTIES ('format-version'='3'); "+
			"\\copy n FROM '"+path+"'\n\\copy n FROM '"+csv+"' WITH (HEADER)\n"+
			"SELECT id, CAST(ns AS STRING), CAST(nstz AS STRING), CAST(ms AS STRING), CAST(us AS STRING) FROM n ORDER BY id", wh)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		"1,2024-01-02 03:04:05.123456789,2024-01-02 03:04:05.123456789,2024-01-02 03:04:05.5,2024-01-02 03:04:05.123456",
		"2,,,,",
		"3,2024-01-02 03:04:05.987654321,2024-01-02 03:04:05.000000001,2024-01-02 03:04:05,2024-01-02 03:04:05.123456",
	}
	if len(lines) != 4 || !slices.Equal(lines[1:], want) {
		t.Fatalf("rows:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
}

// TestCopyGeometry: \copy fills geometry and geography columns from WKT
// or \x-hex WKB text (CSV) and from WKB bytes (Parquet binary), storing
// ISO little-endian WKB; text that is no geometry names the row.
func TestCopyGeometry(t *testing.T) {
	sch := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "g", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "h", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	// POINT (1 2), big-endian WKB: stored little-endian
	be := []byte{0, 0, 0, 0, 1, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0}
	b.Field(1).(*array.BinaryBuilder).AppendValues([][]byte{be, nil}, []bool{true, false})
	b.Field(2).(*array.BinaryBuilder).AppendValues([][]byte{be, nil}, []bool{true, false})
	path := writeParquet(t, b, "geo.parquet")
	dir := t.TempDir()
	csv := filepath.Join(dir, "geo.csv")
	if err := os.WriteFile(csv, []byte("id,g,h\n3,\"LINESTRING (0 0, 10 -5)\",\\x0101000000000000000000f03f0000000000000040\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("id,g,h\n4,POINT (1 2),\n5,CIRCLE (1),\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wh := filepath.Join(dir, "wh")
	out, errOut, code := runShell(t, "", "-format", "csv", "-c",
		"CREATE TABLE geo (id BIGINT, g GEOMETRY, h GEOGRAPHY('OGC:CRS84', 'karney')) TBLPROPERTIES ('format-version'='3'); "+
			"\\copy geo FROM '"+path+"'\n\\copy geo FROM '"+csv+"' WITH (HEADER)\n"+
			"SELECT id, ST_AsText(g), ST_AsText(h), ST_AsBinary(g) AS wkb FROM geo ORDER BY id", wh)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "id,st_astext(g),st_astext(h),wkb\n" +
		"1,POINT (1 2),POINT (1 2),\\x0101000000000000000000f03f0000000000000040\n" +
		"2,,,\n" +
		"3,\"LINESTRING (0 0, 10 -5)\",POINT (1 2),\\x01020000000200000000000000000000000000000000000000000000000000244000000000000014c0"
	if got := strings.TrimSpace(out); got != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	_, errOut, code = runShell(t, "", "-c", "\\copy geo FROM '"+bad+"' WITH (HEADER)", wh)
	if code == 0 || !strings.Contains(errOut, "line 3") || !strings.Contains(errOut, "CIRCLE") {
		t.Fatalf("exit %d, want an error naming line 3 and CIRCLE: %s", code, errOut)
	}
}
