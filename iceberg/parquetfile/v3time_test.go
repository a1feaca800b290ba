package parquetfile

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

func nanoSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "ts", Type: iceberg.TimestampNsType{}},
		iceberg.NestedField{ID: 2, Name: "tz", Type: iceberg.TimestampTzNsType{}, Required: true},
	)
}

func nanoRecord(t *testing.T, s *iceberg.Schema, ts []any, tz []int64) arrow.RecordBatch {
	t.Helper()
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	for _, v := range ts {
		if err := arrowschema.AppendValue(b.Field(0), v); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range tz {
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(v))
	}
	return b.NewRecordBatch()
}

// Nanosecond timestamps are written as TIMESTAMP(NANOS) with exact bounds
// and read back, by this reader and by pqarrow, to the nanosecond.
func TestNanoTimestampRoundTrip(t *testing.T) {
	s := nanoSchema()
	ts := []any{iceberg.TimestampNano(1767225600123456789), nil, iceberg.TimestampNano(-1)}
	tz := []int64{5, 1767225600000000001, -999}
	rec := nanoRecord(t, s, ts, tz)
	defer rec.Release()
	data, m := writeFile(t, s, WriterOptions{}, rec)

	bounds := []struct {
		id     int
		lo, hi iceberg.TimestampNano
	}{{1, -1, 1767225600123456789}, {2, -999, 1767225600000000001}}
	for _, b := range bounds {
		lo, err1 := iceberg.DeserializeValue(iceberg.TimestampNsType{}, m.LowerBounds[b.id])
		hi, err2 := iceberg.DeserializeValue(iceberg.TimestampNsType{}, m.UpperBounds[b.id])
		if err1 != nil || err2 != nil || lo != b.lo || hi != b.hi {
			t.Fatalf("column %d bounds %v..%v (%v %v), want %v..%v", b.id, lo, hi, err1, err2, b.lo, b.hi)
		}
	}
	if m.NullValueCounts[1] != 1 {
		t.Fatalf("null count %d", m.NullValueCounts[1])
	}

	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	fileSchema, err := r.Schema(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !fileSchema.Equals(s) {
		t.Fatalf("file schema %v, want %v", fileSchema, s)
	}

	t.Run("reader", func(t *testing.T) {
		tbl := readAll(t, data, s, ReadOptions{})
		defer tbl.Release()
		for i := range s.Fields() {
			got := column(t, tbl, i)
			defer got.Release()
			if !arrow.TypeEqual(got.DataType(), rec.Column(i).DataType()) || !array.Equal(got, rec.Column(i)) {
				t.Fatalf("column %d: %v, want %v", i, got, rec.Column(i))
			}
		}
	})
	t.Run("pqarrow", func(t *testing.T) {
		tbl := readWithPqarrow(t, data)
		defer tbl.Release()
		for i := range s.Fields() {
			got := column(t, tbl, i)
			defer got.Release()
			gt, ok := got.DataType().(*arrow.TimestampType)
			if !ok || gt.Unit != arrow.Nanosecond {
				t.Fatalf("column %d type %v", i, got.DataType())
			}
			sameValues(t, s.Fields()[i].Name, rec.Column(i), got)
		}
	})
	t.Run("as micro timestamps", func(t *testing.T) {
		// a nanosecond file read for a microsecond column is scaled down
		micro := iceberg.MustSchema(0, iceberg.NestedField{ID: 2, Name: "tz", Type: iceberg.TimestampTzType{}, Required: true})
		tbl := readAll(t, data, micro, ReadOptions{})
		defer tbl.Release()
		got := column(t, tbl, 0).(*array.Timestamp)
		defer got.Release()
		if got.Value(1) != 1767225600000000 {
			t.Fatalf("scaled value %d", got.Value(1))
		}
	})
}

// A microsecond file read for a nanosecond column is scaled up.
func TestMicroFileAsNanoColumn(t *testing.T) {
	micro := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "ts", Type: iceberg.TimestampType{}, Required: true})
	as, _ := arrowschema.ToArrow(micro)
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	b.Field(0).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-2, 7}, nil)
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	data, _ := writeFile(t, micro, WriterOptions{}, rec)
	nano := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "ts", Type: iceberg.TimestampNsType{}, Required: true})
	tbl := readAll(t, data, nano, ReadOptions{})
	defer tbl.Release()
	got := column(t, tbl, 0).(*array.Timestamp)
	defer got.Release()
	if got.Value(0) != -2000 || got.Value(1) != 7000 || got.DataType().(*arrow.TimestampType).Unit != arrow.Nanosecond {
		t.Fatalf("got %v", got)
	}
}
