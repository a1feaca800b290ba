package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

func smallRecord(t *testing.T, s *iceberg.Schema, cols ...func(b array.Builder)) arrow.RecordBatch {
	t.Helper()
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer rb.Release()
	for i, f := range cols {
		f(rb.Field(i))
	}
	return rb.NewRecordBatch()
}

func TestProjectionByID(t *testing.T) {
	file := iceberg.MustSchema(0,
		req(1, "a", iceberg.IntType{}),
		opt(2, "f", iceberg.FloatType{}),
		opt(3, "d", iceberg.DecimalType{Precision: 5, Scale: 2}),
	)
	rec := smallRecord(t, file,
		func(b array.Builder) { b.(*array.Int32Builder).AppendValues([]int32{1, 2, 3}, nil) },
		func(b array.Builder) {
			b.(*array.Float32Builder).AppendValues([]float32{1.5, 0, 2}, []bool{true, false, true})
		},
		func(b array.Builder) {
			b.(*array.Decimal128Builder).AppendValues(nil, nil)
			b.(*array.Decimal128Builder).AppendNull()
			b.(*array.Decimal128Builder).Append(arrowDec(12345))
			b.(*array.Decimal128Builder).Append(arrowDec(-1))
		},
	)
	defer rec.Release()
	data, _ := writeFile(t, file, WriterOptions{}, rec)
	// Table after evolution: reordered, renamed, promoted, and a new field.
	table := iceberg.MustSchema(1,
		opt(3, "d_wide", iceberg.DecimalType{Precision: 20, Scale: 2}),
		opt(9, "added", iceberg.StringType{}),
		iceberg.NestedField{ID: 10, Name: "with_default", Type: iceberg.LongType{}, InitialDefault: int64(42)},
		req(1, "a_renamed", iceberg.LongType{}),
		opt(2, "f", iceberg.DoubleType{}),
	)
	tbl := readAll(t, data, table, ReadOptions{})
	defer tbl.Release()
	want := []string{
		"[(null) 123.45 -0.01]",
		"[(null) (null) (null)]",
		"[42 42 42]",
		"[1 2 3]",
		"[1.5 (null) 2]",
	}
	for i, w := range want {
		got := column(t, tbl, i)
		if got.String() != w {
			t.Errorf("column %s = %s, want %s", table.Fields()[i].Name, got, w)
		}
		got.Release()
	}
	// A required field that is missing and has no default is an error.
	r, _ := Open(bytes.NewReader(data), int64(len(data)))
	_, err := r.NewRecordReader(context.Background(), iceberg.MustSchema(1, req(77, "x", iceberg.IntType{})), ReadOptions{})
	if !errors.Is(err, iceberg.ErrInvalidDataFile) {
		t.Fatalf("missing required: %v", err)
	}
	// An incompatible type is an error.
	_, err = r.NewRecordReader(context.Background(), iceberg.MustSchema(1, req(1, "a", iceberg.StringType{})), ReadOptions{})
	if !errors.Is(err, iceberg.ErrTypeMismatch) {
		t.Fatalf("type mismatch: %v", err)
	}
}

func arrowDec(v int64) decimalNum { return decimalFromInt(v) }

func TestMetrics(t *testing.T) {
	s := iceberg.MustSchema(0,
		opt(1, "s", iceberg.StringType{}),
		opt(2, "d", iceberg.DoubleType{}),
		opt(3, "l", &iceberg.ListType{ElementID: 4, Element: iceberg.IntType{}}),
		opt(5, "st", &iceberg.StructType{FieldList: []iceberg.NestedField{opt(6, "x", iceberg.LongType{})}}),
	)
	long := "abcdefghijklmnopqrstuvwxyz"
	rec := smallRecord(t, s,
		func(b array.Builder) {
			b.(*array.StringBuilder).AppendValues([]string{"b", long, "", "zz"}, []bool{true, true, false, true})
		},
		func(b array.Builder) {
			b.(*array.Float64Builder).AppendValues([]float64{math.NaN(), -2.5, 0, math.Copysign(0, -1)}, nil)
		},
		func(b array.Builder) {
			lb := b.(*array.ListBuilder)
			vb := lb.ValueBuilder().(*array.Int32Builder)
			lb.Append(true)
			vb.AppendValues([]int32{1, 2}, nil)
			lb.AppendNull()
			lb.Append(true)
			lb.Append(true)
			vb.AppendNull()
		},
		func(b array.Builder) {
			sb := b.(*array.StructBuilder)
			xb := sb.FieldBuilder(0).(*array.Int64Builder)
			sb.Append(true)
			xb.Append(7)
			sb.AppendNull()
			xb.AppendNull()
			sb.Append(true)
			xb.Append(-3)
			sb.Append(true)
			xb.AppendNull()
		},
	)
	defer rec.Release()
	_, m := writeFile(t, s, WriterOptions{}, rec)
	checks := []struct {
		name      string
		got, want any
	}{
		{"record count", m.RecordCount, int64(4)},
		{"value count s", m.ValueCounts[1], int64(4)},
		{"null count s", m.NullValueCounts[1], int64(1)},
		{"nan count d", m.NaNValueCounts[2], int64(1)},
		{"value count list element", m.ValueCounts[4], int64(5)}, // 2 values, null list, empty list, null element
		{"null count list element", m.NullValueCounts[4], int64(3)},
		{"null count struct child", m.NullValueCounts[6], int64(2)},
		{"lower s", string(m.LowerBounds[1]), long[:16]},
		{"upper s", string(m.UpperBounds[1]), "zz"},
		{"lower d", m.LowerBounds[2], mustSer(t, iceberg.DoubleType{}, -2.5)},
		{"upper d", m.UpperBounds[2], mustSer(t, iceberg.DoubleType{}, 0.0)},
		{"lower x", m.LowerBounds[6], mustSer(t, iceberg.LongType{}, int64(-3))},
		{"upper x", m.UpperBounds[6], mustSer(t, iceberg.LongType{}, int64(7))},
		{"no bounds in lists", m.LowerBounds[4] == nil && m.UpperBounds[4] == nil, true},
		{"no nan count for non-float", len(m.NaNValueCounts), 1},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if !equalAny(c.got, c.want) {
				t.Fatalf("got %v, want %v", c.got, c.want)
			}
		})
	}
	if m.ColumnSizes[1] <= 0 || m.ColumnSizes[4] <= 0 {
		t.Fatalf("column sizes %v", m.ColumnSizes)
	}
	// Upper bound of a truncated string is incremented past the prefix.
	_, m2 := writeFile(t, iceberg.MustSchema(0, opt(1, "s", iceberg.StringType{})), WriterOptions{},
		smallRecord(t, iceberg.MustSchema(0, opt(1, "s", iceberg.StringType{})), func(b array.Builder) {
			b.(*array.StringBuilder).Append(long)
		}))
	if got := string(m2.UpperBounds[1]); got != "abcdefghijklmnoq" {
		t.Fatalf("truncated upper bound %q", got)
	}
}

func mustSer(t *testing.T, typ iceberg.Type, v any) []byte {
	b, err := iceberg.SerializeValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func equalAny(a, b any) bool {
	if ab, ok := a.([]byte); ok {
		bb, ok := b.([]byte)
		return ok && bytes.Equal(ab, bb)
	}
	return a == b
}
