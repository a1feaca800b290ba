package parquetfile

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestScratchReaderReusesPages reads files with ReadOptions.Scratch and
// without, record by record: each scratch record must equal the plain
// one while it is current, its pages' memory must be reused once the
// next is asked for (poisoned on reuse, so a record that still viewed a
// reused body would differ), and bodies must actually be reclaimed.
func TestScratchReaderReusesPages(t *testing.T) {
	s := flatTypesSchema()
	rec := randomRecord(s, 5000, 17)
	defer rec.Release()
	poisonReclaimed = true
	defer func() { poisonReclaimed = false }()
	cases := map[string][]parquet.WriterProperty{
		"plain-zstd":     {parquet.WithDictionaryDefault(false), parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDataPageSize(4 << 10)},
		"plain-none":     {parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(4 << 10)},
		"dict-snappy":    {parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDataPageSize(4 << 10), parquet.WithDictionaryPageSizeLimit(1 << 10)},
		"one-page-group": {parquet.WithDictionaryDefault(false), parquet.WithCompression(compress.Codecs.Zstd), parquet.WithMaxRowGroupLength(1000)},
	}
	for name, opts := range cases {
		data := writePqarrow(t, rec, parquet.NewWriterProperties(append([]parquet.WriterProperty{parquet.WithBatchSize(256)}, opts...)...), pqarrow.DefaultWriterProps())
		for _, batch := range []int{97, 1024} {
			t.Run(fmt.Sprintf("%s/batch=%d", name, batch), func(t *testing.T) {
				open := func(scratch bool) *RecordReader {
					r, err := Open(bytes.NewReader(data), int64(len(data)))
					if err != nil {
						t.Fatal(err)
					}
					rr, err := r.NewRecordReader(t.Context(), s, ReadOptions{BatchSize: batch, Scratch: scratch})
					if err != nil {
						t.Fatal(err)
					}
					return rr
				}
				plain, scratch := open(false), open(true)
				defer plain.Close()
				defer scratch.Close()
				before := reclaimedBodies.Load()
				rows := 0
				for {
					want, err1 := plain.Next()
					got, err2 := scratch.Next()
					if (err1 == nil) != (err2 == nil) {
						t.Fatalf("row %d: plain %v, scratch %v", rows, err1, err2)
					}
					if err1 != nil {
						break
					}
					sameRecord(t, rows, want, got)
					rows += int(got.NumRows())
					want.Release()
					got.Release()
				}
				if rows != 5000 {
					t.Fatalf("read %d rows", rows)
				}
				if name != "dict-snappy" && reclaimedBodies.Load() == before {
					t.Error("no page body was reused")
				}
			})
		}
	}
}

func sameRecord(t *testing.T, row int, want, got arrow.RecordBatch) {
	t.Helper()
	if want.NumRows() != got.NumRows() || want.NumCols() != got.NumCols() {
		t.Fatalf("row %d: %dx%d, want %dx%d", row, got.NumRows(), got.NumCols(), want.NumRows(), want.NumCols())
	}
	for i := range want.NumCols() {
		sameValues(t, want.ColumnName(int(i)), want.Column(int(i)), got.Column(int(i)))
	}
}
