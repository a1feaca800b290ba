package dml

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

// ReadTable reads every live row of the table's current snapshot, with
// position and equality deletes applied, in the table's columns. The
// caller releases the records.
func ReadTable(ctx context.Context, t *table.Table) ([]arrow.RecordBatch, error) {
	tt, err := newTargetTable(t, nil)
	if err != nil {
		return nil, err
	}
	cols := make([]int, tt.cols.NumFields())
	for i := range cols {
		cols[i] = i
	}
	it, err := tt.Scan(ctx, planner.ScanRequest{Columns: cols, Limit: -1})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	return exec.Collect(ctx, it)
}
