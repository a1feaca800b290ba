package scan

import (
	"context"
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/manifest"
)

// parentState plans the table as it was just before snap from snap's own
// manifests, for a snapshot whose parent was expired: the files live in
// snap that it did not add, plus the files it deleted (a DELETED entry
// keeps the file's sequence numbers). Data and delete files alike, so the
// deletes applying to each data file are those of the parent.
func parentState(ctx context.Context, open Opener, meta *iceberg.TableMetadata, snap *iceberg.Snapshot, cache *ManifestCache) (map[string]FileScanTask, error) {
	manifests, err := snapshotManifests(ctx, open, snap, cache)
	if err != nil {
		return nil, err
	}
	schema := meta.CurrentSchema()
	var data []iceberg.ManifestEntry
	var deletes []DeleteFile
	specs := map[int]*iceberg.PartitionSpec{}
	for _, s := range meta.Specs() {
		specs[s.ID] = s
	}
	for _, mf := range manifests {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		spec, ok := specs[mf.SpecID]
		if !ok {
			return nil, &PlanError{Path: mf.Path, Err: fmt.Errorf("%w: partition spec %d is not in the table metadata", iceberg.ErrInvalidManifest, mf.SpecID)}
		}
		ptype, err := expr.PartitionType(spec, schema)
		if err != nil {
			return nil, &PlanError{Path: mf.Path, Err: err}
		}
		entries, err := readAllEntries(open, mf, ptype)
		if err != nil {
			return nil, &PlanError{Path: mf.Path, Err: err}
		}
		for _, e := range entries {
			bySnap := e.SnapshotID != nil && *e.SnapshotID == snap.SnapshotID
			before := false
			switch e.Status {
			case iceberg.StatusDeleted:
				before = bySnap
			case iceberg.StatusAdded:
				before = !bySnap
			default:
				before = true
			}
			if !before {
				continue
			}
			e.DataFile.SpecID = mf.SpecID
			if mf.Content == iceberg.ManifestContentData {
				data = append(data, e)
			} else {
				deletes = append(deletes, DeleteFile{File: e.DataFile, DataSequenceNumber: seqOf(e)})
			}
		}
	}
	index := newDeleteIndex(deletes, specs)
	out := make(map[string]FileScanTask, len(data))
	for _, e := range data {
		f := e.DataFile
		seq := seqOf(e)
		out[f.FilePath] = FileScanTask{File: f, DataSequenceNumber: seq, Deletes: index.forFile(&f, seq), Spec: specs[f.SpecID]}
	}
	return out, nil
}

// readAllEntries decodes every entry of a manifest, DELETED ones too.
func readAllEntries(open Opener, mf iceberg.ManifestFile, ptype *iceberg.StructType) ([]iceberg.ManifestEntry, error) {
	rc, err := open(mf.Path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return manifest.ReadManifestEntries(rc, mf, manifest.WithPath(mf.Path), manifest.WithPartitionType(ptype))
}
