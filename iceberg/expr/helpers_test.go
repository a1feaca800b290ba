package expr

import (
	"math"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// testSchema has one column per interesting type.
var testSchema = iceberg.MustSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
	iceberg.NestedField{ID: 2, Name: "n", Type: iceberg.IntType{}},
	iceberg.NestedField{ID: 3, Name: "s", Type: iceberg.StringType{}},
	iceberg.NestedField{ID: 4, Name: "f", Type: iceberg.DoubleType{}},
	iceberg.NestedField{ID: 5, Name: "event_ts", Type: iceberg.TimestampType{}},
	iceberg.NestedField{ID: 6, Name: "d", Type: iceberg.DateType{}},
	iceberg.NestedField{ID: 7, Name: "amount", Type: iceberg.DecimalType{Precision: 9, Scale: 2}},
	iceberg.NestedField{ID: 8, Name: "tags", Type: &iceberg.ListType{ElementID: 9, Element: iceberg.StringType{}}},
	iceberg.NestedField{ID: 10, Name: "loc", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{
		{ID: 11, Name: "city", Type: iceberg.StringType{}},
	}}},
	iceberg.NestedField{ID: 12, Name: "tstz", Type: iceberg.TimestampTzType{}},
)

func mustBind(t *testing.T, e Expr) BoundExpr {
	t.Helper()
	b, err := Bind(testSchema, e, true)
	if err != nil {
		t.Fatalf("Bind(%s): %v", e, err)
	}
	return b
}

func ser(t testing.TB, typ iceberg.Type, v any) []byte {
	t.Helper()
	b, err := iceberg.SerializeValue(typ, v)
	if err != nil {
		t.Fatalf("SerializeValue(%s, %v): %v", typ, v, err)
	}
	return b
}

// fileOf builds a data file whose metrics describe vals for one field, the
// way a writer would (NaN excluded from bounds).
func fileOf(t testing.TB, id int, typ iceberg.Type, vals ...any) *iceberg.DataFile {
	t.Helper()
	f := &iceberg.DataFile{
		RecordCount:     int64(len(vals)),
		ValueCounts:     map[int]int64{id: int64(len(vals))},
		NullValueCounts: map[int]int64{id: 0},
		LowerBounds:     map[int][]byte{},
		UpperBounds:     map[int][]byte{},
	}
	if isFloating(typ) {
		f.NaNValueCounts = map[int]int64{id: 0}
	}
	var lo, hi any
	for _, v := range vals {
		switch {
		case v == nil:
			f.NullValueCounts[id]++
			continue
		case iceberg.IsNaN(v):
			f.NaNValueCounts[id]++
			continue
		}
		if lo == nil || cmp(v, lo) < 0 {
			lo = v
		}
		if hi == nil || cmp(v, hi) > 0 {
			hi = v
		}
	}
	if lo != nil {
		f.LowerBounds[id] = ser(t, typ, lo)
		f.UpperBounds[id] = ser(t, typ, hi)
	}
	return f
}

var nan = math.NaN()
