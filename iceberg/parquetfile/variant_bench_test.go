package parquetfile

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/variant"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// BenchmarkVariantWriteRead writes and reads back 10k small JSON objects
// as an unshredded variant column.
func BenchmarkVariantWriteRead(b *testing.B) {
	s := variantSchema()
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		b.Fatal(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, as)
	for i := range 10_000 {
		bld.Field(0).(*array.Int64Builder).Append(int64(i))
		v, err := variant.ParseJSON(fmt.Sprintf(`{"id": %d, "name": "user-%d", "tags": ["a", "b"]}`, i, i), false)
		if err != nil {
			b.Fatal(err)
		}
		bld.Field(1).(*extensions.VariantBuilder).Append(v)
	}
	rec := bld.NewRecordBatch()
	bld.Release()
	defer rec.Release()
	for b.Loop() {
		data, _ := writeFile(b, s, WriterOptions{}, rec)
		tbl := readAllB(b, data)
		tbl.Release()
	}
}

func readAllB(b *testing.B, data []byte) arrow.Table {
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	rr, err := r.NewRecordReader(context.Background(), variantSchema(), ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	recs, err := rr.ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	tbl := array.NewTableFromRecords(rr.Schema(), recs)
	for _, rec := range recs {
		rec.Release()
	}
	return tbl
}
