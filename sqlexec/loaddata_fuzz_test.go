package sqlexec

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// FuzzLoadDataCSV reads arbitrary bytes as a LOAD DATA file: every input
// gives batches or a *LoadDataError, never a panic.
func FuzzLoadDataCSV(f *testing.F) {
	for _, seed := range []string{
		"1,a,1.5,2024-01-01\n",
		"\"x\"\"y\",\\N,,\n",
		"1,2\n3\n",
		"\"unterminated\n",
		"9223372036854775808,a,1e400,2024-02-30\n",
	} {
		f.Add([]byte(seed), uint8(0))
	}
	target := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	}, nil)
	f.Fuzz(func(t *testing.T, data []byte, skip uint8) {
		cr := csv.NewReader(bytes.NewReader(data))
		cr.FieldsPerRecord = -1
		cr.ReuseRecord = true
		it := &csvIterator{path: "fuzz.csv", cr: cr, target: target, fieldCol: []int{0, 1, 2, 3}, skip: uint64(skip % 4)}
		defer it.Close()
		for {
			b, err := it.Next(context.Background())
			if err != nil {
				var le *LoadDataError
				if !errors.As(err, &le) || le.Line < 1 {
					t.Fatalf("error %T %v", err, err)
				}
				return
			}
			if b == nil {
				return
			}
			if b.NumCols() != 4 {
				t.Fatalf("%d columns", b.NumCols())
			}
			b.Release()
		}
	})
}
