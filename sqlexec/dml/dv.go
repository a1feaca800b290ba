package dml

import (
	"context"
	"fmt"
	"slices"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/dv"
	"github.com/icesql/icesql/iceberg/puffin"
	"github.com/icesql/icesql/iceberg/table"
)

// mergeOnReadDV writes, for a format v3 table, one deletion vector per
// touched data file holding its new and previous deletes, and removes the
// delete files it replaces in the same commit (Java's BaseDVFileWriter
// with Spark's rewritten deletes). It returns the update and the data
// files the commit must find still live.
//
// Files are removed by path, so removing a Puffin file drops every
// deletion vector in it: those of untouched data files are carried into
// the new Puffin file unchanged.
func (r *Runner) mergeOnReadDV(ctx context.Context, tt *targetTable, w *datafile.Writer, ch *changes, paths []string) (*table.SnapshotUpdate, []string, error) {
	fio := tt.t.IO()
	dvw := datafile.NewDVWriter(ctx, fio, tt.t.Metadata(), datafile.WriterOptions{})
	fail := func(err error) (*table.SnapshotUpdate, []string, error) {
		_ = dvw.Abort(context.WithoutCancel(ctx))
		return nil, nil, err
	}
	touched := map[string]bool{}
	replaced := map[string]iceberg.DataFile{} // by path
	for _, p := range paths {
		touched[p] = true
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
			replaced[d.FilePath] = d
		}
	}
	required := slices.Clone(paths)
	carried, err := r.carrySiblingDVs(ctx, tt, dvw, touched, replaced)
	if err != nil {
		return fail(err)
	}
	required = append(required, carried...)
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
	for _, p := range sortedKeys(replaced) {
		u = u.RemoveFile(replaced[p])
	}
	return u, required, nil
}

// carrySiblingDVs copies into dvw the live deletion vectors of untouched
// data files stored in the Puffin files being removed, and returns those
// data files. The footers say whether a Puffin file holds other files'
// vectors; only then are the statement's tasks, or if they do not cover
// them a plan of the whole snapshot, searched for the live ones.
func (r *Runner) carrySiblingDVs(ctx context.Context, tt *targetTable, dvw *datafile.DVWriter, touched map[string]bool, replaced map[string]iceberg.DataFile) ([]string, error) {
	removedPuffin := map[string]bool{}
	others := map[string]bool{} // data files named by those footers
	for p, d := range replaced {
		if !datafile.IsDeletionVector(d) {
			continue
		}
		removedPuffin[p] = true
		refs, err := puffinReferences(ctx, tt, p)
		if err != nil {
			return nil, err
		}
		for _, ref := range refs {
			if !touched[ref] {
				others[ref] = true
			}
		}
	}
	if len(others) == 0 {
		return nil, nil
	}
	for ref := range others {
		if _, ok := tt.task(ref); !ok {
			// planTasks records every task of the snapshot in tt.
			if _, err := tt.planTasks(ctx, nil); err != nil {
				return nil, err
			}
			break
		}
	}
	var carried []string
	for _, ref := range sortedKeys(others) {
		task, ok := tt.task(ref)
		if !ok {
			continue // the data file is gone; so is its vector's effect
		}
		for _, d := range task.Deletes {
			if !datafile.IsDeletionVector(d.File) || !removedPuffin[d.File.FilePath] {
				continue
			}
			positions, err := datafile.ReadDeletionVector(ctx, tt.t.IO(), d.File)
			if err != nil {
				return nil, err
			}
			if err := dvw.Delete(ctx, task.File, positions); err != nil {
				return nil, err
			}
			carried = append(carried, ref)
		}
	}
	return carried, nil
}

// puffinReferences lists the data files referenced by the deletion
// vectors in a Puffin file's footer.
func puffinReferences(ctx context.Context, tt *targetTable, location string) ([]string, error) {
	in, err := tt.t.IO().Open(ctx, location)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	pr, err := puffin.NewReader(in, in.Size(), 0)
	if err != nil {
		return nil, fmt.Errorf("dml: %s: %w", location, err)
	}
	var refs []string
	for _, b := range pr.Metadata().Blobs {
		if ref, ok := b.Properties[dv.PropReferencedDataFile]; ok && b.Type == dv.BlobType {
			refs = append(refs, ref)
		}
	}
	return refs, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
