package scan

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// BenchmarkInlineManifest builds the list entry of a 1000-file v1
// manifest, which reads and decodes every entry to count them.
func BenchmarkInlineManifest(b *testing.B) {
	entries := make([]iceberg.ManifestEntry, 1000)
	for i := range entries {
		entries[i] = entry(b, iceberg.StatusAdded, fmt.Sprintf("data-%d.parquet", i), "x", 100)
	}
	_, data := writeV1Manifest(b, b.TempDir(), "m.avro", inlineSpec, entries...)
	open := func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		mf, err := InlineManifest(open, "m.avro", 1)
		if err != nil || mf.AddedFilesCount != 1000 {
			b.Fatal(mf, err)
		}
	}
}
