package load

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icesql/icesql/iceberg"
)

var testCols = []Column{
	{"id", iceberg.LongType{}},
	{"name", iceberg.StringType{}},
	{"amount", iceberg.DecimalType{Precision: 10, Scale: 2}},
	{"day", iceberg.DateType{}},
	{"at", iceberg.TimestampType{}},
	{"ok", iceberg.BooleanType{}},
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readAll reads a file and returns its rows as text, one string per row.
func readAll(t *testing.T, path string, opts Options) ([]string, error) {
	t.Helper()
	r, err := Open(path, testCols, opts)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	var out []string
	for r.Next() {
		rec := r.RecordBatch()
		for i := range int(rec.NumRows()) {
			var parts []string
			for c := range testCols {
				parts = append(parts, rec.Column(c).ValueStr(i))
			}
			out = append(out, strings.Join(parts, "|"))
		}
	}
	return out, r.Err()
}

func TestReadGood(t *testing.T) {
	want := []string{
		"1|a|1.5|2024-01-02|2024-01-02T03:04:05.5|true",
		"2|(null)|(null)|(null)|(null)|(null)",
	}
	tests := []struct {
		name, file, content string
		opts                Options
	}{
		{"csv header", "x.csv", "id,name,amount,day,at,ok\n1,a,1.5,2024-01-02,2024-01-02 03:04:05.5,t\n2,,,,,\n", Options{Format: "csv", Header: true}},
		{"csv header reordered", "x.csv", "name,id,ok,at,day,amount\na,1,yes,2024-01-02T03:04:05.500,2024-01-02,1.50\n,2,,,,\n", Options{Format: "csv", Header: true}},
		{"csv partial header", "x.csv", "ID,Name,Amount,Day,At,OK\n1,a,1.5,2024-01-02,2024-01-02 03:04:05.5,1\n2,,,,,\n", Options{Format: "csv", Header: true}},
		{"csv no header semicolons", "x.csv", "1;a;1.5;2024-01-02;2024-01-02 03:04:05.5;true\n2;;;;;\n", Options{Format: "csv", Delimiter: ';'}},
		{"jsonl", "x.jsonl", `{"id":1,"name":"a","amount":1.5,"day":"2024-01-02","at":"2024-01-02 03:04:05.5","ok":true}` + "\n\n" + `{"id":2,"name":null}` + "\n", Options{Format: "jsonl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(t, writeFile(t, tt.file, tt.content), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestReadCSVOptions(t *testing.T) {
	tests := []struct {
		name, content string
		opts          Options
		want          []string
	}{
		{"NULL string", "1,NA,NA,NA,NA,NA\n2,\"NA\",1,2024-01-02,NA,NA\n", Options{Null: "NA"},
			[]string{"1|(null)|(null)|(null)|(null)|(null)", "2|NA|1|2024-01-02|(null)|(null)"}},
		{"quoted empty string is not NULL", "1,\"\",,,,\n2,,,,,\n", Options{},
			[]string{"1||(null)|(null)|(null)|(null)", "2|(null)|(null)|(null)|(null)|(null)"}},
		{"single quote, backslash escape", "1,'a,\\'b\\\\',,,,\n", Options{Quote: '\'', Escape: '\\'},
			[]string{"1|a,'b\\|(null)|(null)|(null)|(null)"}},
		{"doubled quote", "1,\"say \"\"hi\"\"\",,,,\r\n", Options{},
			[]string{"1|say \"hi\"|(null)|(null)|(null)|(null)"}},
		{"blank lines skipped", "\n1,a,,,,\n\n", Options{},
			[]string{"1|a|(null)|(null)|(null)|(null)"}},
		{"no final newline", "1,a,,,,", Options{},
			[]string{"1|a|(null)|(null)|(null)|(null)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Format = "csv"
			got, err := readAll(t, writeFile(t, "x.csv", tt.content), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestReadBatches(t *testing.T) {
	var b strings.Builder
	for i := range 25 {
		b.WriteString(strconv.Itoa(i) + ",n,,,,\n")
	}
	r, err := Open(writeFile(t, "x.csv", b.String()), testCols, Options{Format: "csv", BatchRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	var sizes []int64
	for r.Next() {
		sizes = append(sizes, r.RecordBatch().NumRows())
	}
	if r.Err() != nil || len(sizes) != 3 || sizes[0] != 10 || sizes[2] != 5 || r.Rows() != 25 {
		t.Fatalf("batches %v rows %d err %v", sizes, r.Rows(), r.Err())
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, file, content string
		opts                Options
		line                int64
		column              string
		isValue             bool
	}{
		{"bad int", "x.csv", "id,name\n1,a\nx2,b\n", Options{Format: "csv", Header: true}, 3, "id", true},
		{"bad date", "x.csv", "1,a,1.5,2024-13-01,,\n", Options{Format: "csv"}, 1, "day", true},
		{"too many decimals", "x.csv", "1,a,1.555,,,\n", Options{Format: "csv"}, 1, "amount", true},
		{"bad bool", "x.csv", "1,a,,,,maybe\n", Options{Format: "csv"}, 1, "ok", true},
		{"quoted newline keeps line numbers", "x.csv", "1,\"a\nb\",,,,\n2,c,,,,zz\n", Options{Format: "csv"}, 3, "ok", true},
		{"timestamp with zone in ntz", "x.csv", "1,a,,,2024-01-02T03:04:05Z,\n", Options{Format: "csv"}, 1, "at", true},
		{"field count", "x.csv", "1,a\n", Options{Format: "csv"}, 1, "", false},
		{"unclosed quote names its line", "x.csv", "1,a,,,,\n2,\"b\n\n", Options{Format: "csv"}, 2, "", false},
		{"NULL string set: empty is not NULL", "x.csv", "1,a,,,,\n", Options{Format: "csv", Null: "NA"}, 1, "amount", true},
		{"quoted empty is not NULL", "x.csv", "1,a,\"\",,,\n", Options{Format: "csv"}, 1, "amount", true},
		{"unknown header", "x.csv", "id,nope\n", Options{Format: "csv", Header: true}, 1, "", false},
		{"bare quote", "x.csv", "1,a\"b,,,,\n", Options{Format: "csv"}, 1, "", false},
		{"json wrong type", "x.jsonl", "{\"id\":1}\n{\"id\":\"z\"}\n", Options{Format: "jsonl"}, 2, "id", true},
		{"json bool for int", "x.jsonl", "{\"id\":true}\n", Options{Format: "jsonl"}, 1, "id", true},
		{"json fraction for long", "x.jsonl", "{\"id\":1.5}\n", Options{Format: "jsonl"}, 1, "id", true},
		{"json not object", "x.jsonl", "{\"id\":1}\n[1]\n", Options{Format: "jsonl"}, 2, "", false},
		{"json unknown key", "x.jsonl", "{\"idx\":1}\n", Options{Format: "jsonl"}, 1, "", false},
		{"json trailing", "x.jsonl", "{\"id\":1} {}\n", Options{Format: "jsonl"}, 1, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(t, writeFile(t, tt.file, tt.content), tt.opts)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.isValue {
				var ve *ValueError
				if !errors.As(err, &ve) || !errors.Is(err, ErrBadValue) {
					t.Fatalf("got %v, want a ValueError", err)
				}
				if ve.Line != tt.line || ve.Column != tt.column {
					t.Fatalf("got line %d column %q, want %d %q (%v)", ve.Line, ve.Column, tt.line, tt.column, err)
				}
				if !strings.Contains(err.Error(), "line "+strconv.Itoa(int(tt.line))) {
					t.Fatalf("message %q does not name the line", err)
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) || !errors.Is(err, ErrBadInput) || ie.Line != tt.line {
				t.Fatalf("got %v, want an InputError at line %d", err, tt.line)
			}
		})
	}
}

func TestParquet(t *testing.T) {
	mem := memory.DefaultAllocator
	sch := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "amount", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, sch)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{7, 8}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"p", "q"}, []bool{true, false})
	b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1704164645500, 0}, []bool{true, false})
	b.Field(3).(*array.StringBuilder).AppendValues([]string{"1.5", "oops"}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "x.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(sch, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, path, Options{Format: "parquet"})
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Line != 2 || ve.Column != "amount" || !ve.RowBased {
		t.Fatalf("got %v, want a bad amount at row 2", err)
	}
	if _, err := readAll(t, writeFile(t, "bad.parquet", "not parquet"), Options{Format: "parquet"}); !errors.Is(err, ErrBadInput) {
		t.Fatalf("got %v for a non-Parquet file", err)
	}
}

func TestParquetValues(t *testing.T) {
	mem := memory.DefaultAllocator
	sch := arrow.NewSchema([]arrow.Field{
		{Name: "ID", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, sch)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{7}, nil)
	b.Field(1).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1704164645500}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "x.parquet")
	f, _ := os.Create(path)
	w, err := pqarrow.NewFileWriter(sch, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	w.Write(rec)
	w.Close()
	got, err := readAll(t, path, Options{Format: "parquet"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "7|(null)|(null)|(null)|2024-01-02T03:04:05.5|(null)"; len(got) != 1 || got[0] != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestParseCopy(t *testing.T) {
	tests := []struct {
		in   string
		want Copy
		ok   bool
	}{
		{"t FROM 'a.csv'", Copy{Table: "t", File: "a.csv", Options: Options{Format: "csv", Header: true}}, true},
		{"ns.t from 'a b.parquet'", Copy{Table: "ns.t", File: "a b.parquet", Options: Options{Format: "parquet"}}, true},
		{"`x y`.t FROM 'd.JSONL'", Copy{Table: "`x y`.t", File: "d.JSONL", Options: Options{Format: "jsonl"}}, true},
		{"t FROM 'it''s.txt' WITH (FORMAT csv, HEADER false, DELIMITER '|')", Copy{Table: "t", File: "it's.txt", Options: Options{Format: "csv", Delimiter: '|'}}, true},
		{"t FROM 'a.tsv'", Copy{Table: "t", File: "a.tsv", Options: Options{Format: "csv", Header: true, Delimiter: '\t'}}, true},
		{"t FROM 'a.txt' WITH (FORMAT 'csv', DELIMITER '\\t')", Copy{Table: "t", File: "a.txt", Options: Options{Format: "csv", Header: true, Delimiter: '\t'}}, true},
		{"t FROM 'a.csv' WITH (NULL 'NA', QUOTE '''', ESCAPE '\\')", Copy{Table: "t", File: "a.csv", Options: Options{Format: "csv", Header: true, Null: "NA", Quote: '\'', Escape: '\\'}}, true},
		{"t FROM 'a.csv' WITH (NULL '')", Copy{Table: "t", File: "a.csv", Options: Options{Format: "csv", Header: true}}, true},
		{"t FROM 'a.csv' WITH (NULL NA)", Copy{}, false},
		{"t FROM 'a.csv' WITH (QUOTE '|', DELIMITER '|')", Copy{}, false},
		{"t FROM 'a.csv' WITH (QUOTE ',')", Copy{}, false},
		{"t FROM 'a.jsonl' WITH (NULL 'x')", Copy{}, false},
		{"t FROM 'a.parquet' WITH (QUOTE 'x')", Copy{}, false},
		{"t FROM 'a.txt'", Copy{}, false},
		{"t FROM a.csv", Copy{Table: "t", File: "a.csv", Options: Options{Format: "csv", Header: true}}, true},
		{"t FROM ./dir/a.csv CSV HEADER", Copy{Table: "t", File: "./dir/a.csv", Options: Options{Format: "csv", Header: true}}, true},
		{"t FROM 'a.txt' WITH CSV DELIMITER '|'", Copy{Table: "t", File: "a.txt", Options: Options{Format: "csv", Header: true, Delimiter: '|'}}, true},
		{"t FROM 'a.txt' WITH (FORMAT csv, HEADER)", Copy{Table: "t", File: "a.txt", Options: Options{Format: "csv", Header: true}}, true},
		{"t FROM 'a.csv' (HEADER false)", Copy{Table: "t", File: "a.csv", Options: Options{Format: "csv"}}, true},
		{"t TO 'a.csv'", Copy{Table: "t", To: true, File: "a.csv"}, true},
		{"(SELECT 'a)', \"b(\" FROM t) TO out.parquet", Copy{Query: "SELECT 'a)', \"b(\" FROM t", To: true, File: "out.parquet"}, true},
		{"(SELECT 1) FROM 'a.csv'", Copy{}, false},
		{"(SELECT 1 TO 'a.csv'", Copy{}, false},
		{"t FROM 'a.csv' WITH (HEADER,)", Copy{}, false},
		{"t FROM 'a.csv' DELIMITER", Copy{}, false},
		{"t FROM 'a.csv' WITH (FORMAT xml)", Copy{}, false},
		{"t FROM 'a.csv' WITH (HEADER maybe)", Copy{}, false},
		{"t FROM 'a.csv' WITH (DELIMITER ',,')", Copy{}, false},
		{"t FROM 'a.jsonl' WITH (HEADER true)", Copy{}, false},
		{"t FROM 'a.csv' WITH (NOPE 1)", Copy{}, false},
		{"t FROM 'a.csv' WITH (FORMAT csv", Copy{}, false},
		{"t FROM 'a.csv", Copy{}, false},
		{"", Copy{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseCopy(tt.in)
			if !tt.ok {
				if !errors.Is(err, ErrBadCommand) {
					t.Fatalf("got %+v, %v; want ErrBadCommand", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Raw = nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Fatalf("got %+v want %+v", *got, tt.want)
			}
		})
	}
}

func TestParseType(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want iceberg.Type
	}{
		{"bigint", iceberg.LongType{}}, {"decimal(10, 2)", iceberg.DecimalType{Precision: 10, Scale: 2}},
		{"fixed(4)", iceberg.FixedType{Length: 4}}, {"timestamp", iceberg.TimestampTzType{}},
		{"timestamp_ntz", iceberg.TimestampType{}}, {"STRING", iceberg.StringType{}},
		{"timestamp_ns", iceberg.TimestampNsType{}}, {"timestamptz_ns", iceberg.TimestampTzNsType{}},
		{"geometry", iceberg.GeometryType{}}, {"geometry('srid:3857')", iceberg.GeometryType{CRS: "srid:3857"}},
		{"geography('OGC:CRS84', 'karney')", iceberg.GeographyType{Algorithm: "karney"}},
		{"array<int>", &iceberg.ListType{Element: iceberg.IntType{}}},
		{"map<string, decimal(9, 2)>", &iceberg.MapType{Key: iceberg.StringType{}, Value: iceberg.DecimalType{Precision: 9, Scale: 2}}},
		{"struct<a: int, `b c`: array<struct<x: date>>>", &iceberg.StructType{FieldList: []iceberg.NestedField{
			{Name: "a", Type: iceberg.IntType{}},
			{Name: "b c", Type: &iceberg.ListType{Element: &iceberg.StructType{FieldList: []iceberg.NestedField{{Name: "x", Type: iceberg.DateType{}}}}}},
		}}},
	} {
		got, err := ParseType(tt.in)
		if err != nil || !iceberg.TypesEqual(got, tt.want) {
			t.Errorf("ParseType(%q) = %v, %v", tt.in, got, err)
		}
	}
	for _, bad := range []string{"array<int", "decimal(99, 2)", "struct<a int>", "fixed(0)", "map<int>", "array<nope>", "struct<>", "array<int>>", "struct<`a: int>", "array<decimal(1, 2>", "geometry('a', 'b')", "geography(x"} {
		if _, err := ParseType(bad); !errors.Is(err, ErrUnsupportedType) {
			t.Errorf("ParseType(%q) = %v, want ErrUnsupportedType", bad, err)
		}
	}
}
