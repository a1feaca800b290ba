package parquetfile

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUnpackRunWidths decodes bit-packed runs of every index width and of
// lengths around the group and slack boundaries, against parquet-go's
// encoder; the run ends exactly at the end of its bytes, so the last
// groups take the paths without slack.
func TestUnpackRunWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for width := 1; width <= 32; width++ {
		for _, n := range []int{1, 7, 8, 9, 16, 63, 64, 65, 200, 1000} {
			vals := make([]int32, n)
			for i := range vals {
				vals[i] = int32(rng.Uint64() & (1<<width - 1))
			}
			// Bit-packed only (RLE would hide the unpacking): distinct
			// neighbours keep parquet-go from choosing runs.
			for i := 1; i < n && width > 1; i++ {
				if vals[i] == vals[i-1] {
					vals[i] ^= 1
				}
			}
			src := append([]byte{byte(width)}, encodeHybrid(t, width, vals)...)
			got := make([]int32, n)
			if err := decodeIndexes(src, 1<<width, got); err != nil {
				t.Fatalf("width %d, %d values: %v", width, n, err)
			}
			if !slices.Equal(got, vals) {
				t.Fatalf("width %d, %d values: got %v, want %v", width, n, got[:min(n, 16)], vals[:min(n, 16)])
			}
			if width > 8 {
				continue
			}
			levels := make([]byte, n)
			if _, err := decodeLevels(src[1:], byte(1<<width-1), levels); err != nil {
				t.Fatalf("levels width %d, %d values: %v", width, n, err)
			}
			for i, v := range vals {
				if levels[i] != byte(v) {
					t.Fatalf("levels width %d: level %d = %d, want %d", width, i, levels[i], v)
				}
			}
		}
	}
}

// TestDecodeIndexesRange: an index past the dictionary is caught in
// bit-packed groups too, wherever it sits.
func TestDecodeIndexesRange(t *testing.T) {
	for _, at := range []int{0, 7, 8, 63, 99} {
		vals := make([]int32, 100)
		for i := range vals {
			vals[i] = int32(i % 10)
		}
		vals[at] = 12
		src := append([]byte{4}, encodeHybrid(t, 4, vals)...)
		if err := decodeIndexes(src, 10, make([]int32, 100)); err == nil {
			t.Fatalf("index 12 at %d of a 10-entry dictionary accepted", at)
		}
	}
}
