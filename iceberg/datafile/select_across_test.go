package datafile

import (
	"errors"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// TestSelectAcross selects residual columns from a time-travel schema
// and equality delete columns from the current one.
func TestSelectAcross(t *testing.T) {
	st := func(children ...iceberg.NestedField) iceberg.Type {
		return &iceberg.StructType{FieldList: children}
	}
	read := iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}},
		iceberg.NestedField{ID: 2, Name: "old", Type: iceberg.IntType{}}, // dropped since
		iceberg.NestedField{ID: 5, Name: "s", Type: st(iceberg.NestedField{ID: 6, Name: "a", Type: iceberg.IntType{}})},
	)
	table := iceberg.MustSchema(1,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}},
		iceberg.NestedField{ID: 3, Name: "added", Type: iceberg.StringType{}},
		iceberg.NestedField{ID: 5, Name: "s", Type: st(iceberg.NestedField{ID: 6, Name: "a", Type: iceberg.IntType{}},
			iceberg.NestedField{ID: 7, Name: "b", Type: iceberg.IntType{}})},
	)
	for _, tc := range []struct {
		name string
		ids  []int
		top  []int // top-level field ids of the result
		err  bool
	}{
		{"read only", []int{1, 2}, []int{1, 2}, false},
		{"table only", []int{3}, []int{3}, false},
		{"both", []int{2, 3}, []int{2, 3}, false},
		{"nested in read", []int{6, 2}, []int{2, 5}, false},
		{"one struct from both", []int{6, 7}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := selectAcross(read, table, tc.ids)
			if tc.err {
				if !errors.Is(err, iceberg.ErrUnsupported) {
					t.Fatalf("error %v, want ErrUnsupported", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var top []int
			for _, f := range s.Fields() {
				top = append(top, f.ID)
			}
			slices.Sort(top)
			if !slices.Equal(top, tc.top) {
				t.Fatalf("top-level fields %v, want %v", top, tc.top)
			}
			for _, id := range tc.ids {
				if _, ok := s.FindFieldByID(id); !ok {
					t.Errorf("field %d missing", id)
				}
			}
		})
	}
}
