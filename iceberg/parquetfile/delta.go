package parquetfile

import (
	"encoding/binary"
	"fmt"
)

// DELTA_BINARY_PACKED: a header (values per block, miniblocks per block,
// value count, first value), then blocks of a minimum delta, one bit
// width per miniblock and the miniblocks' bit-packed deltas above the
// minimum. Values are rebuilt by a running sum in 64-bit wrap-around
// arithmetic; INT32 values are its low 32 bits (the same result as
// 32-bit wrap-around, whichever width the writer computed deltas in).

// maxDeltaBlock bounds the values per block a header may declare, so
// the block's byte sizes stay far from overflowing.
const maxDeltaBlock = 1 << 20

// deltaHeader is the header of a DELTA_BINARY_PACKED stream.
type deltaHeader struct {
	perMini    int // values per miniblock
	miniblocks int // per block
	count      int
	first      uint64
}

// readDeltaHeader reads the stream header at the start of src and
// returns it and its length.
func readDeltaHeader(src []byte) (deltaHeader, int, error) {
	var h deltaHeader
	pos := 0
	block, err := readUvarint(src, &pos, "block size")
	if err != nil {
		return h, 0, err
	}
	minis, err := readUvarint(src, &pos, "miniblock count")
	if err != nil {
		return h, 0, err
	}
	count, err := readUvarint(src, &pos, "value count")
	if err != nil {
		return h, 0, err
	}
	first, err := readUvarint(src, &pos, "first value")
	if err != nil {
		return h, 0, err
	}
	switch {
	case block == 0 || block%128 != 0 || block > maxDeltaBlock:
		return h, 0, fmt.Errorf("delta block of %d values (want a positive multiple of 128)", block)
	case minis == 0 || block%minis != 0 || (block/minis)%32 != 0:
		return h, 0, fmt.Errorf("%d miniblocks in a delta block of %d values", minis, block)
	case count > maxPageValues:
		return h, 0, fmt.Errorf("delta stream of %d values", count)
	}
	// Every block after the first value takes at least its minimum
	// delta and bit widths: a count the bytes cannot back sizes nothing.
	if blocks := uint64(len(src)-pos) / (1 + minis); count > 1 && (count-2)/block >= blocks {
		return h, 0, fmt.Errorf("delta stream of %d values in %d bytes", count, len(src))
	}
	h = deltaHeader{perMini: int(block / minis), miniblocks: int(minis), count: int(count), first: unzigzag(first)}
	return h, pos, nil
}

// checkDeltaCount checks that the DELTA_BINARY_PACKED stream at the
// start of src declares n values, before anything is sized for them.
func checkDeltaCount(src []byte, n int) error {
	h, _, err := readDeltaHeader(src)
	if err != nil {
		return err
	}
	if h.count != n {
		return fmt.Errorf("delta stream of %d values where %d are expected", h.count, n)
	}
	return nil
}

func readUvarint(src []byte, pos *int, what string) (uint64, error) {
	u, k := binary.Uvarint(src[*pos:])
	if k <= 0 {
		return 0, fmt.Errorf("delta %s malformed at byte %d", what, *pos)
	}
	*pos += k
	return u, nil
}

// unzigzag undoes zig-zag encoding, as a 64-bit two's complement value.
func unzigzag(u uint64) uint64 { return u>>1 ^ -(u & 1) }

// decodeDeltaBinary decodes the DELTA_BINARY_PACKED stream at the start
// of src, which must hold exactly len(out) values, into out; it returns
// the stream's length in bytes (byte arrays follow it in the DELTA_*
// byte array encodings).
func decodeDeltaBinary[T int32 | int64](src []byte, out []T) (int, error) {
	h, pos, err := readDeltaHeader(src)
	if err != nil {
		return 0, err
	}
	if h.count != len(out) {
		return 0, fmt.Errorf("delta stream of %d values where %d are expected", h.count, len(out))
	}
	if len(out) == 0 {
		return pos, nil
	}
	out[0] = T(h.first)
	prev := h.first
	for i := 1; i < len(out); {
		minDelta, err := readUvarint(src, &pos, "minimum delta")
		if err != nil {
			return 0, err
		}
		minDelta = unzigzag(minDelta)
		if h.miniblocks > len(src)-pos {
			return 0, fmt.Errorf("delta block bit widths truncated at byte %d", pos)
		}
		widths := src[pos : pos+h.miniblocks]
		pos += h.miniblocks
		// Miniblocks past the last value have no bytes, whatever their
		// widths say.
		for _, w := range widths {
			if i == len(out) {
				break
			}
			if w > 64 {
				return 0, fmt.Errorf("delta bit width %d", w)
			}
			m := min(h.perMini, len(out)-i)
			size := h.perMini * int(w) / 8 // perMini is a multiple of 32
			if left := len(src) - pos; size > left {
				// A last miniblock cut after its values (without its
				// padding) still holds them.
				if (m*int(w)+7)/8 > left {
					return 0, fmt.Errorf("delta miniblock of %d bytes truncated at byte %d (%d left)", size, pos, left)
				}
				size = left
			}
			// Word loads may read past the miniblock into what follows
			// (masked off): only a stream's last bytes need byte loads.
			prev = unpackDeltas(src[pos:], uint(w), minDelta, prev, out[i:i+m])
			pos += size
			i += m
		}
	}
	return pos, nil
}

// unpackDeltas rebuilds len(out) values from w-bit deltas packed at the
// start of src (which holds them all) and the value before them, and
// returns the last.
func unpackDeltas[T int32 | int64](src []byte, w uint, minDelta, prev uint64, out []T) uint64 {
	if w == 0 {
		for i := range out {
			prev += minDelta
			out[i] = T(prev)
		}
		return prev
	}
	mask := uint64(1)<<w - 1 // all ones for w = 64
	bit := uint(0)
	i := 0
	// A word load per value while 9 bytes are left (a value of more
	// than 56 bits may reach into the ninth).
	if w <= 56 {
		for ; i < len(out); i++ {
			at := bit >> 3
			if at+8 > uint(len(src)) {
				break
			}
			prev += minDelta + binary.LittleEndian.Uint64(src[at:])>>(bit&7)&mask
			out[i] = T(prev)
			bit += w
		}
	} else {
		for ; i < len(out); i++ {
			at := bit >> 3
			if at+9 > uint(len(src)) {
				break
			}
			s := bit & 7
			v := binary.LittleEndian.Uint64(src[at:]) >> s
			if s > 0 {
				v |= uint64(src[at+8]) << (64 - s)
			}
			prev += minDelta + v&mask
			out[i] = T(prev)
			bit += w
		}
	}
	for ; i < len(out); i++ {
		prev += minDelta + loadBits(src, bit, w)
		out[i] = T(prev)
		bit += w
	}
	return prev
}

// loadBits reads the w bits at bit offset bit of src byte by byte (the
// last values of a stream, where a word load would pass its end); bytes
// past the end read as zero.
func loadBits(src []byte, bit, w uint) uint64 {
	var v uint64
	at, s := bit>>3, bit&7
	for k := uint(0); k*8 < w+s && at+k < uint(len(src)); k++ {
		b := uint64(src[at+k])
		if k == 0 {
			v = b >> s
		} else if sh := 8*k - s; sh < 64 {
			v |= b << sh
		}
	}
	if w < 64 {
		v &= uint64(1)<<w - 1
	}
	return v
}
