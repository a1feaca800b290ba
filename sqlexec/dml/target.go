package dml

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/pushdown"
	"github.com/icesql/icesql/sqlexec/scanstats"
)

// Hidden columns of the target table: the data file and position of each
// row, which together identify it for deletion.
const (
	FileColumn = "__dml_file"
	PosColumn  = "__dml_pos"
)

// targetTable reads the target at the statement's snapshot with deletes
// applied, plus the hidden row-identity columns.
type targetTable struct {
	t      *table.Table
	snap   *iceberg.Snapshot // nil: empty table
	schema *iceberg.Schema
	cols   *arrow.Schema // table columns only
	full   *arrow.Schema // table columns, FileColumn, PosColumn

	manifests *scan.ManifestCache

	mu    sync.Mutex
	tasks map[string]scan.FileScanTask // every task planned, by data file
}

var _ planner.Table = (*targetTable)(nil)

func newTargetTable(t *table.Table, manifests *scan.ManifestCache) (*targetTable, error) {
	meta := t.Metadata()
	schema := meta.CurrentSchema()
	cols, err := arrowschema.ToArrow(schema)
	if err != nil {
		return nil, err
	}
	fields := append(append([]arrow.Field(nil), cols.Fields()...),
		arrow.Field{Name: FileColumn, Type: arrow.BinaryTypes.String},
		arrow.Field{Name: PosColumn, Type: arrow.PrimitiveTypes.Int64})
	return &targetTable{t: t, snap: meta.CurrentSnapshot(), schema: schema, cols: cols, manifests: manifests,
		full: arrow.NewSchema(fields, nil), tasks: map[string]scan.FileScanTask{}}, nil
}

func (tt *targetTable) Name() string          { return tt.t.Ident().Name }
func (tt *targetTable) Schema() *arrow.Schema { return tt.full }
func (tt *targetTable) fileIndex() int        { return tt.cols.NumFields() }
func (tt *targetTable) posIndex() int         { return tt.cols.NumFields() + 1 }

// planTasks lists the files a filter may match (nil: all).
// The counters of an analyzed scan (nil otherwise) receive the plan's
// counts.
func (tt *targetTable) planTasks(ctx context.Context, filter expr.Expr, counters *scanstats.Counters) ([]scan.FileScanTask, error) {
	if tt.snap == nil {
		return nil, nil
	}
	open := func(path string) (io.ReadCloser, error) { return tt.t.IO().Open(ctx, path) }
	tasks, stats, err := scan.Plan(ctx, open, tt.t.Metadata(), tt.snap.SnapshotID, filter, scan.Options{Schema: tt.schema, Cache: tt.manifests})
	if err != nil && filter != nil && errors.Is(err, iceberg.ErrInvalidExpression) {
		tasks, stats, err = scan.Plan(ctx, open, tt.t.Metadata(), tt.snap.SnapshotID, nil, scan.Options{Schema: tt.schema, Cache: tt.manifests})
	}
	if err != nil {
		return nil, err
	}
	counters.AddPlan(stats)
	tt.mu.Lock()
	for _, task := range tasks {
		tt.tasks[task.File.FilePath] = task
	}
	tt.mu.Unlock()
	return tasks, nil
}

// task is the planned task of a data file read by the statement.
func (tt *targetTable) task(path string) (scan.FileScanTask, bool) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	t, ok := tt.tasks[path]
	return t, ok
}

func (tt *targetTable) Scan(ctx context.Context, req planner.ScanRequest) (exec.RecordIterator, error) {
	counters := scanstats.For(req)
	tasks, err := tt.planTasks(ctx, pushdown.Pruning(tt.cols, req.Filters), counters)
	if err != nil {
		return nil, err
	}
	n := tt.cols.NumFields()
	var out []arrow.Field
	var proj []iceberg.NestedField
	all := tt.schema.Fields()
	for _, c := range req.Columns {
		if c < 0 || c >= n+2 {
			return nil, fmt.Errorf("dml: scan column %d out of range", c)
		}
		out = append(out, tt.full.Field(c))
		if c < n {
			proj = append(proj, all[c])
		}
	}
	projection, err := iceberg.NewSchema(tt.schema.ID, proj)
	if err != nil {
		return nil, err
	}
	return &targetIterator{tt: tt, tasks: tasks, cols: req.Columns, proj: projection,
		out: arrow.NewSchema(out, nil), limit: req.Limit, fio: counters.IO(tt.t.IO()), stats: counters.ReadStats()}, nil
}

// targetIterator reads the planned files one after another.
type targetIterator struct {
	tt    *targetTable
	tasks []scan.FileScanTask
	cols  []int
	proj  *iceberg.Schema
	out   *arrow.Schema
	limit int64
	rows  int64
	// fio reads the files (counting bytes under EXPLAIN ANALYZE, when
	// stats is set too).
	fio   fileio.FileIO
	stats *datafile.ReadStats

	path string
	cur  datafile.RecordIterator
}

func (it *targetIterator) Schema() *arrow.Schema { return it.out }

func (it *targetIterator) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if it.limit >= 0 && it.rows >= it.limit {
			return nil, nil
		}
		if it.cur == nil {
			if len(it.tasks) == 0 {
				return nil, nil
			}
			task := it.tasks[0]
			it.tasks = it.tasks[1:]
			task.Residual = nil // the planner applies every filter itself
			r, err := datafile.ReadTask(ctx, it.fio, it.tt.t.Metadata(), task, it.proj, datafile.ReadOptions{WithPositions: true, Stats: it.stats})
			if err != nil {
				return nil, err
			}
			it.cur, it.path = r, task.File.FilePath
		}
		rec, err := it.cur.Next(ctx)
		if err == io.EOF {
			it.cur.Close()
			it.cur = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		out, err := it.shape(rec)
		rec.Release()
		if err != nil {
			return nil, err
		}
		it.rows += out.NumRows()
		return out, nil
	}
}

// shape puts a read record (projected columns, then _pos) in request order
// and adds the file column.
func (it *targetIterator) shape(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := it.tt.cols.NumFields()
	rows := int(rec.NumRows())
	cols := make([]arrow.Array, len(it.cols))
	next := 0
	var fileCol arrow.Array
	for i, c := range it.cols {
		switch {
		case c < n:
			cols[i] = rec.Column(next)
			next++
		case c == n:
			if fileCol == nil {
				b := array.NewStringBuilder(memory.DefaultAllocator)
				b.Reserve(rows)
				for r := 0; r < rows; r++ {
					b.Append(it.path)
				}
				fileCol = b.NewArray()
				b.Release()
				defer fileCol.Release()
			}
			cols[i] = fileCol
		default:
			cols[i] = rec.Column(int(rec.NumCols()) - 1)
		}
	}
	return array.NewRecordBatch(it.out, cols, int64(rows)), nil
}

func (it *targetIterator) Close() {
	if it.cur != nil {
		it.cur.Close()
		it.cur = nil
	}
	it.tasks = nil
}

type scanTask = scan.FileScanTask

var errEOF = io.EOF
