package iceberg

import (
	"encoding/json"
	"fmt"
	"io"
	"testing"
)

func BenchmarkParseMetadata(b *testing.B) {
	data := readMetadataFixture(b, "v2-java.metadata.json")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseMetadata(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalMetadata(b *testing.B) {
	m := mustParseFixture(b, "v2-java.metadata.json")
	for b.Loop() {
		if _, err := json.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommitEncodeHistory: the metadata side of one commit on a
// table with 10, 1,000 or 10,000 snapshots: build the next version with
// one more snapshot and encode its metadata.json (to io.Discard), plain
// and gzipped. Plain copies the history's encoding from the cache;
// gzipped copies its compressed runs, so it stays flat.
func BenchmarkCommitEncodeHistory(b *testing.B) {
	for _, gz := range []bool{false, true} {
		for _, n := range []int{10, 1000, 10000} {
			name := fmt.Sprintf("plain/snapshots=%d", n)
			if gz {
				name = fmt.Sprintf("gzip/snapshots=%d", n)
			}
			b.Run(name, func(b *testing.B) {
				m := newTestTable(b, nil)
				for id := int64(1); id <= int64(n); id++ {
					m = appendSnapshot(b, m, id)
				}
				if err := WriteMetadata(io.Discard, m, gz); err != nil {
					b.Fatal(err)
				}
				id := int64(n)
				var out countingWriter
				for b.Loop() {
					id++
					m = appendSnapshot(b, m, id)
					out = 0
					if err := WriteMetadata(&out, m, gz); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(out), "metadata-bytes")
			})
		}
	}
}

type countingWriter int64

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}
