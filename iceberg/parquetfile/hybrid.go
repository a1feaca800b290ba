package parquetfile

import (
	"encoding/binary"
	"fmt"
)

// hybridRuns walks an RLE/bit-packed hybrid stream of values of width
// bits, the encoding of levels, dictionary indexes and RLE booleans.
// Callers decode exactly the values they expect: an RLE run longer than
// what is left and a stream that ends early are errors, a bit-packed run
// longer than what is left is a padded last run, and no run length sizes
// anything.
type hybridRuns struct {
	src   []byte
	pos   int
	width uint
	// The current run: rle repeats value; otherwise its bit-packed
	// values start at packed (a byte offset into src).
	rle    bool
	value  uint64
	left   int // values of the run not yet consumed
	packed int
}

func newHybridRuns(src []byte, width uint) hybridRuns {
	return hybridRuns{src: src, width: width}
}

// nextRun reads the next run header; want is how many values the caller
// still needs (bit-packed runs are cut to what their bytes hold).
func (h *hybridRuns) nextRun(want int) error {
	if h.pos >= len(h.src) {
		return fmt.Errorf("stream ends with %d values missing", want)
	}
	u, k := binary.Uvarint(h.src[h.pos:])
	if k <= 0 {
		return fmt.Errorf("malformed run header at byte %d", h.pos)
	}
	h.pos += k
	if u&1 == 0 {
		n := u >> 1
		vb := int(h.width+7) / 8
		if vb > len(h.src)-h.pos {
			return fmt.Errorf("run value truncated at byte %d", h.pos)
		}
		var v uint64
		for i := range vb {
			v |= uint64(h.src[h.pos+i]) << (8 * i)
		}
		h.pos += vb
		if n > uint64(want)+8 {
			return fmt.Errorf("run of %d values where %d are left", n, want)
		}
		h.rle, h.value, h.left = true, v, int(min(n, uint64(want)))
		return nil
	}
	groups := u >> 1
	if groups == 0 { // empty runs are legal, if odd
		h.rle, h.left = false, 0
		return nil
	}
	// Writers pad the last run, to whole groups of 8 or further (DuckDB
	// writes every bit-packed run as 256 values): values past want are
	// ignored, as the format allows. A truncated last run still yields
	// the values its bytes hold. Clamping groups first keeps the products
	// below from overflowing.
	groups = min(groups, uint64(len(h.src))+1)
	avail := groups * 8
	if h.width > 0 {
		avail = min(avail, uint64(len(h.src)-h.pos)*8/uint64(h.width))
	}
	n := min(avail, uint64(want))
	if n == 0 {
		return fmt.Errorf("bit-packed run truncated at byte %d", h.pos)
	}
	h.rle, h.left, h.packed = false, int(n), h.pos
	h.pos += int(min(groups*uint64(h.width), uint64(len(h.src)-h.pos)))
	return nil
}

// unpack returns bit-packed value i of the run starting at src[packed].
func (h *hybridRuns) unpack(i int) uint64 {
	bit := uint(i) * h.width
	at := h.packed + int(bit>>3)
	var w uint64
	if at+8 <= len(h.src) {
		w = binary.LittleEndian.Uint64(h.src[at:])
	} else {
		for j := 0; at+j < len(h.src); j++ {
			w |= uint64(h.src[at+j]) << (8 * j)
		}
	}
	return (w >> (bit & 7)) & (1<<h.width - 1)
}

// unpackRun fills run with the current bit-packed run's values: whole
// groups of 8 at once (unpackGroups) while their bytes and 8 more are
// left, then a word load per value, then unpack for the last few.
func unpackRun[T int32 | byte](h *hybridRuns, run []T) {
	mask := uint64(1)<<h.width - 1
	src := h.src[h.packed:]
	i := 0
	if w := int(h.width); w > 0 && len(src) >= 8 {
		groups := min(len(run)/8, (len(src)-8)/w)
		unpackGroups(src, h.width, run[:8*groups])
		i = 8 * groups
	}
	bit := uint(i) * h.width
	for ; i < len(run); i++ {
		at := int(bit >> 3)
		if at+8 > len(src) {
			break
		}
		run[i] = T(binary.LittleEndian.Uint64(src[at:]) >> (bit & 7) & mask)
		bit += h.width
	}
	for ; i < len(run); i++ {
		run[i] = T(h.unpack(i))
	}
}

// decodeLevels fills out with levels of at most maxLevel and returns how
// many equal maxLevel.
func decodeLevels(src []byte, maxLevel byte, out []byte) (full int, err error) {
	h := newHybridRuns(src, levelWidth(maxLevel))
	for k := 0; k < len(out); {
		if err := h.nextRun(len(out) - k); err != nil {
			return 0, err
		}
		if h.rle {
			if h.value > uint64(maxLevel) {
				return 0, fmt.Errorf("level %d above maximum %d", h.value, maxLevel)
			}
			v := byte(h.value)
			run := out[k : k+h.left]
			for i := range run {
				run[i] = v
			}
			if v == maxLevel {
				full += len(run)
			}
			k += len(run)
			continue
		}
		run := out[k : k+h.left]
		unpackRun(&h, run)
		for _, v := range run {
			if v > maxLevel {
				return 0, fmt.Errorf("level %d above maximum %d", v, maxLevel)
			}
			if v == maxLevel {
				full++
			}
		}
		k += len(run)
	}
	return full, nil
}

// allLevelsMax reports whether the stream is one RLE run of maxLevel
// covering n values (the levels of a page without nulls), without
// decoding it.
func allLevelsMax(src []byte, maxLevel byte, n int) bool {
	u, k := binary.Uvarint(src)
	if k <= 0 || u&1 != 0 || u>>1 < uint64(n) {
		return false
	}
	vb := int(levelWidth(maxLevel)+7) / 8
	if vb > len(src)-k {
		return false
	}
	var v uint64
	for i := range vb {
		v |= uint64(src[k+i]) << (8 * i)
	}
	return v == uint64(maxLevel)
}

// decodeIndexes fills out with dictionary indexes (a bit-width byte, then
// hybrid runs), each below size.
func decodeIndexes(src []byte, size int, out []int32) error {
	if len(out) == 0 {
		return nil
	}
	if len(src) == 0 {
		return fmt.Errorf("dictionary indexes missing")
	}
	width := uint(src[0])
	if width > 32 {
		return fmt.Errorf("dictionary index width %d", width)
	}
	h := newHybridRuns(src[1:], width)
	limit := uint64(size)
	for k := 0; k < len(out); {
		if err := h.nextRun(len(out) - k); err != nil {
			return err
		}
		run := out[k : k+h.left]
		if h.rle {
			if h.value >= limit {
				return fmt.Errorf("dictionary index %d out of range (%d entries)", h.value, size)
			}
			v := int32(h.value)
			for i := range run {
				run[i] = v
			}
		} else {
			unpackRun(&h, run)
			// Values of width bits cannot pass a dictionary of 1<<width.
			if limit < 1<<width && uint64(maxIndex(run)) >= limit {
				return fmt.Errorf("dictionary index out of range (%d entries)", size)
			}
		}
		k += len(run)
	}
	return nil
}

// decodeBools fills out from a hybrid stream of 1-bit values.
func decodeBools(src []byte, out []bool) error {
	h := newHybridRuns(src, 1)
	for k := 0; k < len(out); {
		if err := h.nextRun(len(out) - k); err != nil {
			return err
		}
		run := out[k : k+h.left]
		for i := range run {
			if h.rle {
				run[i] = h.value == 1
			} else {
				run[i] = h.unpack(i) == 1
			}
		}
		k += len(run)
	}
	return nil
}
