package parquetfile

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/icesql/icesql/internal/parquettest"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/rle"
)

// encodeHybrid encodes values of width bits with parquet-go's encoder.
func encodeHybrid(t testing.TB, width int, values []int32) []byte {
	t.Helper()
	enc := rle.Encoding{BitWidth: width}
	out, err := enc.EncodeInt32(nil, values)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDecodeHybrid(t *testing.T) {
	runs := func(vals ...[2]int) []int32 { // (value, count) pairs
		var out []int32
		for _, v := range vals {
			for range v[1] {
				out = append(out, int32(v[0]))
			}
		}
		return out
	}
	mixed := make([]int32, 1000)
	for i := range mixed {
		mixed[i] = int32(i * 7919 % 13)
	}
	for _, tc := range []struct {
		name   string
		width  int
		values []int32
		padded bool // encoded as DuckDB does, the last bit-packed run padded to 256 values
	}{
		{"one run", 1, runs([2]int{1, 100}), false},
		{"alternating", 1, runs([2]int{1, 3}, [2]int{0, 1}, [2]int{1, 9}, [2]int{0, 20}), false},
		{"bit-packed 4", 4, mixed, false},
		{"odd count", 4, mixed[:13], false},
		{"wide", 17, []int32{1 << 16, 3, 5, 99999, 0, 1, 2, 3, 4, 5}, false},
		{"padded odd count", 4, mixed[:13], true},
		{"padded after rle", 2, runs([2]int{3, 40}, [2]int{1, 1}, [2]int{2, 1}, [2]int{0, 1}), true},
		{"padded 1000", 4, mixed, true},
		{"padded wide", 17, []int32{1 << 16, 3, 5, 99999, 0, 1, 2, 3, 4, 5}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := encodeHybrid(t, tc.width, tc.values)
			if tc.padded {
				u := make([]uint32, len(tc.values))
				for i, v := range tc.values {
					u[i] = uint32(v)
				}
				src = parquettest.PaddedHybrid(uint(tc.width), u)
			}
			got := make([]int32, len(tc.values))
			withWidth := append([]byte{byte(tc.width)}, src...)
			if err := decodeIndexes(withWidth, 1<<tc.width, got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.values) {
				t.Fatalf("indexes %v, want %v", got[:min(20, len(got))], tc.values[:min(20, len(got))])
			}
			if tc.width > 8 {
				return
			}
			levels := make([]byte, len(tc.values))
			max := byte(1<<tc.width - 1)
			full, err := decodeLevels(src, max, levels)
			if err != nil {
				t.Fatal(err)
			}
			wantFull := 0
			for i, v := range tc.values {
				if levels[i] != byte(v) {
					t.Fatalf("level %d = %d, want %d", i, levels[i], v)
				}
				if byte(v) == max {
					wantFull++
				}
			}
			if full != wantFull {
				t.Fatalf("%d levels at max, want %d", full, wantFull)
			}
		})
	}
}

func TestDecodeHybridRejects(t *testing.T) {
	uv := func(v uint64) []byte { return binary.AppendUvarint(nil, v) }
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"levels stream ends early", func() error {
			_, err := decodeLevels(append(uv(10<<1), 1), 1, make([]byte, 20))
			return err
		}},
		{"rle run longer than the page", func() error {
			_, err := decodeLevels(append(uv(1_000_000<<1), 1), 1, make([]byte, 20))
			return err
		}},
		{"bit-packed run truncated before the page's count", func() error {
			src := append(uv(1_000_000<<1|1), 0xff)
			_, err := decodeLevels(src, 1, make([]byte, 20))
			return err
		}},
		{"level above maximum", func() error {
			_, err := decodeLevels(append(uv(4<<1), 3), 2, make([]byte, 4))
			return err
		}},
		{"malformed run header", func() error {
			_, err := decodeLevels(bytes.Repeat([]byte{0xff}, 11), 1, make([]byte, 4))
			return err
		}},
		{"index out of dictionary (rle)", func() error {
			return decodeIndexes(append([]byte{3}, append(uv(4<<1), 5)...), 5, make([]int32, 4))
		}},
		{"index out of dictionary (bit-packed)", func() error {
			return decodeIndexes(append([]byte{3}, append(uv(1<<1|1), 0xff, 0xff, 0xff)...), 5, make([]int32, 8))
		}},
		{"index width above 32", func() error {
			return decodeIndexes([]byte{33, 2, 0}, 5, make([]int32, 1))
		}},
		{"indexes missing", func() error {
			return decodeIndexes(nil, 5, make([]int32, 1))
		}},
		{"byte array past the page", func() error {
			src := binary.LittleEndian.AppendUint32(nil, 100)
			_, _, err := compactByteArrays(append(src, "abc"...), 1, nil)
			return err
		}},
		{"byte array lengths truncated", func() error {
			_, _, err := compactByteArrays([]byte{1, 0, 0, 0, 'a', 2, 0}, 2, nil)
			return err
		}},
		{"plain values short", func() error {
			c := chunkData{kind: pq.Int64, bufs: new(pageBufs)}
			return c.appendPlainValues(make([]byte, 15), 2, true)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.run(); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

// FuzzHybrid feeds arbitrary streams to the level, index and byte-array
// decoders: errors are fine, panics are not, and decoded values stay in
// range.
func FuzzHybrid(f *testing.F) {
	f.Add(encodeHybrid(f, 3, []int32{1, 2, 3, 4, 5, 6, 7, 0, 1}), uint16(9), byte(3))
	f.Add([]byte{2, 0xff, 1}, uint16(100), byte(1))
	f.Fuzz(func(t *testing.T, src []byte, n uint16, max byte) {
		levels := make([]byte, n)
		if _, err := decodeLevels(src, max, levels); err == nil {
			for _, l := range levels {
				if l > max {
					t.Fatalf("level %d above %d", l, max)
				}
			}
		}
		idx := make([]int32, n)
		if err := decodeIndexes(src, int(max), idx); err == nil {
			for _, x := range idx {
				if x < 0 || int(x) >= int(max) {
					t.Fatalf("index %d outside %d", x, max)
				}
			}
		}
		_ = decodeBools(src, make([]bool, n))
		buf := append([]byte{}, src...)
		if bin, off, err := compactByteArrays(buf, int(n), nil); err == nil {
			for i := range int(n) {
				if off[i] > off[i+1] || int(off[i+1]) > len(bin) {
					t.Fatalf("offsets %d..%d outside %d bytes", off[i], off[i+1], len(bin))
				}
			}
		}
	})
}
