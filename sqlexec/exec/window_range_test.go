package exec

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// oneKeyFrames returns the frames of f over key, already sorted as one
// partition (NULLs first), as "lo-hi" strings.
func oneKeyFrames(t *testing.T, mem memory.Allocator, key arrow.Array, desc bool, f WindowFrame) []string {
	t.Helper()
	s := arrow.NewSchema([]arrow.Field{{Name: "k", Type: key.DataType(), Nullable: true}}, nil)
	b := array.NewRecordBatch(s, []arrow.Array{key}, int64(key.Len()))
	defer b.Release()
	w := &Window{Order: []SortKey{{Expr: typedCol{0, key.DataType()}, Desc: desc, NullsFirst: true}}, EC: &EvalContext{Mem: mem}}
	wb, err := w.boundaries(b)
	if err != nil {
		t.Fatal(err)
	}
	frame, err := w.framesOf(f, b, wb)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, key.Len())
	for i := range out {
		lo, hi := frame(i)
		out[i] = FormatValue(int64(lo), arrow.PrimitiveTypes.Int64) + "-" + FormatValue(int64(hi), arrow.PrimitiveTypes.Int64)
	}
	return out
}

func rangeFrame(start BoundKind, so RangeOffset, end BoundKind, eo RangeOffset) WindowFrame {
	return WindowFrame{Start: FrameBound{Kind: start, Range: so}, End: FrameBound{Kind: end, Range: eo}}
}

func TestRangeFrameEdges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64 := func(v ...any) arrow.Array {
		b := ints(mem, v...)
		defer b.Release()
		c := b.Column(0)
		c.Retain()
		return c
	}
	f64 := func(v ...float64) arrow.Array {
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		b.AppendNull()
		b.AppendValues(v, nil)
		return b.NewArray()
	}
	dec := func(v ...decimal128.Num) arrow.Array {
		b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: 0})
		defer b.Release()
		b.AppendValues(v, nil)
		return b.NewArray()
	}
	maxDec := decimal128.MaxDecimal128
	tests := []struct {
		name string
		key  arrow.Array
		desc bool
		f    WindowFrame
		want []string
	}{
		{"int saturates past int64", i64(nil, math.MinInt64, -1, math.MaxInt64), false,
			rangeFrame(BoundPreceding, RangeOffset{Int: math.MaxInt64}, BoundFollowing, RangeOffset{Int: math.MaxInt64}),
			[]string{"0-1", "1-3", "1-3", "3-4"}},
		{"int descending", i64(nil, 9, 8, 8, 5), true,
			rangeFrame(BoundPreceding, RangeOffset{Int: 1}, BoundCurrentRow, RangeOffset{}),
			[]string{"0-1", "1-2", "1-4", "1-4", "4-5"}},
		{"NaN frames only NaN, infinities take infinite offsets", f64(math.NaN(), math.Inf(-1), 0, math.Inf(1)), false,
			rangeFrame(BoundPreceding, RangeOffset{Float: math.Inf(1)}, BoundCurrentRow, RangeOffset{}),
			[]string{"0-1", "1-2", "2-3", "2-4", "2-5"}},
		{"decimal overflow saturates", dec(maxDec.Negate(), decimal128.FromI64(0), maxDec), false,
			rangeFrame(BoundCurrentRow, RangeOffset{}, BoundFollowing, RangeOffset{Dec: maxDec}),
			[]string{"0-2", "1-3", "2-3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer tc.key.Release()
			if got := oneKeyFrames(t, mem, tc.key, tc.desc, tc.f); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRangeFrameErrors(t *testing.T) {
	neg := rangeFrame(BoundPreceding, RangeOffset{Int: -1}, BoundCurrentRow, RangeOffset{})
	var fe *FrameError
	if err := neg.Validate(); !errors.As(err, &fe) || !errors.Is(err, ErrWindowFrame) {
		t.Errorf("negative offset: %v", err)
	}
	two := rangeFrame(BoundPreceding, RangeOffset{Int: 1}, BoundCurrentRow, RangeOffset{})
	if err := checkRangeKeys(two, []SortKey{{Expr: col(0)}, {Expr: col(1)}}); !errors.As(err, &fe) {
		t.Errorf("two keys: %v", err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewStringBuilder(mem)
	b.AppendValues([]string{"a", "b"}, nil)
	key := b.NewArray()
	b.Release()
	defer key.Release()
	r := &rangeFramer{key: key, wb: &winBounds{partStart: []int32{0, 0}, partEnd: []int32{2, 2}, peerStart: []int32{0, 1}, peerEnd: []int32{1, 2}}}
	if _, _, err := r.frames(two); !errors.Is(err, ErrUnsupportedType) {
		t.Errorf("string key: %v", err)
	}
}
