package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestJoinTableLookup checks heads and chains of the join index in each
// key mode, NULL keys, and probes of another type than the build's
// (compared by encoding, as the map it replaced did).
func TestJoinTableLookup(t *testing.T) {
	mem := memory.NewGoAllocator()
	str := func(vs []string, valid []bool) arrow.Array {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.AppendValues(vs, valid)
		return b.NewArray()
	}
	i64 := func(vs []int64, valid []bool) arrow.Array {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.AppendValues(vs, valid)
		return b.NewArray()
	}
	i32 := func(vs []int32) arrow.Array {
		b := array.NewInt32Builder(mem)
		defer b.Release()
		b.AppendValues(vs, nil)
		return b.NewArray()
	}
	cases := []struct {
		name       string
		build      []arrow.Array
		probe      []arrow.Array
		nullsEqual bool
		// want lists, per probe row, the build rows it matches in order
		want     [][]int32
		wantNull bool // a build row had a NULL key
	}{
		{"string", []arrow.Array{str([]string{"a", "b", "a", "", "a"}, []bool{true, true, true, false, true})},
			[]arrow.Array{str([]string{"a", "c", "", "b"}, []bool{true, true, false, true})}, false,
			[][]int32{{0, 2, 4}, nil, nil, {1}}, true},
		{"int64", []arrow.Array{i64([]int64{7, 8, 7}, nil)},
			[]arrow.Array{i64([]int64{8, 7, 9}, nil)}, false,
			[][]int32{{1}, {0, 2}, nil}, false},
		{"int32 probe of int64 build never matches", []arrow.Array{i64([]int64{7, 8}, nil)},
			[]arrow.Array{i32([]int32{7, 8})}, false,
			[][]int32{nil, nil}, false},
		{"two keys", []arrow.Array{i64([]int64{1, 1, 2}, nil), str([]string{"x", "y", "x"}, nil)},
			[]arrow.Array{i64([]int64{1, 2, 1}, nil), str([]string{"y", "x", "x"}, nil)}, false,
			[][]int32{{1}, {2}, {0}}, false},
		{"nulls equal", []arrow.Array{str([]string{"", "a", ""}, []bool{false, true, false})},
			[]arrow.Array{str([]string{"", "a"}, []bool{false, true})}, true,
			[][]int32{{0, 2}, {1}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer ReleaseArrays(c.probe)
			jt, hasNull := newJoinTable(c.build, c.build[0].Len(), c.nullsEqual)
			defer jt.release()
			if hasNull != c.wantNull {
				t.Fatalf("hasNull = %v, want %v", hasNull, c.wantNull)
			}
			n := c.probe[0].Len()
			heads, null := make([]int32, n), make([]bool, n)
			jt.lookup(c.probe, c.nullsEqual, heads, null, nil)
			for r := range n {
				var got []int32
				for m := heads[r]; m >= 0; m = jt.next[m] {
					got = append(got, m)
				}
				if len(got) != len(c.want[r]) {
					t.Fatalf("row %d matches %v, want %v", r, got, c.want[r])
				}
				for i := range got {
					if got[i] != c.want[r][i] {
						t.Fatalf("row %d matches %v, want %v", r, got, c.want[r])
					}
				}
			}
		})
	}
}
