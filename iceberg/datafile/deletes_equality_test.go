package datafile

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// TestAppendKeyMatchesValueEncoding checks the direct Arrow key encoding
// against encoding the boxed Go value, nulls included.
func TestAppendKeyMatchesValueEncoding(t *testing.T) {
	mem := memory.DefaultAllocator
	tests := []struct {
		name  string
		typ   iceberg.Type
		build func() arrow.Array
	}{
		{"long", iceberg.LongType{}, func() arrow.Array {
			b := array.NewInt64Builder(mem)
			b.AppendValues([]int64{0, -1, 1 << 50}, []bool{true, false, true})
			return b.NewArray()
		}},
		{"int", iceberg.IntType{}, func() arrow.Array {
			b := array.NewInt32Builder(mem)
			b.AppendValues([]int32{0, -7, 1 << 30}, []bool{true, true, false})
			return b.NewArray()
		}},
		{"string", iceberg.StringType{}, func() arrow.Array {
			b := array.NewStringBuilder(mem)
			b.AppendValues([]string{"", "ab", "\x00c"}, []bool{true, true, false})
			return b.NewArray()
		}},
		{"date (generic path)", iceberg.DateType{}, func() arrow.Array {
			b := array.NewDate32Builder(mem)
			b.AppendValues([]arrow.Date32{1, -3, 0}, []bool{true, false, true})
			return b.NewArray()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.build()
			defer a.Release()
			c := colRef{leaf: a, typ: tc.typ}
			for i := 0; i < a.Len(); i++ {
				got, err := c.appendKey([]byte{9}, i)
				if err != nil {
					t.Fatal(err)
				}
				v, err := arrowschema.ValueAt(a, i, tc.typ)
				if err != nil {
					t.Fatal(err)
				}
				if want := appendValue([]byte{9}, v); !bytes.Equal(got, want) {
					t.Errorf("row %d: key %x, want %x", i, got, want)
				}
			}
		})
	}
}
