package datafile

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TakeRows gathers rows idx of rec, in that order, into a new record the
// caller releases. Indexes outside the record are an error.
func TakeRows(ctx context.Context, rec arrow.RecordBatch, idx []int32) (arrow.RecordBatch, error) {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	b.AppendValues(idx, nil)
	ia := b.NewInt32Array()
	b.Release()
	defer ia.Release()
	out, err := compute.Take(ctx, *compute.DefaultTakeOptions(), compute.NewDatum(rec), compute.NewDatum(ia))
	if err != nil {
		return nil, fmt.Errorf("datafile: taking %d of %d rows: %w", len(idx), rec.NumRows(), err)
	}
	return out.(*compute.RecordDatum).Value, nil
}
