package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGatherMatchesTake checks gather against arrow's Take kernel, with
// NULL sources, -1 indexes and sliced (offset) sources.
func TestGatherMatchesTake(t *testing.T) {
	mem := memory.NewGoAllocator()
	strs := func() arrow.Array {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.AppendValues([]string{"a", "", "ccc", "dd", "eeeee", "f"}, []bool{true, true, false, true, true, true})
		return b.NewArray()
	}
	ints := func() arrow.Array {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.AppendValues([]int64{1, -2, 3, 4, 5, 6}, []bool{true, false, true, true, true, true})
		return b.NewArray()
	}
	floats := func() arrow.Array {
		b := array.NewFloat32Builder(mem)
		defer b.Release()
		b.AppendValues([]float32{1.5, 2, 3, 4, 5, 6}, nil)
		return b.NewArray()
	}
	ts := func() arrow.Array {
		b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
		defer b.Release()
		b.AppendValues([]arrow.Timestamp{10, 20, 30, 40, 50, 60}, nil)
		return b.NewArray()
	}
	cases := []struct {
		name  string
		make  func() arrow.Array
		slice bool
		idx   []int32
	}{
		{"string", strs, false, []int32{5, 0, -1, 2, 3, 3, 1}},
		{"string sliced", strs, true, []int32{3, 0, -1, 1, 2}},
		{"int64", ints, false, []int32{1, 0, -1, 5}},
		{"int64 sliced", ints, true, []int32{0, 3, -1}},
		{"float32", floats, false, []int32{2, 2, -1, 0}},
		{"timestamp sliced", ts, true, []int32{3, 1}},
		{"empty", strs, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.make()
			defer src.Release()
			if c.slice {
				s := array.NewSlice(src, 1, 5)
				defer s.Release()
				src = s
			}
			got, ok := gather(mem, src, c.idx)
			if !ok {
				t.Fatal("gather refused the type")
			}
			defer got.Release()
			ib := array.NewInt32Builder(mem)
			for _, i := range c.idx {
				if i < 0 {
					ib.AppendNull()
				} else {
					ib.Append(i)
				}
			}
			ia := ib.NewArray()
			ib.Release()
			defer ia.Release()
			want, err := compute.TakeArray(context.Background(), src, ia)
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			if !array.Equal(got, want) {
				t.Fatalf("gather = %v, take = %v", got, want)
			}
		})
	}
}
