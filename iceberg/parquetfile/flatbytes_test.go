package parquetfile

import (
	"bytes"
	"slices"
	"testing"
)

// dictChunk is a chunk bound to a dictionary of vals.
func dictChunk(vals []string) *chunkData {
	c := &chunkData{off: []int32{0}, maxDef: 1}
	for _, s := range vals {
		c.bin = append(c.bin, s...)
		c.off = append(c.off, int32(len(c.bin)))
	}
	return c
}

// The word-table path for small dictionaries of short values gives the
// bytes and offsets of the general path (taken here through definition
// levels that are all defined), after existing data too.
func TestShortDictionaryGather(t *testing.T) {
	tests := []struct {
		name string
		dict []string
	}{
		{"short values", []string{"a", "", "music", "sixteen-bytes-xx", "é"}},
		{"a long value falls back", []string{"a", "seventeen-bytes-x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dictChunk(tc.dict)
			n := 64
			idx := make([]int32, n)
			defs := make([]byte, n)
			for i := range idx {
				idx[i] = int32((i * 7) % len(tc.dict))
				defs[i] = 1
			}
			prefix := []byte("existing")
			fastOffs, slowOffs := make([]int32, n+1), make([]int32, n+1)
			fastOffs[0], slowOffs[0] = int32(len(prefix)), int32(len(prefix))
			fast, ok1 := appendDictBytes(slices.Clone(prefix), fastOffs, c, idx, nil)
			slow, ok2 := appendDictBytes(slices.Clone(prefix), slowOffs, c, idx, defs)
			if !ok1 || !ok2 {
				t.Fatal("overflow reported")
			}
			if !bytes.Equal(fast, slow) || !slices.Equal(fastOffs, slowOffs) {
				t.Fatalf("word path %q %v\ngeneral path %q %v", fast, fastOffs, slow, slowOffs)
			}
		})
	}
}
