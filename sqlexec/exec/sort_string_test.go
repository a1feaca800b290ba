package exec

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A sort whose first key is a string (sortByString) orders rows exactly
// as the reference: each direction and NULL placement of that key, a
// second key breaking its ties (with NULLs of its own), and input
// position breaking the rest (the sort is stable).
func TestSortStringFirstKeyMatchesReference(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "pos", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	type row struct {
		s   *string
		n   *int64
		pos int64
	}
	rng := rand.New(rand.NewPCG(7, 11))
	var rows []row
	sb, nb, pb := array.NewStringBuilder(mem), array.NewInt64Builder(mem), array.NewInt64Builder(mem)
	for i := range 5000 {
		r := row{pos: int64(i)}
		if rng.IntN(10) > 0 {
			v := fmt.Sprintf("k%d", rng.IntN(300)) // ties, and "" sorts first
			if rng.IntN(50) == 0 {
				v = ""
			}
			r.s = &v
			sb.Append(v)
		} else {
			sb.AppendNull()
		}
		if rng.IntN(8) > 0 {
			v := int64(rng.IntN(5))
			r.n = &v
			nb.Append(v)
		} else {
			nb.AppendNull()
		}
		pb.Append(int64(i))
		rows = append(rows, r)
	}
	cols := []arrow.Array{sb.NewArray(), nb.NewArray(), pb.NewArray()}
	sb.Release()
	nb.Release()
	pb.Release()
	rec := array.NewRecordBatch(schema, cols, int64(len(rows)))
	ReleaseArrays(cols)
	defer rec.Release()

	nullsCmp := func(an, bn, first bool) (int, bool) {
		switch {
		case an && bn:
			return 0, true
		case an:
			return map[bool]int{true: -1, false: 1}[first], true
		case bn:
			return map[bool]int{true: 1, false: -1}[first], true
		}
		return 0, false
	}
	for _, second := range []bool{false, true} {
		for _, desc := range []bool{false, true} {
			for _, nullsFirst := range []bool{false, true} {
				t.Run(fmt.Sprintf("second=%v/desc=%v/nullsFirst=%v", second, desc, nullsFirst), func(t *testing.T) {
					keys := []SortKey{{Expr: typedCol{0, arrow.BinaryTypes.String}, Desc: desc, NullsFirst: nullsFirst}}
					if second {
						keys = append(keys, SortKey{Expr: typedCol{1, arrow.PrimitiveTypes.Int64}, Desc: !desc, NullsFirst: !nullsFirst})
					}
					want := slices.Clone(rows)
					slices.SortStableFunc(want, func(a, b row) int {
						if c, ok := nullsCmp(a.s == nil, b.s == nil, nullsFirst); ok {
							if c != 0 {
								return c
							}
						} else if c := strings.Compare(*a.s, *b.s); c != 0 {
							if desc {
								return -c
							}
							return c
						}
						if !second {
							return 0
						}
						if c, ok := nullsCmp(a.n == nil, b.n == nil, !nullsFirst); ok {
							return c
						}
						c := cmp.Compare(*a.n, *b.n)
						if !desc { // the second key is descending when the first is not
							return -c
						}
						return c
					})
					rec.Retain()
					op := &Sort{Input: &Values{Out: schema, Batches: []arrow.RecordBatch{rec}}, Keys: keys, EC: &EvalContext{Mem: mem}}
					out, err := Collect(context.Background(), op)
					if err != nil {
						t.Fatal(err)
					}
					var got []int64
					for _, b := range out {
						got = append(got, b.Column(2).(*array.Int64).Int64Values()...)
					}
					ReleaseAll(out)
					for i, w := range want {
						if i >= len(got) || got[i] != w.pos {
							t.Fatalf("row %d: got position %v, want %d", i, got[min(i, len(got)-1)], w.pos)
						}
					}
					if len(got) != len(want) {
						t.Fatalf("%d rows, want %d", len(got), len(want))
					}
				})
			}
		}
	}
}
