package exec

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ConstantArray repeats a fixed-width value's bytes instead of appending
// it row by row; the result must equal the row-by-row array for every
// width, and leak nothing.
func TestConstantArrayFixedWidth(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ec := &EvalContext{Mem: mem}
	ts := time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		dt arrow.DataType
		v  any
	}{
		{arrow.PrimitiveTypes.Int32, int32(-70000)},
		{arrow.PrimitiveTypes.Int64, int64(1) << 40},
		{arrow.PrimitiveTypes.Float32, float32(1.5)},
		{arrow.PrimitiveTypes.Float64, -2.25},
		{arrow.FixedWidthTypes.Date32, arrow.Date32FromTime(ts)},
		{arrow.FixedWidthTypes.Time64us, arrow.Time64(3_600_000_000)},
		{&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, arrow.Timestamp(ts.UnixMicro())},
		{&arrow.TimestampType{Unit: arrow.Nanosecond}, arrow.Timestamp(ts.UnixNano())},
		{&arrow.Decimal128Type{Precision: 20, Scale: 2}, decimal128.FromI64(12345)},
		{&arrow.FixedSizeBinaryType{ByteWidth: 3}, []byte("abc")},
		{arrow.FixedWidthTypes.Boolean, true}, // bit-packed: the row-by-row path
	}
	for _, c := range cases {
		for _, n := range []int{1, 2, 3, 1000} {
			got, err := ConstantArray(ec, c.dt, c.v, n)
			if err != nil {
				t.Fatalf("%s: %v", c.dt, err)
			}
			b := array.NewBuilder(mem, c.dt)
			for range n {
				if err := AppendValue(b, c.v); err != nil {
					t.Fatal(err)
				}
			}
			want := b.NewArray()
			b.Release()
			if !arrow.TypeEqual(got.DataType(), c.dt) || !array.Equal(got, want) || got.NullN() != 0 {
				t.Errorf("%s x%d: got %v, want %v", c.dt, n, got, want)
			}
			got.Release()
			want.Release()
		}
	}
}
