package parquetfile

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// BenchmarkDecodeIndexes decodes 64Ki bit-packed dictionary indexes of
// the widths of a small and a large dictionary.
func BenchmarkDecodeIndexes(b *testing.B) {
	for _, width := range []int{3, 14} {
		n := 65536
		vals := make([]int32, n)
		for i := range vals {
			vals[i] = int32(i * 7919 % (1<<width - 1)) // below the size: range checked
		}
		src := append([]byte{byte(width)}, encodeHybrid(b, width, vals)...)
		out := make([]int32, n)
		b.Run(map[int]string{3: "width3", 14: "width14"}[width], func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				if err := decodeIndexes(src, 1<<width-1, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompactByteArrays compacts a page of 64Ki PLAIN strings of
// 16 bytes (a name column).
func BenchmarkCompactByteArrays(b *testing.B) {
	n := 65536
	var page []byte
	for i := range n {
		v := fmt.Sprintf("customer-%07d", i*7919%n)
		page = binary.LittleEndian.AppendUint32(page, uint32(len(v)))
		page = append(page, v...)
	}
	work := make([]byte, len(page))
	var off []int32
	b.SetBytes(int64(n))
	for b.Loop() {
		copy(work, page)
		var err error
		if _, off, err = compactByteArrays(work, n, off); err != nil {
			b.Fatal(err)
		}
	}
}
