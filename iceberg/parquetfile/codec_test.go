package parquetfile

import (
	"bytes"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
)

// Writers share one codec per name: files written at once, each with
// pages compressed concurrently, must all read back intact by pqarrow.
func TestSharedCodecsConcurrentWriters(t *testing.T) {
	s := allTypesSchema()
	for _, codec := range []string{"zstd", "snappy", "gzip", "uncompressed"} {
		t.Run(codec, func(t *testing.T) {
			const writers = 6
			recs := make([]arrow.RecordBatch, writers)
			files := make([][]byte, writers)
			errs := make([]error, writers)
			var wg sync.WaitGroup
			for i := range writers {
				rec := randomRecord(s, 2000, uint64(i+1))
				defer rec.Release()
				recs[i] = rec
				wg.Go(func() {
					files[i], errs[i] = writeBytes(s, WriterOptions{Compression: codec, PageSizeBytes: 2048, Concurrency: 3}, rec)
				})
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			for i, data := range files {
				tbl := readWithPqarrow(t, data)
				want := recs[i]
				for c := 0; c < int(tbl.NumCols()); c++ {
					got, err := array.Concatenate(tbl.Column(c).Data().Chunks(), memory.DefaultAllocator)
					if err != nil {
						t.Fatal(err)
					}
					sameValues(t, tbl.Column(c).Name(), want.Column(c), got)
					got.Release()
				}
				tbl.Release()
			}
		})
	}
}

// writeBytes is writeFile for goroutines other than the test's.
func writeBytes(s *iceberg.Schema, opts WriterOptions, rec arrow.RecordBatch) ([]byte, error) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, opts)
	if err != nil {
		return nil, err
	}
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	_, err = w.Close()
	return buf.Bytes(), err
}
