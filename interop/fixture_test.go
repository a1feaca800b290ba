package interop

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// kv is one map entry; a map value is a []kv so entry order is kept.
type kv struct {
	k, v any
}

// appendAny appends a Go value to a builder: primitives in the Iceberg Go
// value form, []any for structs (one per field) and lists, []kv for maps.
func appendAny(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch b := b.(type) {
	case *array.StructBuilder:
		fields, ok := v.([]any)
		if !ok || len(fields) != b.NumField() {
			return fmt.Errorf("struct value %v for %v", v, b.Type())
		}
		b.Append(true)
		for i, f := range fields {
			if err := appendAny(b.FieldBuilder(i), f); err != nil {
				return err
			}
		}
		return nil
	case *array.MapBuilder: // before ListBuilder's interface: a map is a list
		entries, ok := v.([]kv)
		if !ok {
			return fmt.Errorf("map value %v for %v", v, b.Type())
		}
		b.Append(true)
		for _, e := range entries {
			if err := appendAny(b.KeyBuilder(), e.k); err != nil {
				return err
			}
			if err := appendAny(b.ItemBuilder(), e.v); err != nil {
				return err
			}
		}
		return nil
	case array.ListLikeBuilder:
		elems, ok := v.([]any)
		if !ok {
			return fmt.Errorf("list value %v for %v", v, b.Type())
		}
		b.Append(true)
		for _, e := range elems {
			if err := appendAny(b.ValueBuilder(), e); err != nil {
				return err
			}
		}
		return nil
	}
	return arrowschema.AppendValue(b, v)
}

// buildRecord builds one record of the given Arrow schema from rows.
func buildRecord(tb testing.TB, sc *arrow.Schema, rows [][]any) arrow.RecordBatch {
	tb.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for r, row := range rows {
		for c, v := range row {
			if err := appendAny(b.Field(c), v); err != nil {
				tb.Fatalf("row %d column %s: %v", r, sc.Field(c).Name, err)
			}
		}
	}
	return b.NewRecordBatch()
}

// arrowOf converts an icesql schema to the Arrow schema its writer takes.
func arrowOf(tb testing.TB, s *iceberg.Schema) *arrow.Schema {
	tb.Helper()
	sc, err := arrowschema.ToArrow(s)
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// nestedSchema is the table of the icesql-writes test: every primitive
// family the engines share plus a struct, a list and a map, all nullable
// down to list elements and map values. Ids are reassigned by table.Create.
func nestedSchema(tb testing.TB) *iceberg.Schema {
	tb.Helper()
	s, err := iceberg.NewSchema(0, []iceberg.NestedField{
		{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		{ID: 2, Name: "category", Type: iceberg.StringType{}},
		{ID: 3, Name: "ts", Type: iceberg.TimestampTzType{}},
		{ID: 4, Name: "amount", Type: iceberg.DoubleType{}},
		{ID: 5, Name: "price", Type: iceberg.DecimalType{Precision: 9, Scale: 2}},
		{ID: 6, Name: "day", Type: iceberg.DateType{}},
		{ID: 7, Name: "flag", Type: iceberg.BooleanType{}},
		{ID: 8, Name: "payload", Type: iceberg.BinaryType{}},
		{ID: 9, Name: "local_ts", Type: iceberg.TimestampType{}},
		{ID: 10, Name: "small", Type: iceberg.IntType{}},
		{ID: 11, Name: "ratio", Type: iceberg.FloatType{}},
		{ID: 12, Name: "info", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{
			{ID: 13, Name: "a", Type: iceberg.IntType{}},
			{ID: 14, Name: "b", Type: iceberg.StringType{}},
		}}},
		{ID: 15, Name: "tags", Type: &iceberg.ListType{ElementID: 16, Element: iceberg.StringType{}}},
		{ID: 17, Name: "attrs", Type: &iceberg.MapType{KeyID: 18, Key: iceberg.StringType{}, ValueID: 19, Value: iceberg.LongType{}}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

var fixtureEpoch = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)

// nestedRow is row i of the nested fixture: nulls at every level, empty
// lists and maps, NaN and negative values, a null partition source.
func nestedRow(i int) []any {
	orNil := func(null bool, v any) any {
		if null {
			return nil
		}
		return v
	}
	ts := iceberg.Timestamp(fixtureEpoch.Add(time.Duration(i) * 53 * time.Minute).UnixMicro())
	cats := []any{"alpha", "beta", "gamma", nil, "délta"}
	var info any = []any{orNil(i%5 == 0, int32(i)), fmt.Sprintf("s%d", i)}
	if i%11 == 0 {
		info = nil
	}
	var tags any
	switch {
	case i%13 == 0:
		tags = nil
	case i%7 == 3:
		tags = []any{}
	default:
		tags = []any{fmt.Sprintf("t%d", i), orNil(i%3 == 0, "mid"), "x"}
	}
	var attrs any
	switch {
	case i%9 == 0:
		attrs = nil
	case i%9 == 4:
		attrs = []kv{}
	default:
		attrs = []kv{{"k1", int64(i)}, {"k2", orNil(i%2 == 0, int64(-i))}}
	}
	var ratio any = float32(i) / 8
	if i%29 == 1 {
		ratio = float32(math.NaN())
	}
	return []any{
		int64(i),
		cats[i%len(cats)],
		orNil(i%17 == 5, ts),
		orNil(i%19 == 2, float64(i)*1.25-100),
		orNil(i%23 == 7, iceberg.Decimal{Unscaled: decimal128.FromI64(int64(i*101 - 5000)), Scale: 2}),
		orNil(i%31 == 4, iceberg.Date(19700+i/10)),
		orNil(i%6 == 1, i%2 == 0),
		orNil(i%8 == 2, []byte{byte(i), byte(i >> 8), 0xff}),
		orNil(i%10 == 3, iceberg.Timestamp(int64(i)*3_600_000_001)),
		orNil(i%12 == 6, int32(-i)),
		ratio,
		info,
		tags,
		attrs,
	}
}

func nestedRows(from, to int) [][]any {
	rows := make([][]any, 0, to-from)
	for i := from; i < to; i++ {
		rows = append(rows, nestedRow(i))
	}
	return rows
}
