package sqlexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/exec"
)

// Spark's change types (_change_type).
const (
	changeInsert       = "INSERT"
	changeDelete       = "DELETE"
	changeUpdateBefore = "UPDATE_BEFORE"
	changeUpdateAfter  = "UPDATE_AFTER"
)

// changeBatch is a batch of changed rows (the table's columns) of one
// commit.
type changeBatch struct {
	rec        arrow.RecordBatch
	ordinal    int
	snapshotID int64
}

// changeRow is one changelog row: a row of a batch and its change type.
type changeRow struct {
	batch *changeBatch
	row   int
	typ   string
	key   string // the row's values, for matching delete/insert pairs
}

// readChangelog reads the changed rows of the tasks in the table's current
// schema. The caller releases the batches.
func readChangelog(ctx context.Context, t *table.Table, tasks []scan.ChangelogTask) ([]*changeBatch, []changeRow, error) {
	var batches []*changeBatch
	var rows []changeRow
	fail := func(err error) ([]*changeBatch, []changeRow, error) {
		for _, b := range batches {
			b.rec.Release()
		}
		return nil, nil, err
	}
	cache := datafile.NewDeleteCache(0)
	for _, ct := range tasks {
		failTask := func(err error) ([]*changeBatch, []changeRow, error) {
			if errors.Is(err, iceberg.ErrNotFound) {
				// expire_snapshots removed a file only an expired snapshot
				// still needed: the commit's changes cannot be rebuilt.
				err = fmt.Errorf("changelog of snapshot %d: a file of the table before it is gone (expired with an older snapshot); start the changelog at this snapshot (start-snapshot-id %d): %w",
					ct.SnapshotID, ct.SnapshotID, err)
			}
			return fail(err)
		}
		var stillLive map[int64]bool // positions the commit did not delete
		task := ct.Task
		if ct.Before != nil {
			// Rows Task still keeps are not deleted by this commit.
			kept, err := readTaskRows(ctx, t, task, cache, func(arrow.RecordBatch, []int64) {})
			if err != nil {
				return failTask(err)
			}
			stillLive = kept
			task = *ct.Before
		}
		typ := changeInsert
		if ct.Kind == scan.ChangeDelete {
			typ = changeDelete
		}
		var takeErr error
		_, err := readTaskRows(ctx, t, task, cache, func(rec arrow.RecordBatch, pos []int64) {
			idx := make([]int32, 0, len(pos))
			for i, p := range pos {
				if !stillLive[p] {
					idx = append(idx, int32(i))
				}
			}
			if len(idx) == 0 || takeErr != nil {
				return
			}
			data := dataColumns(rec)
			var sel arrow.RecordBatch
			if len(idx) == len(pos) {
				data.Retain()
				sel = data
			} else {
				if sel, takeErr = datafile.TakeRows(ctx, data, idx); takeErr != nil {
					data.Release()
					return
				}
			}
			data.Release()
			b := &changeBatch{rec: sel, ordinal: ct.Ordinal, snapshotID: ct.SnapshotID}
			batches = append(batches, b)
			for i := 0; i < int(sel.NumRows()); i++ {
				rows = append(rows, changeRow{batch: b, row: i, typ: typ, key: rowKey(sel, i, nil)})
			}
		})
		if err = errors.Join(err, takeErr); err != nil {
			return failTask(err)
		}
	}
	return batches, rows, nil
}

var errTakeFailed = errors.New("sqlexec: reading changed rows failed")

// readTaskRows reads a task with row positions, handing each batch and its
// positions to visit, and returns the set of positions read.
func readTaskRows(ctx context.Context, t *table.Table, task scan.FileScanTask, cache *datafile.DeleteCache, visit func(arrow.RecordBatch, []int64)) (map[int64]bool, error) {
	it, err := datafile.ReadTask(ctx, t.IO(), t.Metadata(), task, nil, datafile.ReadOptions{WithPositions: true, DeleteCache: cache})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	seen := map[int64]bool{}
	for {
		rec, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return seen, nil
		}
		if err != nil {
			return nil, err
		}
		posCol, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Int64)
		if !ok {
			rec.Release()
			return nil, fmt.Errorf("%w: no position column reading %s", errTakeFailed, task.File.FilePath)
		}
		pos := posCol.Int64Values()
		for _, p := range pos {
			seen[p] = true
		}
		visit(rec, pos)
		rec.Release()
	}
}

// dataColumns drops the trailing position column.
func dataColumns(rec arrow.RecordBatch) arrow.RecordBatch {
	n := int(rec.NumCols()) - 1
	fields := rec.Schema().Fields()[:n]
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), rec.Columns()[:n], rec.NumRows())
}

// rowKey renders a row's values (only cols when given) so that equal rows
// have equal keys.
func rowKey(rec arrow.RecordBatch, row int, cols []int) string {
	var b strings.Builder
	emit := func(c int) {
		fmt.Fprintf(&b, "%#v\x00", exec.ValueAt(rec.Column(c), row))
	}
	if cols == nil {
		for c := 0; c < int(rec.NumCols()); c++ {
			emit(c)
		}
	} else {
		for _, c := range cols {
			emit(c)
		}
	}
	return b.String()
}
