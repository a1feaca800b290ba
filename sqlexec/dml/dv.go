package dml

import (
	"context"
	"fmt"
	"slices"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/dv"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/writeorder"
)

// mergeOnReadDV writes, for a format v3 table, one deletion vector per
// touched data file holding its new and previous deletes, and removes the
// delete files it replaces in the same commit (Java's BaseDVFileWriter
// with Spark's rewritten deletes). It returns the update and the data
// files the commit must find still live.
//
// A replaced deletion vector is removed by its path and offset
// (table.FileKey), so the other vectors of its Puffin file stay live.
func (r *Runner) mergeOnReadDV(ctx context.Context, tt *targetTable, w writeorder.DataWriter, ch *changes, paths []string) (*table.SnapshotUpdate, []string, error) {
	fio := tt.t.IO()
	dvw := datafile.NewDVWriter(ctx, fio, tt.t.Metadata(), datafile.WriterOptions{})
	fail := func(err error) (*table.SnapshotUpdate, []string, error) {
		_ = dvw.Abort(context.WithoutCancel(ctx))
		return nil, nil, err
	}
	replaced := map[string]iceberg.DataFile{} // by table.FileKey
	for _, p := range paths {
		task, ok := tt.task(p)
		if !ok {
			return fail(fmt.Errorf("dml: internal: no scan task for %s", p))
		}
		prev, old, err := datafile.PreviousDeletes(ctx, fio, task)
		if err != nil {
			return fail(err)
		}
		if err := dvw.Delete(ctx, task.File, dv.Union(prev, ch.deletes[p])); err != nil {
			return fail(err)
		}
		for _, d := range old {
			replaced[table.FileKey(d)] = d
		}
	}
	deletes, err := dvw.Close(ctx)
	if err != nil {
		return nil, nil, err
	}
	data, err := w.Close(ctx)
	if err != nil {
		_ = dvw.Abort(context.WithoutCancel(ctx))
		return nil, nil, err
	}
	u := tt.t.NewRowDelta()
	for _, d := range deletes {
		u = u.AddDeleteFile(d)
	}
	for _, d := range data {
		u = u.AddDataFile(d)
	}
	for _, k := range sortedKeys(replaced) {
		u = u.RemoveFile(replaced[k])
	}
	return u, slices.Clone(paths), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
