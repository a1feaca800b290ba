package dml

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/writeorder"
)

// run executes a statement's query and commits its changes in the
// table's write mode, validated at its isolation level against filter.
func (r *Runner) run(ctx context.Context, kind Kind, tt *targetTable, q *rowQuery, filter expr.Expr) (int64, error) {
	t := tt.t
	meta := t.Metadata()
	mode, err := modeOf(meta, kind)
	if err != nil {
		return 0, err
	}
	iso, err := isolationOf(meta, kind)
	if err != nil {
		return 0, err
	}
	if r.Isolation != "" {
		iso = r.Isolation
	}
	keys, sortID, err := writeorder.Keys(meta, tt.cols)
	if err != nil {
		return 0, err
	}
	files := datafile.NewWriter(ctx, t.IO(), meta, datafile.WriterOptions{SortOrderID: &sortID})
	var w writeorder.DataWriter = files
	if len(keys) > 0 {
		// rows written (new and kept) go out in the table's write order
		w = writeorder.NewWriter(ctx, planner.NewEvalContext(ctx, nil), files, tt.cols, keys)
	}
	abort := func(err error) (int64, error) {
		w.Abort(context.WithoutCancel(ctx))
		return 0, err
	}
	ch, err := collect(ctx, q, tt, w)
	if err != nil {
		return abort(err)
	}
	if path, pos, ok := sortedPositions(ch.matched); !ok {
		return abort(&CardinalityError{Table: t.Ident().String(), FilePath: path, Position: pos})
	}
	if path, pos, ok := sortedPositions(ch.deletes); !ok {
		return abort(fmt.Errorf("dml: internal: row %d of %s changed twice", pos, path))
	}
	if ch.affected == 0 {
		return abort(nil)
	}
	paths := make([]string, 0, len(ch.deletes))
	for p := range ch.deletes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var u *table.SnapshotUpdate
	required := paths
	switch {
	case mode == MergeOnRead && t.Metadata().FormatVersion() >= 3:
		u, required, err = r.mergeOnReadDV(ctx, tt, w, ch, paths)
	case mode == MergeOnRead:
		u, err = r.mergeOnRead(ctx, tt, w, ch, paths)
	default:
		u, err = r.copyOnWrite(ctx, tt, w, ch, paths)
	}
	if err != nil {
		return abort(err)
	}
	var start *int64
	if tt.snap != nil {
		id := tt.snap.SnapshotID
		start = &id
	}
	u = u.Validate(start, iso, filter)
	if mode == MergeOnRead && len(required) > 0 {
		u = u.RequireDataFiles(required...)
	}
	if err := r.commit(ctx, t, u.OwnFiles()); err != nil {
		return 0, err
	}
	return ch.affected, nil
}

// commit stages the update in the transaction, or commits it.
func (r *Runner) commit(ctx context.Context, t *table.Table, u *table.SnapshotUpdate) error {
	if hook := BeforeCommit; hook != nil {
		hook(ctx, t.Ident())
	}
	if r.Prepare != nil {
		if err := r.Prepare(u); err != nil {
			u.Abandon(context.WithoutCancel(ctx))
			return err
		}
	}
	if r.Txn != nil {
		_, err := r.Txn.Stage(ctx, u)
		return err
	}
	_, err := u.Commit(ctx)
	return err
}

// mergeOnRead writes one position delete file per touched data file.
func (r *Runner) mergeOnRead(ctx context.Context, tt *targetTable, w writeorder.DataWriter, ch *changes, paths []string) (*table.SnapshotUpdate, error) {
	pdw := datafile.NewPositionDeleteWriter(ctx, tt.t.IO(), tt.t.Metadata(), datafile.PositionDeleteOptions{})
	for _, p := range paths {
		task, ok := tt.task(p)
		if !ok {
			pdw.Abort(context.WithoutCancel(ctx))
			return nil, fmt.Errorf("dml: internal: no scan task for %s", p)
		}
		if err := pdw.Delete(ctx, task.File, ch.deletes[p]); err != nil {
			pdw.Abort(context.WithoutCancel(ctx))
			return nil, err
		}
	}
	deletes, err := pdw.Close(ctx)
	if err != nil {
		return nil, err
	}
	data, err := w.Close(ctx)
	if err != nil {
		for _, d := range deletes {
			_ = tt.t.IO().Remove(context.WithoutCancel(ctx), d.FilePath)
		}
		return nil, err
	}
	u := tt.t.NewRowDelta()
	for _, d := range deletes {
		u = u.AddDeleteFile(d)
	}
	for _, d := range data {
		u = u.AddDataFile(d)
	}
	return u, nil
}

// copyOnWrite rewrites each touched data file without its removed rows
// and drops the file and the delete files scoped to it.
func (r *Runner) copyOnWrite(ctx context.Context, tt *targetTable, w writeorder.DataWriter, ch *changes, paths []string) (*table.SnapshotUpdate, error) {
	u := tt.t.NewOverwrite()
	ec := planner.NewEvalContext(ctx, nil)
	for _, p := range paths {
		task, ok := tt.task(p)
		if !ok {
			return nil, fmt.Errorf("dml: internal: no scan task for %s", p)
		}
		task.Residual = nil
		if err := rewriteFile(ctx, ec, tt, w, task, ch.deletes[p]); err != nil {
			return nil, err
		}
		u = u.RemoveFile(task.File)
		for _, d := range task.Deletes {
			if ref := d.File.ReferencedDataFile; ref != nil && *ref == p {
				u = u.RemoveFile(d.File)
			}
		}
	}
	data, err := w.Close(ctx)
	if err != nil {
		return nil, err
	}
	for _, d := range data {
		u = u.AddDataFile(d)
	}
	return u, nil
}

// rewriteFile copies the live rows of a task's file, except the removed
// positions (sorted), to w.
func rewriteFile(ctx context.Context, ec *exec.EvalContext, tt *targetTable, w writeorder.DataWriter, task scanTask, removed []int64) error {
	rd, err := datafile.ReadTask(ctx, tt.t.IO(), tt.t.Metadata(), task, tt.schema, datafile.ReadOptions{WithPositions: true})
	if err != nil {
		return err
	}
	defer rd.Close()
	n := tt.cols.NumFields()
	next := 0
	for {
		rec, err := rd.Next(ctx)
		if errors.Is(err, errEOF) {
			return nil
		}
		if err != nil {
			return err
		}
		pos, ok := rec.Column(int(rec.NumCols()) - 1).(interface{ Value(int) int64 })
		if !ok {
			rec.Release()
			return fmt.Errorf("dml: internal: position column of %s", task.File.FilePath)
		}
		var keep []int32
		for i := 0; i < int(rec.NumRows()); i++ {
			p := pos.Value(i)
			for next < len(removed) && removed[next] < p {
				next++
			}
			if next < len(removed) && removed[next] == p {
				continue
			}
			keep = append(keep, int32(i))
		}
		if len(keep) > 0 {
			cols := make([]arrow.Array, n)
			copy(cols, rec.Columns()[:n])
			out, err := exec.TakeBatch(ctx, ec, tt.cols, cols, keep)
			if err != nil {
				rec.Release()
				return err
			}
			err = w.Write(ctx, out)
			out.Release()
			if err != nil {
				rec.Release()
				return err
			}
		}
		rec.Release()
	}
}

// writeError makes the executor's NULL violation match the Iceberg one
// too, its message unchanged.
func writeError(err error) error {
	if errors.Is(err, exec.ErrNullViolation) && !errors.Is(err, iceberg.ErrNotNullViolation) {
		return &notNullError{err}
	}
	return err
}

type notNullError struct{ err error }

func (e *notNullError) Error() string   { return e.err.Error() }
func (e *notNullError) Unwrap() []error { return []error{iceberg.ErrNotNullViolation, e.err} }
