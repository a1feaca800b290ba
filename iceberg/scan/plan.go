package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
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
	// Cache, when set, keeps decoded manifest lists and manifests for
	// later plans; share one across the scans of an engine.
	Cache *ManifestCache
	// Stats, when set, receives PlanSeq's counts (Plan returns them).
	Stats *Stats
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
// the file, or a *expr.BindError for a bad filter. It collects PlanSeq.
func Plan(ctx context.Context, open Opener, meta *iceberg.TableMetadata, snapshotID int64, filter expr.Expr, opts Options) ([]FileScanTask, Stats, error) {
	var stats Stats
	opts.Stats = &stats
	var tasks []FileScanTask
	for task, err := range PlanSeq(ctx, open, meta, snapshotID, filter, opts) {
		if err != nil {
			return nil, stats, err
		}
		tasks = append(tasks, task)
	}
	return tasks, stats, nil
}

// PlanSeq is Plan as a lazy sequence: delete manifests are read first,
// then data manifests a few ahead of the consumer, so a caller streaming
// the tasks of a huge table holds only a window of manifests at once.
// The first error ends the sequence. When opts.Stats is set it receives
// the counts, complete once the sequence ends.
func PlanSeq(ctx context.Context, open Opener, meta *iceberg.TableMetadata, snapshotID int64, filter expr.Expr, opts Options) iter.Seq2[FileScanTask, error] {
	return func(yield func(FileScanTask, error) bool) {
		stats := opts.Stats
		if stats == nil {
			stats = new(Stats)
		}
		*stats = Stats{}
		p, dataManifests, deleteManifests, err := prepare(ctx, open, meta, snapshotID, filter, opts, stats)
		if err != nil {
			yield(FileScanTask{}, err)
			return
		}
		var deletes []DeleteFile
		for r, err := range p.stream(ctx, open, deleteManifests, opts.Workers) {
			if err != nil {
				yield(FileScanTask{}, err)
				return
			}
			for _, e := range r.entries {
				deletes = append(deletes, DeleteFile{File: e.DataFile, DataSequenceNumber: seqOf(e)})
			}
		}
		stats.DeleteFiles = len(deletes)
		index := newDeleteIndex(deletes, p.specs)

		for r, err := range p.stream(ctx, open, dataManifests, opts.Workers) {
			if err != nil {
				yield(FileScanTask{}, err)
				return
			}
			stats.DataFiles += r.live
			stats.PrunedByPartition += r.prunedByPartition
			stats.PrunedByMetrics += r.prunedByMetrics
			for _, e := range r.entries {
				seq := seqOf(e)
				f := e.DataFile
				stats.PlannedFiles++
				task := FileScanTask{
					File: f, DataSequenceNumber: seq, Deletes: index.forFile(&f, seq),
					Residual: r.residual.Residual(f.Partition), Spec: r.spec,
				}
				if !yield(task, nil) {
					return
				}
			}
		}
	}
}

// prepare binds the filter, reads the manifest list and prunes its
// manifests by their summaries.
func prepare(ctx context.Context, open Opener, meta *iceberg.TableMetadata, snapshotID int64, filter expr.Expr, opts Options, stats *Stats) (p *planner, data, deletes []iceberg.ManifestFile, err error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	snap, ok := meta.SnapshotByID(snapshotID)
	if !ok {
		return nil, nil, nil, fmt.Errorf("%w: %d", iceberg.ErrNoSuchSnapshot, snapshotID)
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
		return nil, nil, nil, err
	}
	manifests, err := snapshotManifests(ctx, open, snap, opts.Cache)
	if err != nil {
		return nil, nil, nil, err
	}
	p = &planner{schema: schema, filter: bound, cache: opts.Cache, specs: map[int]*iceberg.PartitionSpec{}, perSpec: map[int]*specEvaluators{}}
	for _, s := range meta.Specs() {
		p.specs[s.ID] = s
	}
	for _, mf := range manifests {
		isData := mf.Content == iceberg.ManifestContentData
		if isData {
			stats.Manifests++
		} else {
			stats.DeleteManifests++
		}
		keep, err := p.keepManifest(&mf)
		if err != nil {
			return nil, nil, nil, &PlanError{Path: mf.Path, Err: err}
		}
		switch {
		case !keep && isData:
			stats.ManifestsPruned++
		case !keep:
			stats.DeleteManifestsPruned++
		case isData:
			data = append(data, mf)
		default:
			deletes = append(deletes, mf)
		}
	}
	return p, data, deletes, nil
}

func seqOf(e iceberg.ManifestEntry) int64 {
	if e.SequenceNumber != nil {
		return *e.SequenceNumber
	}
	return 0
}

// snapshotManifests is SnapshotManifests through the cache, with errors
// as *PlanError.
func snapshotManifests(ctx context.Context, open Opener, snap *iceberg.Snapshot, cache *ManifestCache) ([]iceberg.ManifestFile, error) {
	if snap.ManifestList == "" {
		return cache.inlineManifests(snap, func() ([]iceberg.ManifestFile, error) {
			mfs, path, err := inlineManifests(ctx, open, snap)
			if err != nil {
				return nil, &PlanError{Path: path, Err: err}
			}
			return mfs, nil
		})
	}
	return cache.manifestList(snap.ManifestList, func() ([]iceberg.ManifestFile, error) {
		list, err := ReadManifestList(open, snap.ManifestList)
		if err != nil {
			return nil, &PlanError{Path: snap.ManifestList, Err: err}
		}
		return list, nil
	})
}
