package parquetfile

import (
	"strings"
	"testing"
)

// TestBuildDeltaValues builds every pair of prefix and suffix lengths up
// to 20 bytes (both sides of the 16-byte word path), suffixes at the end
// of the data too, against copying byte by byte.
func TestBuildDeltaValues(t *testing.T) {
	alphabet := "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for _, tailRoom := range []int{0, 16} {
		var prefix []int32
		var suffixes []string
		prev := ""
		var want []string
		k := 0
		for p := 0; p <= 20; p++ {
			for s := 0; s <= 20; s++ {
				// A value of p+20 bytes first, so the next can take p.
				base := strings.Repeat(alphabet[k%len(alphabet):k%len(alphabet)+1], 20) + alphabet[:p]
				k++
				common := 0
				for common < len(prev) && common < len(base) && prev[common] == base[common] {
					common++
				}
				prefix, suffixes, want = append(prefix, int32(common)), append(suffixes, base[common:]), append(want, base)
				v := base[:p] + alphabet[len(alphabet)-s:]
				prefix, suffixes, want = append(prefix, int32(p)), append(suffixes, v[p:]), append(want, v)
				prev = v
			}
		}
		data := []byte(strings.Join(suffixes, "") + strings.Repeat("#", tailRoom))
		off := []int32{0}
		total := 0
		for i, s := range suffixes {
			off = append(off, off[i]+int32(len(s)))
			total += len(want[i])
		}
		out := make([]byte, total+deltaCopySlack)
		w := buildDeltaValues(out, data, prefix, off)
		if w != total {
			t.Fatalf("wrote %d bytes, want %d", w, total)
		}
		for i, v := range want {
			if got := string(out[off[i]:off[i+1]]); got != v {
				t.Fatalf("tail room %d, value %d (prefix %d): %q, want %q", tailRoom, i, prefix[i], got, v)
			}
		}
	}
}
