package dml

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
	"github.com/icesql/icesql/sqlexec/pushdown"
)

// Delete runs DELETE FROM t [WHERE cond] and returns the rows deleted. A
// filter that selects whole data files (by partition) is a metadata-only
// delete; any other is row-level in the table's write.delete.mode.
func (r *Runner) Delete(ctx context.Context, w *parser.TiDBStmt, del *ast.DeleteStmt) (int64, error) {
	if del.IsMultiTable || del.Order != nil || del.Limit != nil {
		return 0, unsupported("DELETE with several tables, ORDER BY or LIMIT")
	}
	_, tn, ref, err := singleTarget(del.TableRefs, w.Refs)
	if err != nil {
		return 0, err
	}
	tt, err := r.loadTarget(ctx, ref)
	if err != nil {
		return 0, err
	}
	// Bound even when the table is empty, so that a mistyped column is
	// an error there too.
	q, err := r.deleteQuery(ctx, tt, del, tn, w.Refs)
	if err != nil {
		return 0, err
	}
	if tt.snap == nil {
		return 0, nil
	}
	if n, done, err := r.metadataDelete(ctx, tt, q.plan); done || err != nil {
		return n, err
	}
	return r.run(ctx, KindDelete, tt, q, conflictFilter(q.plan, tt))
}

// metadataDelete deletes whole files when the query is a scan whose
// filters convert exactly and decide every planned file by its partition
// alone; done is false when the delete must be row-level.
func (r *Runner) metadataDelete(ctx context.Context, tt *targetTable, p planner.Plan) (int64, bool, error) {
	if !onlyScan(p) {
		return 0, false, nil
	}
	s := findTargetScan(p, tt)
	if s == nil {
		return 0, false, nil
	}
	filter, ok := pushdown.Exact(tt.cols, s.Filters)
	if !ok {
		return 0, false, nil
	}
	tasks, err := tt.planTasks(ctx, filter, nil)
	if err != nil {
		return 0, false, err
	}
	var n int64
	for _, task := range tasks {
		if _, whole := task.Residual.(expr.AlwaysTrue); !whole && task.Residual != nil {
			return 0, false, nil
		}
		if len(task.Deletes) > 0 {
			return 0, false, nil // the count of live rows needs a read
		}
		n += task.File.RecordCount
	}
	if len(tasks) == 0 {
		return 0, true, nil
	}
	if err := r.commit(ctx, tt.t, tt.t.NewDelete().DeleteWhere(filter)); err != nil {
		return 0, true, err
	}
	return n, true, nil
}

// onlyScan reports whether p is projections over one scan.
func onlyScan(p planner.Plan) bool {
	switch x := p.(type) {
	case *planner.Scan:
		return true
	case *planner.Project:
		return onlyScan(x.Input)
	}
	return false
}

// Update runs UPDATE t SET ... [WHERE cond] in the table's
// write.update.mode and returns the rows updated.
func (r *Runner) Update(ctx context.Context, w *parser.TiDBStmt, upd *ast.UpdateStmt) (int64, error) {
	if upd.MultipleTable || upd.Order != nil || upd.Limit != nil {
		return 0, unsupported("UPDATE with several tables, ORDER BY or LIMIT")
	}
	_, tn, ref, err := singleTarget(upd.TableRefs, w.Refs)
	if err != nil {
		return 0, err
	}
	tt, err := r.loadTarget(ctx, ref)
	if err != nil {
		return 0, err
	}
	q, err := r.updateQuery(ctx, tt, upd, tn, w.Refs)
	if err != nil {
		return 0, err
	}
	if tt.snap == nil {
		return 0, nil
	}
	return r.run(ctx, KindUpdate, tt, q, conflictFilter(q.plan, tt))
}

// Merge runs MERGE INTO in the table's write.merge.mode and returns the
// target rows changed plus the rows inserted.
func (r *Runner) Merge(ctx context.Context, st *parser.MergeStmt) (int64, error) {
	ms, err := shapeMerge(st)
	if err != nil {
		return 0, err
	}
	tt, err := r.loadTarget(ctx, st.Target)
	if err != nil {
		return 0, err
	}
	q, err := r.mergeQuery(ctx, tt, st, ms)
	if err != nil {
		return 0, err
	}
	return r.run(ctx, KindMerge, tt, q, r.mergeConflictFilter(ctx, tt, st, ms))
}

// loadTarget loads the statement's target table for reading with file and
// position columns, sharing the runner's manifest cache.
func (r *Runner) loadTarget(ctx context.Context, ref *parser.TableRef) (*targetTable, error) {
	t, err := r.Load(ctx, ref)
	if err != nil {
		return nil, err
	}
	return newTargetTable(t, r.Manifests)
}
