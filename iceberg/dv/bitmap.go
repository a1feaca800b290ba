package dv

import (
	"encoding/binary"
	"math"
)

// maxKey is the largest high 32-bit key: positions keep their most
// significant bit 0.
const maxKey = math.MaxInt32

// EncodeBitmap serializes sorted, unique, non-negative positions as a
// 64-bit Roaring bitmap in the portable format: an 8-byte little-endian
// count of 32-bit bitmaps, then each one's 4-byte key and body. Only keys
// with positions are written.
func EncodeBitmap(positions []int64) ([]byte, error) {
	if err := checkPositions(positions); err != nil {
		return nil, err
	}
	return appendBitmap(nil, positions), nil
}

func checkPositions(positions []int64) error {
	for i, p := range positions {
		if p < 0 || (i > 0 && p <= positions[i-1]) {
			return ErrInvalidPositions
		}
	}
	return nil
}

func appendBitmap(b []byte, positions []int64) []byte {
	countAt := len(b)
	b = binary.LittleEndian.AppendUint64(b, 0)
	count := uint64(0)
	lows := make([]uint32, 0, min(len(positions), 1<<16))
	for i := 0; i < len(positions); {
		key := positions[i] >> 32
		lows = lows[:0]
		for ; i < len(positions) && positions[i]>>32 == key; i++ {
			lows = append(lows, uint32(positions[i]))
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(key))
		b = appendRoaring32(b, lows)
		count++
	}
	binary.LittleEndian.PutUint64(b[countAt:], count)
	return b
}

// DecodeBitmap reads a portable 64-bit Roaring bitmap and returns its
// positions, sorted and unique. A bitmap declaring more than maxPositions
// positions fails with ErrTooLarge before it is expanded; malformed input
// fails with a *CorruptError. Trailing bytes are an error.
func DecodeBitmap(b []byte, maxPositions int64) ([]int64, error) {
	r := &reader{b: b}
	if err := r.need(8, "bitmap count"); err != nil {
		return nil, err
	}
	count := binary.LittleEndian.Uint64(b)
	r.off = 8
	// Each 32-bit bitmap takes at least a key and an 8-byte header.
	if count > uint64(len(b)-8)/12 {
		return nil, corruptf(0, "%d bitmaps cannot fit in %d bytes", count, len(b))
	}
	var out []int64
	budget := maxPositions
	prevKey := int64(-1)
	for range count {
		if err := r.need(4, "key"); err != nil {
			return nil, err
		}
		key := int64(r.u32())
		if key > maxKey {
			return nil, corruptf(r.off-4, "key %d sets the sign bit of positions", key)
		}
		if key <= prevKey {
			return nil, corruptf(r.off-4, "keys not increasing (%d after %d)", key, prevKey)
		}
		prevKey = key
		var err error
		if out, err = r.roaring32(key<<32, out, &budget); err != nil {
			return nil, err
		}
	}
	if r.off != len(b) {
		return nil, corruptf(r.off, "%d bytes after the last bitmap", len(b)-r.off)
	}
	return out, nil
}
