package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/manifest"
)

// Opener opens a metadata file (manifest list or manifest) by path.
type Opener func(path string) (io.ReadCloser, error)

// Options tune planning.
type Options struct {
	// CaseSensitive resolves filter column names exactly; SQL callers
	// usually want false.
	CaseSensitive bool
	// Workers is how many manifests are read at once (default 4).
	Workers int
	// Schema is the schema the filter's column names refer to. Nil
	// means ReadSchema's choice.
	Schema *iceberg.Schema
}

// ReadSchema is the schema a read of snap binds names with, as in Java:
// the table's current schema when snap is the head of a branch (reads of
// the table or a branch), else the schema the snapshot was written with
// (time travel to an older snapshot or a tag). Binding a current read to
// the snapshot's schema would resolve a dropped and re-added column to
// the dropped field id.
func ReadSchema(meta *iceberg.TableMetadata, snap *iceberg.Snapshot) *iceberg.Schema {
	schema := meta.CurrentSchema()
	if snap == nil || snap.SchemaID == nil {
		return schema
	}
	if cur := meta.CurrentSnapshot(); cur != nil && cur.SnapshotID == snap.SnapshotID {
		return schema
	}
	for _, ref := range meta.Refs() {
		if ref.Type == iceberg.BranchRef && ref.SnapshotID == snap.SnapshotID {
			return schema
		}
	}
	if s, ok := snapshotSchema(meta, snap); ok {
		return s
	}
	return schema
}

func snapshotSchema(meta *iceberg.TableMetadata, snap *iceberg.Snapshot) (*iceberg.Schema, bool) {
	if snap == nil || snap.SchemaID == nil {
		return nil, false
	}
	return meta.SchemaByID(*snap.SchemaID)
}

// Plan lists the data files of a snapshot that may hold rows matching
// filter (nil means all rows), each with its applicable deletes and its
// residual filter, in manifest-list order. Errors are *PlanError naming
// the file, or a *expr.BindError for a bad filter.
func Plan(ctx context.Context, open Opener, meta *iceberg.TableMetadata, snapshotID int64, filter expr.Expr, opts Options) ([]FileScanTask, Stats, error) {
	var stats Stats
	if err := ctx.Err(); err != nil {
		return nil, stats, err
	}
	snap, ok := meta.SnapshotByID(snapshotID)
	if !ok {
		return nil, stats, fmt.Errorf("%w: %d", iceberg.ErrNoSuchSnapshot, snapshotID)
	}
	if snap.ManifestList == "" {
		return nil, stats, fmt.Errorf("%w: snapshot %d", ErrNoManifestList, snapshotID)
	}
	schema := opts.Schema
	if schema == nil {
		schema = ReadSchema(meta, snap)
	}
	if filter == nil {
		filter = expr.True()
	}
	bound, err := expr.Bind(schema, filter, opts.CaseSensitive)
	if err != nil && opts.Schema == nil && errors.Is(err, iceberg.ErrNoSuchField) {
		// A caller that chose the snapshot's schema for a snapshot that is
		// also a branch head (VERSION AS OF it, or a tag on it) names
		// columns by that schema; only an unknown name falls back, so a
		// name ReadSchema knows is never rebound.
		if s, ok := snapshotSchema(meta, snap); ok && s != schema {
			if b, err2 := expr.Bind(s, filter, opts.CaseSensitive); err2 == nil {
				schema, bound, err = s, b, nil
			}
		}
	}
	if err != nil {
		return nil, stats, err
	}
	manifests, err := readManifestList(open, snap.ManifestList)
	if err != nil {
		return nil, stats, err
	}
	p := &planner{schema: schema, filter: bound, specs: map[int]*iceberg.PartitionSpec{}, perSpec: map[int]*specEvaluators{}}
	for _, s := range meta.Specs() {
		p.specs[s.ID] = s
	}

	var dataManifests, deleteManifests []iceberg.ManifestFile
	for _, mf := range manifests {
		isData := mf.Content == iceberg.ManifestContentData
		if isData {
			stats.Manifests++
		} else {
			stats.DeleteManifests++
		}
		keep, err := p.keepManifest(&mf)
		if err != nil {
			return nil, stats, &PlanError{Path: mf.Path, Err: err}
		}
		switch {
		case !keep && isData:
			stats.ManifestsPruned++
		case !keep:
			stats.DeleteManifestsPruned++
		case isData:
			dataManifests = append(dataManifests, mf)
		default:
			deleteManifests = append(deleteManifests, mf)
		}
	}

	deleteResults, err := p.readAll(ctx, open, deleteManifests, opts.Workers)
	if err != nil {
		return nil, stats, err
	}
	var deletes []DeleteFile
	for _, r := range deleteResults {
		for _, e := range r.entries {
			deletes = append(deletes, DeleteFile{File: e.DataFile, DataSequenceNumber: seqOf(e)})
		}
	}
	stats.DeleteFiles = len(deletes)
	index := newDeleteIndex(deletes, p.specs)

	dataResults, err := p.readAll(ctx, open, dataManifests, opts.Workers)
	if err != nil {
		return nil, stats, err
	}
	var tasks []FileScanTask
	for _, r := range dataResults {
		stats.DataFiles += r.live
		stats.PrunedByPartition += r.prunedByPartition
		stats.PrunedByMetrics += r.prunedByMetrics
		for _, e := range r.entries {
			seq := seqOf(e)
			f := e.DataFile
			tasks = append(tasks, FileScanTask{
				File: f, DataSequenceNumber: seq, Deletes: index.forFile(&f, seq),
				Residual: r.residual.Residual(f.Partition), Spec: r.spec,
			})
		}
	}
	stats.PlannedFiles = len(tasks)
	return tasks, stats, nil
}

func seqOf(e iceberg.ManifestEntry) int64 {
	if e.SequenceNumber != nil {
		return *e.SequenceNumber
	}
	return 0
}

func readManifestList(open Opener, path string) ([]iceberg.ManifestFile, error) {
	rc, err := open(path)
	if err != nil {
		return nil, &PlanError{Path: path, Err: err}
	}
	defer rc.Close()
	list, err := manifest.ReadManifestList(rc, manifest.WithPath(path))
	if err != nil {
		return nil, &PlanError{Path: path, Err: err}
	}
	return list, nil
}

// readAll reads manifests on a few goroutines, keeping list order.
func (p *planner) readAll(ctx context.Context, open Opener, mfs []iceberg.ManifestFile, workers int) ([]manifestResult, error) {
	if workers <= 0 {
		workers = 4
	}
	results := make([]manifestResult, len(mfs))
	errs := make([]error, len(mfs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(mfs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = p.readManifest(open, &mfs[i])
			}
		}()
	}
	var ctxErr error
feed:
	for i := range mfs {
		if ctxErr = ctx.Err(); ctxErr != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			ctxErr = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if ctxErr != nil {
		return nil, ctxErr
	}
	for i, err := range errs {
		if err != nil {
			return nil, &PlanError{Path: mfs[i].Path, Err: err}
		}
	}
	return results, nil
}
