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

func joinStreams4(src []byte, n int, dst []byte) {
	s0, s1, s2, s3 := src[:n], src[n:2*n], src[2*n:3*n], src[3*n:4*n]
	i := 0
	// Eight values at a time: a word from each stream, spread into the
	// four bytes of each value.
	for ; i+8 <= n; i += 8 {
		a, b := binary.LittleEndian.Uint64(s0[i:]), binary.LittleEndian.Uint64(s1[i:])
		c, d := binary.LittleEndian.Uint64(s2[i:]), binary.LittleEndian.Uint64(s3[i:])
		out := dst[4*i : 4*i+32]
		for j := range 4 {
			sh := 16 * uint(j)
			lo := uint64(byte(a>>sh)) | uint64(byte(b>>sh))<<8 | uint64(byte(c>>sh))<<16 | uint64(byte(d>>sh))<<24
			sh += 8
			hi := uint64(byte(a>>sh)) | uint64(byte(b>>sh))<<8 | uint64(byte(c>>sh))<<16 | uint64(byte(d>>sh))<<24
			binary.LittleEndian.PutUint64(out[8*j:], lo|hi<<32)
		}
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
	for i := range n {
		v := uint64(s[0][i]) | uint64(s[1][i])<<8 | uint64(s[2][i])<<16 | uint64(s[3][i])<<24 |
			uint64(s[4][i])<<32 | uint64(s[5][i])<<40 | uint64(s[6][i])<<48 | uint64(s[7][i])<<56
		binary.LittleEndian.PutUint64(dst[8*i:], v)
	}
}
