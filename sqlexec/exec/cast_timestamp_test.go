package exec

import (
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestCastTimestampUnits(t *testing.T) {
	us := &arrow.TimestampType{Unit: arrow.Microsecond}
	ns := &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}
	ec := &EvalContext{Mem: memory.DefaultAllocator}
	cases := []struct {
		name     string
		from, to arrow.DataType
		in       []int64
		valid    []bool
		want     []int64
		fails    bool
	}{
		{"micros to nanos", us, ns, []int64{1, -2, 0}, []bool{true, true, false}, []int64{1000, -2000, 0}, false},
		{"nanos to micros floors", ns, us, []int64{1999, -1, 5000}, nil, []int64{1, -1, 5}, false},
		{"beyond the nanosecond range", us, ns, []int64{math.MaxInt64 / 10}, nil, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := array.NewTimestampBuilder(memory.DefaultAllocator, c.from.(*arrow.TimestampType))
			for i, v := range c.in {
				if c.valid != nil && !c.valid[i] {
					b.AppendNull()
				} else {
					b.Append(arrow.Timestamp(v))
				}
			}
			in := b.NewArray()
			b.Release()
			defer in.Release()
			out, err := Cast(ec, in, c.to)
			if c.fails {
				if !errors.Is(err, ErrInvalidCast) {
					t.Fatalf("got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			got := out.(*array.Timestamp)
			if !arrow.TypeEqual(got.DataType(), c.to) {
				t.Fatalf("type %v", got.DataType())
			}
			for i, w := range c.want {
				if c.valid != nil && !c.valid[i] {
					if !got.IsNull(i) {
						t.Fatalf("row %d not null", i)
					}
					continue
				}
				if int64(got.Value(i)) != w {
					t.Fatalf("row %d: %d, want %d", i, got.Value(i), w)
				}
			}
		})
	}
}
