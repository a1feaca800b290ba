package parquetfile

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestIdentityDictionary wraps arrays with and without NULLs, sliced
// (a non-zero offset into the bitmap) and longer than the first shared
// run, and reads every row back through the dictionary.
func TestIdentityDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tc := range []struct {
		n, from int
		nulls   bool
	}{{0, 0, false}, {5, 0, false}, {1000, 3, true}, {1<<16 + 7, 0, true}, {1<<17 + 1, 9, false}} {
		t.Run(fmt.Sprintf("n=%d/from=%d/nulls=%v", tc.n, tc.from, tc.nulls), func(t *testing.T) {
			b := array.NewStringBuilder(mem)
			for i := range tc.from + tc.n {
				if tc.nulls && i%7 == 2 {
					b.AppendNull()
				} else {
					b.Append(fmt.Sprint("v", i))
				}
			}
			whole := b.NewStringArray()
			b.Release()
			src := array.NewSlice(whole, int64(tc.from), int64(tc.from+tc.n)).(*array.String)
			whole.Release()
			defer src.Release()
			d := IdentityDictionary(mem, src).(*array.Dictionary)
			defer d.Release()
			if d.Len() != tc.n || d.NullN() != src.NullN() {
				t.Fatalf("len %d nulls %d, want %d and %d", d.Len(), d.NullN(), tc.n, src.NullN())
			}
			dict := d.Dictionary().(*array.String)
			for i := range tc.n {
				if d.IsNull(i) != src.IsNull(i) {
					t.Fatalf("row %d: null %v, want %v", i, d.IsNull(i), src.IsNull(i))
				}
				if src.IsValid(i) && dict.Value(d.GetValueIndex(i)) != src.Value(i) {
					t.Fatalf("row %d: %q, want %q", i, dict.Value(d.GetValueIndex(i)), src.Value(i))
				}
			}
		})
	}
}
