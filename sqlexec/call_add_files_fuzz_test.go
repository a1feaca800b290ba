package sqlexec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icesql/icesql/iceberg"
)

var importSchema = func() *iceberg.Schema {
	s, err := iceberg.NewSchema(0, []iceberg.NestedField{
		{ID: 1, Name: "id", Type: iceberg.LongType{}},
		{ID: 2, Name: "v", Type: iceberg.StringType{}},
	})
	if err != nil {
		panic(err)
	}
	return s
}()

// plainParquet is a small Parquet file without field ids.
func plainParquet(tb testing.TB) []byte {
	tb.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "v", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{5, -2, 9}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"m", "a", "z"}, []bool{true, true, false})
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(schema, &buf, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func importMapping(path []string) (int, bool) {
	if len(path) == 1 {
		switch path[0] {
		case "id":
			return 1, true
		case "v":
			return 2, true
		}
	}
	return 0, false
}

func TestInspectParquetMetrics(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.parquet")
	if err := os.WriteFile(path, plainParquet(t), 0o644); err != nil {
		t.Fatal(err)
	}
	imp, err := inspectParquet(path, importSchema, importMapping)
	if err != nil {
		t.Fatal(err)
	}
	m := imp.metrics
	if m.RecordCount != 3 || m.ValueCounts[1] != 3 || m.NullValueCounts[2] != 1 {
		t.Fatalf("metrics = %+v", m)
	}
	lo, err := iceberg.DeserializeValue(iceberg.LongType{}, m.LowerBounds[1])
	if err != nil || lo != int64(-2) {
		t.Fatalf("id lower bound = %v (%v), want -2", lo, err)
	}
	hi, err := iceberg.DeserializeValue(iceberg.StringType{}, m.UpperBounds[2])
	if err != nil || hi != "m" {
		t.Fatalf("v upper bound = %v (%v), want m", hi, err)
	}
	if _, err := inspectParquet(path, importSchema, nil); !errors.Is(err, iceberg.ErrInvalidDataFile) {
		t.Fatalf("without a mapping: err = %v, want ErrInvalidDataFile", err)
	}
}

func TestHivePartition(t *testing.T) {
	cols := []string{"day", "region"}
	for _, tc := range []struct {
		rel  string
		want string // day/region values or "error"
	}{
		{"day=2026-01-01/region=eu/f.parquet", "2026-01-01/eu"},
		{"DAY=x/Region=y/f.parquet", "x/y"},
		{"day=1/f.parquet", "error"},
		{"region=eu/day=1/f.parquet", "error"},
		{"day=1/region/f.parquet", "error"},
		{"f.parquet", "error"},
	} {
		t.Run(tc.rel, func(t *testing.T) {
			v, err := hivePartition(tc.rel, cols)
			got := "error"
			if err == nil {
				got = v["day"] + "/" + v["region"]
			}
			if got != tc.want {
				t.Fatalf("hivePartition(%q) = %q (%v), want %q", tc.rel, got, err, tc.want)
			}
		})
	}
}

func TestParsePartitionValue(t *testing.T) {
	for _, tc := range []struct {
		typ  iceberg.Type
		in   string
		want any // nil with ok false: an error
		ok   bool
	}{
		{iceberg.IntType{}, "42", int32(42), true},
		{iceberg.IntType{}, "4294967296", nil, false},
		{iceberg.LongType{}, "-7", int64(-7), true},
		{iceberg.StringType{}, "a b", "a b", true},
		{iceberg.DateType{}, "1970-01-02", iceberg.Date(1), true},
		{iceberg.DateType{}, "yesterday", nil, false},
		{iceberg.BooleanType{}, "true", true, true},
		{iceberg.LongType{}, hiveDefaultPartition, nil, true},
		{iceberg.DoubleType{}, "1.5", nil, false},
	} {
		t.Run(tc.typ.String()+"/"+tc.in, func(t *testing.T) {
			got, err := parsePartitionValue(tc.typ, tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Fatalf("parsePartitionValue(%s, %q) = %v, %v; want %v (ok %v)", tc.typ, tc.in, got, err, tc.want, tc.ok)
			}
		})
	}
}

// FuzzInspectParquet: add_files reads footers of files nobody validated;
// damaged files give an error, never a panic.
func FuzzInspectParquet(f *testing.F) {
	valid := plainParquet(f)
	f.Add(valid)
	f.Add(valid[:len(valid)-9])
	f.Add([]byte("PAR1PAR1"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "f.parquet")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		imp, err := inspectParquet(path, importSchema, importMapping)
		if err == nil && imp.metrics.RecordCount < 0 {
			t.Fatalf("negative record count %d", imp.metrics.RecordCount)
		}
	})
}
