// Package parquettest builds Parquet files byte by byte for tests: layouts
// that other writers produce and icesql's own writer never does.
package parquettest

import "encoding/binary"

// blockValues is how many values a padded bit-packed run holds: DuckDB
// writes every bit-packed run as one block of 256 values and zero-pads the
// last one, so a page whose count is not a multiple of 256 ends in a run
// claiming up to 255 values more than the page has.
const blockValues = 256

// minRepeat is the shortest repetition written as an RLE run.
const minRepeat = 4

// PaddedHybrid encodes values of width bits as an RLE/bit-packed hybrid
// stream the way DuckDB does: repetitions of at least four values become
// RLE runs; anything else goes into bit-packed blocks of 256 values, the
// last one padded with zeros past the end of values.
func PaddedHybrid(width uint, values []uint32) []byte {
	e := hybridEncoder{width: width}
	for _, v := range values {
		e.add(v)
	}
	e.flush()
	return e.out
}

type hybridEncoder struct {
	width    uint
	out      []byte
	rleValue uint32
	rleCount int
	block    []uint32 // a bit-packed block being filled
}

func (e *hybridEncoder) add(v uint32) {
	switch {
	case len(e.block) > 0: // committed to a bit-packed block
		e.block = append(e.block, v)
		if len(e.block) == blockValues {
			e.flush()
		}
	case e.rleCount == 0:
		e.rleValue, e.rleCount = v, 1
	case v == e.rleValue:
		e.rleCount++
	case e.rleCount >= minRepeat:
		e.flush()
		e.rleValue, e.rleCount = v, 1
	default: // too short a repetition: start a bit-packed block with it
		for range e.rleCount {
			e.block = append(e.block, e.rleValue)
		}
		e.block = append(e.block, v)
		e.rleCount = 0
	}
}

func (e *hybridEncoder) flush() {
	if e.rleCount > 0 {
		e.out = binary.AppendUvarint(e.out, uint64(e.rleCount)<<1)
		for i := range (e.width + 7) / 8 {
			e.out = append(e.out, byte(e.rleValue>>(8*i)))
		}
		e.rleCount = 0
		return
	}
	if len(e.block) == 0 {
		return
	}
	e.out = binary.AppendUvarint(e.out, blockValues/8<<1|1)
	e.out = append(e.out, PackBits(e.width, e.block, blockValues)...)
	e.block = e.block[:0]
}

// PackBits packs values LSB first into n*width bits (n >= len(values);
// the values past len(values) are zeros).
func PackBits(width uint, values []uint32, n int) []byte {
	out := make([]byte, (n*int(width)+7)/8)
	bit := uint(0)
	for _, v := range values {
		for b := range width {
			if v>>b&1 == 1 {
				out[(bit+b)/8] |= 1 << ((bit + b) % 8)
			}
		}
		bit += width
	}
	return out
}
