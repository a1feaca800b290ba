package datafile

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
)

// codes writes a dense per-batch code for each row's partition key into
// out. Common column/transform pairs are keyed without boxing; the rest go
// through the exact transform.
func (fs *fieldSource) codes(leaf arrow.Array, parents []arrow.Array, out []int32) error {
	isNull := func(i int) bool {
		if leaf.IsNull(i) {
			return true
		}
		for _, p := range parents {
			if p.IsNull(i) {
				return true
			}
		}
		return false
	}
	if key := fastIntKey(leaf, fs.field.Transform); key != nil {
		ic := &intCoder{m: map[int64]int32{}, nullCode: -1}
		for i := range out {
			if isNull(i) {
				out[i] = ic.null()
				continue
			}
			out[i] = ic.code(key(i))
		}
		return nil
	}
	if s, ok := leaf.(*array.String); ok {
		if _, identity := fs.field.Transform.(iceberg.IdentityTransform); identity {
			m := map[string]int32{}
			nullCode, next := int32(-1), int32(0)
			for i := range out {
				if isNull(i) {
					if nullCode < 0 {
						nullCode = next
						next++
					}
					out[i] = nullCode
					continue
				}
				v := s.Value(i)
				c, ok := m[v]
				if !ok {
					c = next
					next++
					m[v] = c
				}
				out[i] = c
			}
			return nil
		}
	}
	return fs.genericCodes(leaf, parents, out)
}

// genericCodes keys rows by the exact transformed value.
func (fs *fieldSource) genericCodes(leaf arrow.Array, parents []arrow.Array, out []int32) error {
	m := map[any]int32{}
	for i := range out {
		v, err := fs.value(leaf, parents, i)
		if err != nil {
			return fmt.Errorf("partition field %q: %w", fs.field.Name, err)
		}
		r, err := iceberg.ApplyTransform(fs.field.Transform, fs.srcType, v)
		if err != nil {
			return fmt.Errorf("partition field %q: %w", fs.field.Name, err)
		}
		if b, ok := r.([]byte); ok {
			r = string(b) // []byte is not a map key
		}
		c, ok := m[r]
		if !ok {
			c = int32(len(m))
			m[r] = c
		}
		out[i] = c
	}
	return nil
}

// intCoder hands out dense codes for integer keys and null.
type intCoder struct {
	m        map[int64]int32
	nullCode int32
	next     int32
}

func (c *intCoder) code(k int64) int32 {
	v, ok := c.m[k]
	if !ok {
		v = c.next
		c.next++
		c.m[k] = v
	}
	return v
}

func (c *intCoder) null() int32 {
	if c.nullCode < 0 {
		c.nullCode = c.next
		c.next++
	}
	return c.nullCode
}

// fastIntKey returns an integer key function refining the transform for
// integer-like columns, or nil when there is none.
func fastIntKey(leaf arrow.Array, t iceberg.Transform) func(i int) int64 {
	if b, ok := t.(iceberg.BucketTransform); ok {
		return bucketKey(leaf, b.N)
	}
	switch a := leaf.(type) {
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		if unit != arrow.Microsecond {
			return nil
		}
		switch t.(type) {
		case iceberg.IdentityTransform:
			return func(i int) int64 { return int64(a.Value(i)) }
		case iceberg.DayTransform, iceberg.MonthTransform, iceberg.YearTransform:
			return func(i int) int64 { return floorDiv(int64(a.Value(i)), microsPerDay) }
		case iceberg.HourTransform:
			return func(i int) int64 { return floorDiv(int64(a.Value(i)), microsPerHour) }
		}
	case *array.Date32:
		switch t.(type) {
		case iceberg.IdentityTransform, iceberg.DayTransform, iceberg.MonthTransform, iceberg.YearTransform:
			return func(i int) int64 { return int64(a.Value(i)) }
		}
	case *array.Int32:
		if _, ok := t.(iceberg.IdentityTransform); ok {
			return func(i int) int64 { return int64(a.Value(i)) }
		}
	case *array.Int64:
		if _, ok := t.(iceberg.IdentityTransform); ok {
			return func(i int) int64 { return a.Value(i) }
		}
	}
	return nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// bucketKey is the bucket of integer-valued columns (int, long, date,
// timestamp in µs), hashed as longs per the spec without boxing each value
// through the generic path; nil for other columns.
func bucketKey(leaf arrow.Array, n int) func(i int) int64 {
	if n <= 0 {
		return nil
	}
	var long func(i int) int64
	switch a := leaf.(type) {
	case *array.Int32:
		long = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int64:
		long = func(i int) int64 { return a.Value(i) }
	case *array.Date32:
		long = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Timestamp:
		if a.DataType().(*arrow.TimestampType).Unit != arrow.Microsecond {
			return nil
		}
		long = func(i int) int64 { return int64(a.Value(i)) }
	default:
		return nil
	}
	return func(i int) int64 {
		h, _ := iceberg.HashValue(long(i))
		return int64(h&math.MaxInt32) % int64(n)
	}
}
