package iceberg

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// murmur3x86_32 is the 32-bit x86 variant of MurmurHash3, the hash the
// spec prescribes for bucket transforms (seed 0).
func murmur3x86_32(data []byte, seed uint32) uint32 {
	const (
		c1 = 0xcc9e2d51
		c2 = 0x1b873593
	)
	h := seed
	n := len(data)
	i := 0
	for ; i+4 <= n; i += 4 {
		k := binary.LittleEndian.Uint32(data[i:])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	var k uint32
	switch n - i {
	case 3:
		k ^= uint32(data[i+2]) << 16
		fallthrough
	case 2:
		k ^= uint32(data[i+1]) << 8
		fallthrough
	case 1:
		k ^= uint32(data[i])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// hashLong hashes the 8 little-endian bytes of v. Ints are widened to long
// first so that promoting int to long keeps bucket assignments.
func hashLong(v int64) int32 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	return int32(murmur3x86_32(b[:], 0))
}

func hashBytes(b []byte) int32 { return int32(murmur3x86_32(b, 0)) }

// hashDouble hashes a float or double as the spec's Appendix B defines it
// (floats widened to double, NaN and -0 canonicalised). Floats are not
// bucketable; this exists so sort/hash helpers agree with other engines.
func hashDouble(f float64) int32 {
	switch {
	case math.IsNaN(f):
		return hashLong(0x7ff8000000000000)
	case f == 0:
		return hashLong(0)
	}
	return hashLong(int64(math.Float64bits(f)))
}

// HashValue returns the spec's 32-bit Murmur3 hash (Appendix B) of a value
// in the Go value form; ok is false for nil and for values with no defined
// hash.
func HashValue(v any) (h int32, ok bool) {
	switch x := v.(type) {
	case int32:
		return hashLong(int64(x)), true
	case int64:
		return hashLong(x), true
	case Date:
		return hashLong(int64(x)), true
	case Time:
		return hashLong(int64(x)), true
	case Timestamp:
		return hashLong(int64(x)), true
	case TimestampNano:
		// the spec hashes nanosecond timestamps as microseconds, so both
		// precisions of one instant share a bucket
		return hashLong(int64(x.Micros())), true
	case string:
		return hashBytes([]byte(x)), true
	case []byte:
		return hashBytes(x), true
	case UUID:
		return hashBytes(x[:]), true
	case Decimal:
		return hashBytes(decimalMinBytes(x)), true
	case bool:
		if x {
			return hashLong(1), true
		}
		return hashLong(0), true
	case float32:
		return hashDouble(float64(x)), true
	case float64:
		return hashDouble(x), true
	}
	return 0, false
}
