package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
)

// FuzzReader feeds arbitrary bytes (seeded with valid files) through Open
// and a full read: errors are fine, panics are not.
func FuzzReader(f *testing.F) {
	s := allTypesSchema()
	rec := randomRecord(s, 50, 9)
	defer rec.Release()
	for _, codec := range []string{"uncompressed", "snappy"} {
		data, _ := writeFile(f, s, WriterOptions{Compression: codec}, rec)
		f.Add(data)
	}
	// Files of another writer: data page v2, dictionary and PLAIN pages,
	// DELTA_* pages.
	flat := randomRecord(flatTypesSchema(), 40, 3)
	defer flat.Release()
	for _, name := range []string{"v2-dict-snappy", "v1-plain-none", "v2-plain-none", "v2-delta"} {
		f.Add(writePqarrow(f, flat, parquet.NewWriterProperties(pqarrowCases()[name]...), pqarrow.DefaultWriterProps()))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if !errors.Is(err, iceberg.ErrInvalidDataFile) {
				t.Fatalf("open error not ErrInvalidDataFile: %v", err)
			}
			return
		}
		fs, err := r.Schema(nil)
		if err != nil {
			return
		}
		// half the inputs read as scratch, reusing their pages' memory
		rr, err := r.NewRecordReader(context.Background(), fs, ReadOptions{BatchSize: 17, Scratch: len(data)%2 == 1})
		if err != nil {
			return
		}
		defer rr.Close()
		for {
			rec, err := rr.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, iceberg.ErrInvalidDataFile) {
					t.Fatalf("read error not ErrInvalidDataFile: %v", err)
				}
				return
			}
			rec.Release()
		}
	})
}
