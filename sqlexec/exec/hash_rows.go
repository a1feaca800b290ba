package exec

import (
	"hash/maphash"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// rowHashSeed seeds the row hashes of one process; hashes are never
// stored.
var rowHashSeed = maphash.MakeSeed()

const nullHash = 0x9e3779b97f4a7c15

// mix64 is splitmix64's finaliser: every input bit moves every output bit.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// hashRows sets out[from:to] to a hash of each row over keys, column by
// column without per-row allocations. Rows that compare equal by
// rowsEqual (NULLs equal, +0 = -0, NaN = NaN) hash equally.
func hashRows(keys []arrow.Array, from, to int, out []uint64) {
	for i := from; i < to; i++ {
		out[i] = 0
	}
	var buf []byte
	for _, k := range keys {
		hashColumn(k, from, to, out, &buf)
	}
}

func hashColumn(a arrow.Array, from, to int, out []uint64, buf *[]byte) {
	combine := func(i int, h uint64) { out[i] = mix64(out[i]*31 + h) }
	nulls := a.NullN() > 0
	switch x := a.(type) {
	case *array.String:
		for i := from; i < to; i++ {
			if nulls && x.IsNull(i) {
				combine(i, nullHash)
				continue
			}
			combine(i, maphash.String(rowHashSeed, x.Value(i)))
		}
		return
	case *array.Int64:
		v := x.Int64Values()
		for i := from; i < to; i++ {
			if nulls && x.IsNull(i) {
				combine(i, nullHash)
				continue
			}
			combine(i, uint64(v[i]))
		}
		return
	case *array.Int32:
		v := x.Int32Values()
		for i := from; i < to; i++ {
			if nulls && x.IsNull(i) {
				combine(i, nullHash)
				continue
			}
			combine(i, uint64(v[i]))
		}
		return
	case *array.Timestamp:
		v := x.TimestampValues()
		for i := from; i < to; i++ {
			if nulls && x.IsNull(i) {
				combine(i, nullHash)
				continue
			}
			combine(i, uint64(v[i]))
		}
		return
	case *array.Date32:
		v := x.Date32Values()
		for i := from; i < to; i++ {
			if nulls && x.IsNull(i) {
				combine(i, nullHash)
				continue
			}
			combine(i, uint64(v[i]))
		}
		return
	case *array.Float64:
		v := x.Float64Values()
		for i := from; i < to; i++ {
			if nulls && x.IsNull(i) {
				combine(i, nullHash)
				continue
			}
			f := v[i]
			if f == 0 {
				f = 0
			}
			if math.IsNaN(f) {
				f = math.NaN()
			}
			combine(i, math.Float64bits(f))
		}
		return
	}
	for i := from; i < to; i++ {
		var isNull bool
		*buf, isNull = appendKey((*buf)[:0], a, i)
		if isNull {
			combine(i, nullHash)
			continue
		}
		combine(i, maphash.Bytes(rowHashSeed, *buf))
	}
}
