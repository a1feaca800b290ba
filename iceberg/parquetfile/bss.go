package parquetfile

import (
	"encoding/binary"
	"fmt"
)

// BYTE_STREAM_SPLIT stores byte k of every value in stream k: n values
// of width bytes are width streams of n bytes each.

// decodeByteStreamSplit joins the streams of src, which must hold
// exactly n values of width bytes, into dst (n*width bytes, values
// little-endian as PLAIN has them).
func decodeByteStreamSplit(src []byte, n, width int, dst []byte) error {
	if width <= 0 || int64(n)*int64(width) != int64(len(src)) {
		return fmt.Errorf("%d bytes of byte-stream-split values for %d values of %d bytes", len(src), n, width)
	}
	dst = dst[:n*width]
	switch width {
	case 4:
		joinStreams4(src, n, dst)
	case 8:
		joinStreams8(src, n, dst)
	default:
		for k := range width {
			stream := src[k*n : (k+1)*n]
			for i, b := range stream {
				dst[i*width+k] = b
			}
		}
	}
	return nil
}

// The joins take a word of 8 bytes from each stream (byte j of word k:
// byte k of value j) and transpose the bytes, swapping ever larger
// blocks across the diagonal: bytes, then pairs, then quads.

// swapBytes swaps the blocks of size bits at odd positions of *a with
// those at even positions of *b (mask selects the even blocks).
func swapBytes(a, b *uint64, size uint, mask uint64) {
	t := (*a>>size ^ *b) & mask
	*b ^= t
	*a ^= t << size
}

const (
	evenBytes = 0x00ff00ff00ff00ff
	evenPairs = 0x0000ffff0000ffff
	evenQuads = 0x00000000ffffffff
)

func joinStreams4(src []byte, n int, dst []byte) {
	s0, s1, s2, s3 := src[:n], src[n:2*n], src[2*n:3*n], src[3*n:4*n]
	i := 0
	for ; i+8 <= n; i += 8 {
		a, b := binary.LittleEndian.Uint64(s0[i:]), binary.LittleEndian.Uint64(s1[i:])
		c, d := binary.LittleEndian.Uint64(s2[i:]), binary.LittleEndian.Uint64(s3[i:])
		// Two 4x4 transposes: the low halves hold values 0-3, the high
		// halves values 4-7.
		swapBytes(&a, &b, 8, evenBytes)
		swapBytes(&c, &d, 8, evenBytes)
		swapBytes(&a, &c, 16, evenPairs)
		swapBytes(&b, &d, 16, evenPairs)
		out := dst[4*i : 4*i+32]
		binary.LittleEndian.PutUint64(out, a&evenQuads|b<<32)
		binary.LittleEndian.PutUint64(out[8:], c&evenQuads|d<<32)
		binary.LittleEndian.PutUint64(out[16:], a>>32|b&^evenQuads)
		binary.LittleEndian.PutUint64(out[24:], c>>32|d&^evenQuads)
	}
	for ; i < n; i++ {
		dst[4*i], dst[4*i+1], dst[4*i+2], dst[4*i+3] = s0[i], s1[i], s2[i], s3[i]
	}
}

func joinStreams8(src []byte, n int, dst []byte) {
	var s [8][]byte
	for k := range s {
		s[k] = src[k*n : (k+1)*n]
	}
	i := 0
	for ; i+8 <= n; i += 8 {
		w0, w1 := binary.LittleEndian.Uint64(s[0][i:]), binary.LittleEndian.Uint64(s[1][i:])
		w2, w3 := binary.LittleEndian.Uint64(s[2][i:]), binary.LittleEndian.Uint64(s[3][i:])
		w4, w5 := binary.LittleEndian.Uint64(s[4][i:]), binary.LittleEndian.Uint64(s[5][i:])
		w6, w7 := binary.LittleEndian.Uint64(s[6][i:]), binary.LittleEndian.Uint64(s[7][i:])
		swapBytes(&w0, &w1, 8, evenBytes)
		swapBytes(&w2, &w3, 8, evenBytes)
		swapBytes(&w4, &w5, 8, evenBytes)
		swapBytes(&w6, &w7, 8, evenBytes)
		swapBytes(&w0, &w2, 16, evenPairs)
		swapBytes(&w1, &w3, 16, evenPairs)
		swapBytes(&w4, &w6, 16, evenPairs)
		swapBytes(&w5, &w7, 16, evenPairs)
		swapBytes(&w0, &w4, 32, evenQuads)
		swapBytes(&w1, &w5, 32, evenQuads)
		swapBytes(&w2, &w6, 32, evenQuads)
		swapBytes(&w3, &w7, 32, evenQuads)
		out := dst[8*i : 8*i+64]
		binary.LittleEndian.PutUint64(out, w0)
		binary.LittleEndian.PutUint64(out[8:], w1)
		binary.LittleEndian.PutUint64(out[16:], w2)
		binary.LittleEndian.PutUint64(out[24:], w3)
		binary.LittleEndian.PutUint64(out[32:], w4)
		binary.LittleEndian.PutUint64(out[40:], w5)
		binary.LittleEndian.PutUint64(out[48:], w6)
		binary.LittleEndian.PutUint64(out[56:], w7)
	}
	for ; i < n; i++ {
		v := uint64(s[0][i]) | uint64(s[1][i])<<8 | uint64(s[2][i])<<16 | uint64(s[3][i])<<24 |
			uint64(s[4][i])<<32 | uint64(s[5][i])<<40 | uint64(s[6][i])<<48 | uint64(s[7][i])<<56
		binary.LittleEndian.PutUint64(dst[8*i:], v)
	}
}
