package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/icesql/icesql/iceberg"
)

// FuzzDelta feeds arbitrary bytes to the DELTA_* and BYTE_STREAM_SPLIT
// decoders alone (mode picks the decoder, n the values expected): errors
// are fine, panics are not, and what decodes is well formed.
func FuzzDelta(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	ints := make([]int64, 300)
	for i := range ints {
		ints[i] = r.Int64() >> r.IntN(64)
	}
	f.Add(encodeDelta(ints, 128, 4, true), uint16(300), uint8(0))
	f.Add(encodeDelta(ints, 256, 8, false), uint16(300), uint8(1))
	lens := encodeDelta([]int64{3, 0, 5}, 128, 4, true)
	f.Add(append(lens, "abcdefgh"...), uint16(3), uint8(2))
	prefixed := append(encodeDelta([]int64{0, 2, 1}, 128, 4, true), encodeDelta([]int64{3, 1, 2}, 128, 4, true)...)
	f.Add(append(prefixed, "abcdxy"...), uint16(3), uint8(3))
	f.Add(make([]byte, 24), uint16(6), uint8(4))
	f.Add(make([]byte, 24), uint16(3), uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, n16 uint16, mode uint8) {
		n := int(n16) % 4096 // larger counts only slow each run down
		switch mode % 5 {
		case 0:
			if _, err := decodeDeltaBinary(data, make([]int32, n)); err == nil && checkDeltaCount(data, n) != nil {
				t.Fatal("decoded a stream whose count differs")
			}
		case 1:
			k, err := decodeDeltaBinary(data, make([]int64, n))
			if err == nil && (k < 0 || k > len(data)) {
				t.Fatalf("read %d of %d bytes", k, len(data))
			}
		case 2:
			bin, off, err := decodeDeltaLengthBytes(data, n, nil)
			if err == nil {
				checkDecodedOffsets(t, bin, off, n)
			}
		case 3:
			width := int(mode/5) % 4 // 0: BYTE_ARRAY
			bin, off, err := decodeDeltaByteArray(data, n, nil, 1<<20, width, func(size int) []byte { return make([]byte, size) })
			if err == nil && width == 0 {
				checkDecodedOffsets(t, bin, off, n)
			}
			if err == nil && width > 0 && len(bin) != n*width {
				t.Fatalf("%d bytes for %d values of width %d", len(bin), n, width)
			}
		case 4:
			width := 1 + int(mode/5)%16
			if len(data) == n*width {
				if err := decodeByteStreamSplit(data, n, width, make([]byte, n*width)); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

func checkDecodedOffsets(t *testing.T, bin []byte, off []int32, n int) {
	t.Helper()
	if len(off) != n+1 || off[0] != 0 || int(off[n]) != len(bin) {
		t.Fatalf("%d offsets for %d values in %d bytes", len(off), n, len(bin))
	}
	for i := range n {
		if off[i+1] < off[i] {
			t.Fatalf("offset %d decreases", i+1)
		}
	}
}

// FuzzReadDeltaFile is FuzzReader seeded with files of DELTA_* and
// BYTE_STREAM_SPLIT pages, so mutations land in their streams.
func FuzzReadDeltaFile(f *testing.F) {
	s := flatTypesSchema()
	rec := randomRecord(s, 40, 5)
	defer rec.Release()
	for _, profile := range deltaProfiles() {
		for _, v2 := range []bool{false, true} {
			f.Add(writeDeltaFile(f, rec, profile, v2, compress.Codecs.Uncompressed))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		rr, err := r.NewRecordReader(context.Background(), s, ReadOptions{BatchSize: 17})
		if err != nil {
			return
		}
		defer rr.Close()
		for {
			b, err := rr.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, iceberg.ErrInvalidDataFile) {
					t.Fatalf("read error not ErrInvalidDataFile: %v", err)
				}
				return
			}
			b.Release()
		}
	})
}
