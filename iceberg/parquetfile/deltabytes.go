package parquetfile

import (
	"encoding/binary"
	"fmt"
	"sync"
)

// DELTA_LENGTH_BYTE_ARRAY is the values' lengths (DELTA_BINARY_PACKED)
// followed by their bytes back to back; DELTA_BYTE_ARRAY is, per value,
// the length of the prefix it shares with the value before and the rest
// of it (the suffixes as DELTA_LENGTH_BYTE_ARRAY). Both end up as
// PLAIN byte arrays do: the values' bytes in one buffer and n+1 offsets.

// deltaCopySlack is room past the decoded bytes of DELTA_BYTE_ARRAY
// values: short prefixes and suffixes are copied as two 8-byte words,
// which may store up to 16 bytes past a value's end.
const deltaCopySlack = 16

// decodeDeltaLengthBytes decodes n DELTA_LENGTH_BYTE_ARRAY values: their
// bytes are viewed in src, the n+1 offsets into them are built in off's
// storage.
func decodeDeltaLengthBytes(src []byte, n int, off []int32) ([]byte, []int32, error) {
	if err := checkDeltaCount(src, n); err != nil {
		return nil, nil, fmt.Errorf("byte array lengths: %w", err)
	}
	off = grow(off[:0], n+1)
	k, err := decodeDeltaBinary(src, off[1:])
	if err != nil {
		return nil, nil, fmt.Errorf("byte array lengths: %w", err)
	}
	data := src[k:]
	total, err := lengthsToOffsets(off, len(data))
	if err != nil {
		return nil, nil, err
	}
	return data[:total], off, nil
}

// lengthsToOffsets turns the lengths in off[1:] into offsets in place
// (off[0] = 0), each length checked; the sum must fit in room bytes.
func lengthsToOffsets(off []int32, room int) (int, error) {
	off[0] = 0
	var total int64
	for i, l := range off[1:] {
		if l < 0 {
			return 0, fmt.Errorf("byte array %d of negative length %d", i, l)
		}
		total += int64(l)
		if total > int64(room) {
			return 0, fmt.Errorf("byte arrays of more than the %d bytes left", room)
		}
		off[i+1] = int32(total)
	}
	return int(total), nil
}

// deltaPrefixes recycles the prefix lengths DELTA_BYTE_ARRAY pages are
// decoded with (pages of a chunk decode concurrently, so the scratch
// cannot belong to the chunk).
var deltaPrefixes = sync.Pool{New: func() any { return new([]int32) }}

// decodeDeltaByteArray decodes n DELTA_BYTE_ARRAY values into a buffer
// from alloc (asked for the values' total size plus deltaCopySlack) and
// returns the values' bytes and n+1 offsets (in off's storage). The
// total may not pass limit; width > 0 requires every value to be that
// long (FIXED_LEN_BYTE_ARRAY).
func decodeDeltaByteArray(src []byte, n int, off []int32, limit int64, width int, alloc func(int) []byte) ([]byte, []int32, error) {
	if err := checkDeltaCount(src, n); err != nil {
		return nil, nil, fmt.Errorf("prefix lengths: %w", err)
	}
	pp := deltaPrefixes.Get().(*[]int32)
	defer deltaPrefixes.Put(pp)
	prefix := grow((*pp)[:0], n)
	*pp = prefix
	k, err := decodeDeltaBinary(src, prefix)
	if err != nil {
		return nil, nil, fmt.Errorf("prefix lengths: %w", err)
	}
	src = src[k:]
	off = grow(off[:0], n+1)
	k, err = decodeDeltaBinary(src, off[1:])
	if err != nil {
		return nil, nil, fmt.Errorf("suffix lengths: %w", err)
	}
	data := src[k:]
	if _, err := lengthsToOffsets(off, len(data)); err != nil {
		return nil, nil, fmt.Errorf("suffixes: %w", err)
	}
	// off holds the suffixes' offsets in data; check the prefixes and
	// size the values before a byte is allocated.
	var total, prevLen int64
	for i, p := range prefix {
		s := int64(off[i+1] - off[i])
		if p < 0 || int64(p) > prevLen {
			return nil, nil, fmt.Errorf("value %d has a prefix of %d bytes after a value of %d", i, p, prevLen)
		}
		prevLen = int64(p) + s
		if width > 0 && prevLen != int64(width) {
			return nil, nil, fmt.Errorf("value %d of %d bytes in a column of width %d", i, prevLen, width)
		}
		total += prevLen
		if total > limit {
			return nil, nil, fmt.Errorf("values of more than %d bytes in one page", limit)
		}
	}
	out := alloc(int(total) + deltaCopySlack)
	w := buildDeltaValues(out, data, prefix, off)
	return out[:w], off, nil
}

// prefixMasks[p] has the first p of 16 bytes set, as two words.
var prefixMasks = func() (m [17][2]uint64) {
	for p := range m {
		for b := range p {
			m[p][b/8] |= 0xff << (8 * (b % 8))
		}
	}
	return m
}()

// buildDeltaValues writes each value (its prefix from the value before,
// then its suffix from data at off) into out, which has room for them
// and deltaCopySlack bytes, and turns off into the values' offsets.
func buildDeltaValues(out, data []byte, prefix, off []int32) int {
	w, prev := 0, 0 // where the value goes, where the one before starts
	// A value of up to 16 bytes is composed in two words from the value
	// before, kept in pa and pb, and its suffix: reading the value before
	// back from out right after storing it would stall on the store.
	var pa, pb uint64
	for i, p := range prefix {
		start := w
		r, s := int(off[i]), int(off[i+1]-off[i])
		if n := int(p) + s; n <= 16 && len(data)-r >= 16 {
			sa, sb := binary.LittleEndian.Uint64(data[r:]), binary.LittleEndian.Uint64(data[r+8:])
			// The suffix moves p bytes up; the prefix's p bytes stay.
			// Shifts of 64 bits or more give 0 (uint wrap-around makes
			// 64-sh and sh-64 such shifts when out of their range).
			sh := uint(p) * 8
			lo, hi := sa<<sh, sb<<sh|sa>>(64-sh)|sa<<(sh-64)
			m := &prefixMasks[p]
			pa, pb = pa&m[0]|lo&^m[0], pb&m[1]|hi&^m[1]
			binary.LittleEndian.PutUint64(out[w:], pa)
			binary.LittleEndian.PutUint64(out[w+8:], pb)
			w += n
		} else {
			w += copy(out[w:], out[prev:prev+int(p)])
			w += copy(out[w:], data[r:r+s])
			pa, pb = binary.LittleEndian.Uint64(out[start:]), binary.LittleEndian.Uint64(out[start+8:])
		}
		off[i] = int32(start)
		prev = start
	}
	off[len(prefix)] = int32(w)
	return w
}
