package iceberg

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
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
// one more snapshot (and, in the expire cases, without its oldest) and
// encode its metadata.json, plain and gzipped. Plain copies the history's
// encoding from the cache; gzipped copies its compressed runs, so it
// stays flat.
func BenchmarkCommitEncodeHistory(b *testing.B) {
	for _, mode := range []string{"plain", "gzip", "plain-expire-oldest", "gzip-expire-oldest"} {
		gz, expire := strings.HasPrefix(mode, "gzip"), strings.HasSuffix(mode, "expire-oldest")
		for _, n := range []int{10, 1000, 10000} {
			name := fmt.Sprintf("%s/snapshots=%d", mode, n)
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
					if expire {
						eb := NewMetadataBuilder(m)
						if err := eb.RemoveSnapshots(m.Snapshots()[0].SnapshotID); err != nil {
							b.Fatal(err)
						}
						var err error
						if m, err = eb.Build(); err != nil {
							b.Fatal(err)
						}
					}
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
