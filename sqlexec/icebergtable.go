package sqlexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/pushdown"
	"github.com/icesql/icesql/sqlexec/scanstats"
)

// icebergTable is an Iceberg table at one snapshot, as the planner reads it.
type icebergTable struct {
	t      *table.Table
	snap   *iceberg.Snapshot // nil: the table has no data
	schema *iceberg.Schema
	arrow  *arrow.Schema
	// manifests is the engine's manifest cache (nil: none).
	manifests *scan.ManifestCache
	// files is the engine's cache of small data files (nil: none).
	files *datafile.FileCache
	// skipPageChecksums: Config.SkipPageChecksums.
	skipPageChecksums bool

	mu    sync.Mutex
	stats scan.Stats // of the last plan, for EXPLAIN
}

var (
	_ planner.Table     = (*icebergTable)(nil)
	_ planner.Explainer = (*icebergTable)(nil)

	_ planner.PartitionedTable = (*icebergTable)(nil)
	_ planner.ExactFilterer    = (*icebergTable)(nil)
	_ planner.RowEstimator     = (*icebergTable)(nil)
)

func newIcebergTable(t *table.Table, snap *iceberg.Snapshot, schema *iceberg.Schema) (*icebergTable, error) {
	as, err := arrowschema.ToArrow(schema)
	if err != nil {
		return nil, err
	}
	return &icebergTable{t: t, snap: snap, schema: schema, arrow: as}, nil
}

// EstimatedRows is the snapshot's record count (the summary's
// total-records, summed from its manifests), for join ordering.
func (it *icebergTable) EstimatedRows() (int64, bool) {
	if it.snap == nil {
		return 0, true
	}
	n, err := strconv.ParseInt(it.snap.Summary["total-records"], 10, 64)
	return n, err == nil
}

func (it *icebergTable) Name() string          { return it.t.Ident().Name }
func (it *icebergTable) Schema() *arrow.Schema { return it.arrow }

// plan lists the files to read for a request.
func (it *icebergTable) plan(ctx context.Context, req planner.ScanRequest) ([]scan.FileScanTask, scan.Stats, error) {
	if it.snap == nil {
		return nil, scan.Stats{}, nil
	}
	filter := pushdown.Pruning(it.arrow, req.Filters)
	// Bind the filter to the schema the query was bound with: a tag's
	// snapshot may carry a column whose name was later reused.
	tasks, stats, err := scan.Plan(ctx, opener(ctx, it.t.IO()), it.t.Metadata(), it.snap.SnapshotID, filter, scan.Options{Schema: it.schema, Cache: it.manifests})
	if err != nil && filter != nil && errors.Is(err, iceberg.ErrInvalidExpression) {
		// A filter the binder refuses only costs pruning.
		tasks, stats, err = scan.Plan(ctx, opener(ctx, it.t.IO()), it.t.Metadata(), it.snap.SnapshotID, nil, scan.Options{Schema: it.schema, Cache: it.manifests})
	}
	return tasks, stats, err
}

// ExactFilters reports the filters the data file reader applies exactly
// (datafile.ReadTask keeps only rows matching each task's residual), so
// the planner does not evaluate them a second time. That holds only when
// plan binds the pruning filter as a whole: when it does not, plan reads
// every row unfiltered.
func (it *icebergTable) ExactFilters(req planner.ScanRequest) []bool {
	out := make([]bool, len(req.Filters))
	if it.snap == nil {
		return out
	}
	f := pushdown.Pruning(it.arrow, req.Filters)
	if f == nil {
		return out
	}
	if _, err := expr.Bind(it.schema, f, false); err != nil {
		return out
	}
	for i, e := range req.Filters {
		out[i] = pushdown.RowExact(it.arrow, e)
	}
	return out
}

func (it *icebergTable) Scan(ctx context.Context, req planner.ScanRequest) (exec.RecordIterator, error) {
	tasks, proj, out, err := it.prepare(ctx, req)
	if err != nil {
		return nil, err
	}
	return it.newTaskIterator(tasks, proj, out, req.Limit, datafile.NewDeleteCache(0), scanstats.For(req)), nil
}

// ScanPartitions splits the planned files into parts of about equal
// bytes, one per parallel worker, each read like Scan reads them.
func (it *icebergTable) ScanPartitions(ctx context.Context, req planner.ScanRequest) ([]exec.RecordIterator, error) {
	tasks, proj, out, err := it.prepare(ctx, req)
	if err != nil {
		return nil, err
	}
	// One delete cache per scan: parts share the parsed delete files.
	cache := datafile.NewDeleteCache(0)
	counters := scanstats.For(req)
	workers := runtime.GOMAXPROCS(0)
	groups := balanceTasks(splitTasks(tasks, workers), workers)
	parts := make([]exec.RecordIterator, len(groups))
	for i, g := range groups {
		parts[i] = it.newTaskIterator(g, proj, out, req.Limit, cache, counters)
	}
	if len(parts) == 0 {
		parts = append(parts, it.newTaskIterator(nil, proj, out, req.Limit, cache, counters))
	}
	return parts, nil
}

// prepare plans the files of a request and the projection that reads
// its columns.
func (it *icebergTable) prepare(ctx context.Context, req planner.ScanRequest) ([]scan.FileScanTask, *iceberg.Schema, *arrow.Schema, error) {
	fields := make([]iceberg.NestedField, len(req.Columns))
	outFields := make([]arrow.Field, len(req.Columns))
	all := it.schema.Fields()
	for i, c := range req.Columns {
		if c < 0 || c >= len(all) {
			return nil, nil, nil, fmt.Errorf("sqlexec: scan column %d out of range", c)
		}
		fields[i] = all[c]
		outFields[i] = it.arrow.Field(c)
		if i < len(req.Dictionary) && req.Dictionary[i] && outFields[i].Type.ID() == arrow.STRING {
			outFields[i].Type = parquetfile.DictionaryString
		}
	}
	proj, err := iceberg.NewSchema(it.schema.ID, fields)
	if err != nil {
		return nil, nil, nil, err
	}
	tasks, stats, err := it.plan(ctx, req)
	if err != nil {
		return nil, nil, nil, err
	}
	it.mu.Lock()
	it.stats = stats
	it.mu.Unlock()
	scanstats.For(req).AddPlan(stats)
	return tasks, proj, arrow.NewSchema(outFields, nil), nil
}

// newTaskIterator reads tasks; counters is nil unless the scan is analyzed.
func (it *icebergTable) newTaskIterator(tasks []scan.FileScanTask, proj *iceberg.Schema, out *arrow.Schema, limit int64, cache *datafile.DeleteCache, counters *scanstats.Counters) *taskIterator {
	return &taskIterator{fio: counters.IO(it.t.IO()), meta: it.t.Metadata(), tasks: tasks, proj: proj, out: out, limit: limit, deletes: cache, stats: counters.ReadStats(),
		skipPageChecksums: it.skipPageChecksums, files: it.files, schema: it.schema}
}

func (it *icebergTable) ExplainScan(ctx context.Context, req planner.ScanRequest) (string, error) {
	if it.snap == nil {
		return "iceberg " + it.t.Ident().String() + ": no snapshot", nil
	}
	_, stats, err := it.plan(ctx, req)
	if err != nil {
		return "", err
	}
	s := fmt.Sprintf("iceberg %s snapshot=%d: %s", it.t.Ident(), it.snap.SnapshotID, stats)
	if f := pushdown.Pruning(it.arrow, req.Filters); f != nil {
		s += " filter=" + f.String()
	}
	return s, nil
}

// taskIterator reads the planned files one after another, with their
// position and equality deletes applied.
type taskIterator struct {
	schema *iceberg.Schema // the schema the scan's filters are bound to
	fio    fileio.FileIO
	meta   *iceberg.TableMetadata
	tasks  []scan.FileScanTask
	proj   *iceberg.Schema
	out    *arrow.Schema
	limit  int64 // -1: none
	rows   int64
	// deletes is shared by the iterators of one scan.
	deletes *datafile.DeleteCache
	// stats counts reads under EXPLAIN ANALYZE (nil otherwise).
	stats *datafile.ReadStats
	// skipPageChecksums: Config.SkipPageChecksums.
	skipPageChecksums bool
	files             *datafile.FileCache

	cur datafile.RecordIterator
}

func (ti *taskIterator) Schema() *arrow.Schema { return ti.out }

func (ti *taskIterator) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if ti.limit >= 0 && ti.rows >= ti.limit {
			return nil, nil
		}
		if ti.cur == nil {
			if len(ti.tasks) == 0 {
				return nil, nil
			}
			task := ti.tasks[0]
			ti.tasks = ti.tasks[1:]
			if len(ti.out.Fields()) == 0 && len(task.Deletes) == 0 && isAlwaysTrue(task.Residual) {
				// Nothing to read but the row count (COUNT(*)).
				ti.rows += task.File.RecordCount
				return array.NewRecordBatch(ti.out, nil, task.File.RecordCount), nil
			}
			cur, err := datafile.ReadTask(ctx, ti.fio, ti.meta, task, ti.proj, datafile.ReadOptions{DeleteCache: ti.deletes, Stats: ti.stats, SkipPageChecksums: ti.skipPageChecksums, Files: ti.files,
				DictionaryFieldIDs: ti.dictionaryIDs(), Schema: ti.schema})
			if err != nil {
				return nil, err
			}
			ti.cur = cur
		}
		rec, err := ti.cur.Next(ctx)
		if err == io.EOF {
			ti.closeFile()
			continue
		}
		if err != nil {
			return nil, err
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		ti.rows += rec.NumRows()
		out := ti.batch(rec)
		rec.Release()
		return out, nil
	}
}

func isAlwaysTrue(e expr.BoundExpr) bool {
	if e == nil {
		return true
	}
	_, ok := e.(expr.AlwaysTrue)
	return ok
}

func (ti *taskIterator) closeFile() {
	if ti.cur != nil {
		ti.cur.Close()
		ti.cur = nil
	}
}

func (ti *taskIterator) Close() {
	ti.closeFile()
	ti.tasks = nil
}

// dictionaryIDs are the field ids of the columns read as dictionaries.
func (ti *taskIterator) dictionaryIDs() []int {
	var ids []int
	for i, f := range ti.out.Fields() {
		if f.Type.ID() == arrow.DICTIONARY {
			ids = append(ids, ti.proj.Fields()[i].ID)
		}
	}
	return ids
}

// batch is rec under the scan's schema: a dictionary column the file
// returned as strings (a task whose deletes read it) is wrapped as an
// identity dictionary.
func (ti *taskIterator) batch(rec arrow.RecordBatch) arrow.RecordBatch {
	cols := rec.Columns()
	var wrapped []arrow.Array
	for i, f := range ti.out.Fields() {
		if f.Type.ID() == arrow.DICTIONARY && cols[i].DataType().ID() != arrow.DICTIONARY {
			if wrapped == nil {
				cols = slices.Clone(cols)
			}
			cols[i] = parquetfile.IdentityDictionary(memory.DefaultAllocator, cols[i])
			wrapped = append(wrapped, cols[i])
		}
	}
	out := array.NewRecordBatch(ti.out, cols, rec.NumRows())
	exec.ReleaseArrays(wrapped)
	return out
}
