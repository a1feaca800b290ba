package table

import (
	"context"
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/manifest"
)

// ManifestsOf returns the manifests of a snapshot (none for nil): its
// manifest list's, or those a v1 snapshot names inline (see
// scan.InlineManifests). Files that do not decode are
// *iceberg.CorruptFileError; missing ones fileio's not-found error.
func ManifestsOf(ctx context.Context, fio fileio.FileIO, s *iceberg.Snapshot) ([]iceberg.ManifestFile, error) {
	if s == nil {
		return nil, nil
	}
	if s.ManifestList == "" {
		return inlineManifestsOf(ctx, fio, s)
	}
	f, err := fio.Open(ctx, s.ManifestList)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mfs, err := manifest.ReadManifestList(f, manifest.WithPath(s.ManifestList))
	if err != nil {
		return nil, &iceberg.CorruptFileError{Path: s.ManifestList, Kind: iceberg.ErrInvalidManifest, Err: err}
	}
	return mfs, nil
}

// EntriesOf reads every entry of a manifest, with inherited snapshot ids
// and sequence numbers resolved.
func EntriesOf(ctx context.Context, fio fileio.FileIO, meta *iceberg.TableMetadata, mf iceberg.ManifestFile) ([]iceberg.ManifestEntry, error) {
	f, err := fio.Open(ctx, mf.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opts := []manifest.ReadOption{manifest.WithPath(mf.Path)}
	if spec, ok := meta.SpecByID(mf.SpecID); ok {
		if pt, err := spec.PartitionType(meta.CurrentSchema()); err == nil {
			opts = append(opts, manifest.WithPartitionType(pt))
		}
	}
	entries, err := manifest.ReadManifestEntries(f, mf, opts...)
	if err != nil {
		return nil, &iceberg.CorruptFileError{Path: mf.Path, Kind: iceberg.ErrInvalidManifest, Err: err}
	}
	return entries, nil
}

// writeManifest writes one manifest of entries for a spec and returns its
// list entry. Entries with status ADDED must be this snapshot's.
func (u *SnapshotUpdate) writeManifest(ctx context.Context, meta *iceberg.TableMetadata, specID int,
	content iceberg.ManifestContent, entries []iceberg.ManifestEntry) (iceberg.ManifestFile, error) {
	spec, ok := meta.SpecByID(specID)
	if !ok {
		return iceberg.ManifestFile{}, fmt.Errorf("%w: partition spec %d", iceberg.ErrInvalidPartitionSpec, specID)
	}
	u.manifestSeq++
	loc := fmt.Sprintf("%s/%s-m%d.avro", metadataDir(meta), u.commitUUID, u.manifestSeq-1)
	out, err := u.table.env.createLazy(ctx, loc)
	if err != nil {
		return iceberg.ManifestFile{}, err
	}
	w, err := manifest.NewManifestWriter(out, meta.FormatVersion(), spec, meta.CurrentSchema(), content, u.snapshotID)
	if err != nil {
		out.Abort()
		return iceberg.ManifestFile{}, err
	}
	for _, e := range entries {
		if err := w.WriteEntry(e); err != nil {
			out.Abort()
			return iceberg.ManifestFile{}, err
		}
	}
	if err := w.Close(); err != nil {
		out.Abort()
		return iceberg.ManifestFile{}, err
	}
	if err := out.Close(); err != nil {
		return iceberg.ManifestFile{}, err
	}
	return w.ToManifestFile(loc, out.Written()), nil
}
