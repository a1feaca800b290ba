package parquetfile

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/parquettest"
)

// paddedColumns are columns whose nulls, list lengths and dictionary
// indexes make DuckDB write bit-packed runs, the last padded to 256 values.
func paddedColumns(n int) []parquettest.Column {
	ints, strs, lists := make([]any, n), make([]any, n), make([]any, n)
	for i := range n {
		if i%3 != 1 {
			ints[i] = int64(i * 7)
		}
		if i%5 != 2 {
			strs[i] = fmt.Sprintf("s%d", i%11)
		}
		switch i % 4 {
		case 0:
			lists[i] = []any{int64(i), nil, int64(-i)}
		case 1:
			lists[i] = []any{}
		case 2:
			lists[i] = []any{int64(i)}
		}
	}
	return []parquettest.Column{
		{Name: "i", FieldID: 1, Kind: parquettest.Int64, Values: ints},
		{Name: "s", FieldID: 2, Kind: parquettest.String, Dictionary: true, Values: strs},
		{Name: "l", FieldID: 3, Kind: parquettest.Int64List, Values: lists},
		{Name: "ld", FieldID: 5, Kind: parquettest.Int64List, Dictionary: true, Values: lists},
	}
}

func paddedSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		opt(1, "i", iceberg.LongType{}),
		opt(2, "s", iceberg.StringType{}),
		opt(3, "l", &iceberg.ListType{ElementID: 4, Element: iceberg.LongType{}}),
		opt(5, "ld", &iceberg.ListType{ElementID: 6, Element: iceberg.LongType{}}),
	)
}

// TestReadPaddedBitPackedRuns reads files laid out as DuckDB writes them:
// every bit-packed run of levels and dictionary indexes is a block of 256
// values, the last zero-padded past the page's count (the format lets a
// final bit-packed run be padded; readers ignore values past the count).
// Rows agree with arrow-go's reader.
func TestReadPaddedBitPackedRuns(t *testing.T) {
	for _, n := range []int{1, 3, 255, 256, 257, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			data, err := parquettest.File(paddedColumns(n)...)
			if err != nil {
				t.Fatal(err)
			}
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fr.ReadTable(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			for _, batch := range []int{100, 4096} {
				got := readAll(t, data, paddedSchema(), ReadOptions{BatchSize: batch})
				for i, f := range paddedSchema().Fields() {
					sameValues(t, f.Name, column(t, want, i), column(t, got, i))
				}
				got.Release()
			}
		})
	}
}
