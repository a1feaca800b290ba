package parquetfile

import (
	"bytes"
	"context"
	"io"
	"testing"
)

// BenchmarkScanPageChecksums reads the benchmark file (zstd, as written
// by default) with page CRCs verified (the default) and skipped, on one
// decoding goroutine so the difference is the checksum's cost.
func BenchmarkScanPageChecksums(b *testing.B) {
	data := benchFile(b, 0)
	for _, verify := range []bool{true, false} {
		name := "verify"
		if !verify {
			name = "skip"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				r, err := Open(bytes.NewReader(data), int64(len(data)))
				if err != nil {
					b.Fatal(err)
				}
				if !verify {
					r.SkipChecksums()
				}
				rr, err := r.NewRecordReader(context.Background(), benchSchema(), ReadOptions{Concurrency: 1})
				if err != nil {
					b.Fatal(err)
				}
				n := int64(0)
				for {
					rec, err := rr.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n += rec.NumRows()
					rec.Release()
				}
				rr.Close()
				if n != benchRows {
					b.Fatalf("%d rows, want %d", n, benchRows)
				}
			}
		})
	}
}
