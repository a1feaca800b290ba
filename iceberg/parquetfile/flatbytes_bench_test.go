package parquetfile

import "testing"

// BenchmarkAppendDictBytes gathers 64Ki values of an 8-entry dictionary
// of short strings (a category column).
func BenchmarkAppendDictBytes(b *testing.B) {
	c := dictChunk([]string{"books", "games", "music", "garden", "tools", "toys", "food", "sport"})
	n := 65536
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i % 8)
	}
	offs := make([]int32, n+1)
	data := make([]byte, 0, n*8)
	b.SetBytes(int64(n))
	for b.Loop() {
		data, _ = appendDictBytes(data[:0], offs, c, idx, nil)
	}
}
