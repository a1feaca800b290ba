package sqlexec

import (
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

// Which data file metrics answer an aggregate: a missing count or bound,
// a NaN in a float column, an unreadable bound or an out-of-range null
// count make the aggregate fall back to a scan.
func TestMetadataAggStateAdd(t *testing.T) {
	long := func(v int64) []byte {
		b, err := iceberg.SerializeValue(iceberg.LongType{}, v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	dbl := func(v float64) []byte {
		b, err := iceberg.SerializeValue(iceberg.DoubleType{}, v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	optLong := iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}}
	reqLong := iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}, Required: true}
	optDouble := iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.DoubleType{}}
	m := func(k int, v int64) map[int]int64 { return map[int]int64{k: v} }
	b := func(k int, v []byte) map[int][]byte { return map[int][]byte{k: v} }
	tests := []struct {
		name   string
		fn     exec.AggFunc
		field  iceberg.NestedField
		files  []iceberg.DataFile
		ok     bool
		result any
	}{
		{"count star", exec.AggCountStar, iceberg.NestedField{}, []iceberg.DataFile{{RecordCount: 3}, {RecordCount: 4}}, true, int64(7)},
		{"count minus nulls", exec.AggCount, optLong, []iceberg.DataFile{{RecordCount: 3, NullValueCounts: m(1, 1)}, {RecordCount: 4, NullValueCounts: m(1, 0)}}, true, int64(6)},
		{"count without null count", exec.AggCount, optLong, []iceberg.DataFile{{RecordCount: 3}}, false, nil},
		{"count of required without null count", exec.AggCount, reqLong, []iceberg.DataFile{{RecordCount: 3}}, true, int64(3)},
		{"null count above records", exec.AggCount, optLong, []iceberg.DataFile{{RecordCount: 3, NullValueCounts: m(1, 4)}}, false, nil},
		{"min over files", exec.AggMin, optLong, []iceberg.DataFile{
			{RecordCount: 2, NullValueCounts: m(1, 0), LowerBounds: b(1, long(5))},
			{RecordCount: 2, NullValueCounts: m(1, 0), LowerBounds: b(1, long(-3))}}, true, int64(-3)},
		{"max over files", exec.AggMax, optLong, []iceberg.DataFile{
			{RecordCount: 2, UpperBounds: b(1, long(5))},
			{RecordCount: 2, UpperBounds: b(1, long(-3))}}, true, int64(5)},
		{"all-null file without bounds", exec.AggMin, optLong, []iceberg.DataFile{
			{RecordCount: 2, NullValueCounts: m(1, 2)},
			{RecordCount: 1, NullValueCounts: m(1, 0), LowerBounds: b(1, long(9))}}, true, int64(9)},
		{"only all-null files", exec.AggMax, optLong, []iceberg.DataFile{{RecordCount: 2, NullValueCounts: m(1, 2)}}, true, nil},
		{"file without bounds or null count", exec.AggMin, optLong, []iceberg.DataFile{{RecordCount: 2}}, false, nil},
		{"file with values but no bound", exec.AggMin, optLong, []iceberg.DataFile{{RecordCount: 2, NullValueCounts: m(1, 1)}}, false, nil},
		{"bound of a promoted int", exec.AggMin, optLong, []iceberg.DataFile{{RecordCount: 1, LowerBounds: b(1, []byte{7, 0, 0, 0})}}, true, int64(7)},
		{"unreadable bound", exec.AggMin, optLong, []iceberg.DataFile{{RecordCount: 1, LowerBounds: b(1, []byte{7, 0})}}, false, nil},
		{"double without NaN", exec.AggMax, optDouble, []iceberg.DataFile{{RecordCount: 1, NaNValueCounts: m(1, 0), UpperBounds: b(1, dbl(2.5))}}, true, 2.5},
		{"double with NaN", exec.AggMax, optDouble, []iceberg.DataFile{{RecordCount: 2, NaNValueCounts: m(1, 1), UpperBounds: b(1, dbl(2.5))}}, false, nil},
		{"double without NaN count", exec.AggMin, optDouble, []iceberg.DataFile{{RecordCount: 1, LowerBounds: b(1, dbl(2.5))}}, false, nil},
		{"empty file", exec.AggMin, optDouble, []iceberg.DataFile{{RecordCount: 0}}, true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := metaAggState{agg: planner.MetadataAgg{Func: tc.fn, Column: 0}, field: tc.field}
			ok := true
			for _, f := range tc.files {
				ok = ok && st.add(f)
			}
			if ok != tc.ok {
				t.Fatalf("answered %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			got, ok := st.result()
			if !ok || got != tc.result {
				t.Errorf("result %v (%T, %v), want %v (%T)", got, got, ok, tc.result, tc.result)
			}
		})
	}
}
