package table

import (
	"context"
	"io"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/manifest"
)

func writeList(w io.Writer, version int, snap *iceberg.Snapshot, firstRowID *int64, manifests []iceberg.ManifestFile) ([]iceberg.ManifestFile, *int64, error) {
	return manifest.WriteManifestListEntries(w, version, snap.SnapshotID, snap.ParentSnapshotID, snap.SequenceNumber, firstRowID, manifests)
}

// mergeManifests bin-packs small manifests, as Java's merge append does:
// manifests are grouped by spec and content; a group is merged only once
// it holds commit.manifest.min-count-to-merge manifests, into bins of at
// most commit.manifest.target-size-bytes. New manifests come first, so the
// newest data lands in the first bin.
func (u *SnapshotUpdate) mergeManifests(ctx context.Context, meta *iceberg.TableMetadata,
	manifests []iceberg.ManifestFile, at *attempt) ([]iceberg.ManifestFile, error) {
	minCount := int(meta.PropertyInt(iceberg.PropManifestMinMergeCount, iceberg.DefaultManifestMinMergeCount))
	target := meta.PropertyInt(iceberg.PropManifestTargetSizeBytes, iceberg.DefaultManifestTargetSizeBytes)
	if minCount < 2 {
		minCount = 2
	}
	type key struct {
		spec    int
		content iceberg.ManifestContent
	}
	groups := map[key][]iceberg.ManifestFile{}
	var order []key
	for _, mf := range manifests {
		k := key{mf.SpecID, mf.Content}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], mf)
	}
	var out []iceberg.ManifestFile
	for _, k := range order {
		g := groups[k]
		if len(g) < minCount {
			out = append(out, g...)
			continue
		}
		var bin []iceberg.ManifestFile
		var size int64
		flush := func() error {
			if len(bin) == 1 {
				out = append(out, bin[0])
			} else if len(bin) > 1 {
				mf, err := u.mergeBin(ctx, meta, k.spec, k.content, bin)
				if err != nil {
					return err
				}
				at.written = append(at.written, mf.Path)
				out = append(out, mf)
			}
			bin, size = nil, 0
			return nil
		}
		for _, mf := range g {
			if size+mf.Length > target && len(bin) > 0 {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			bin = append(bin, mf)
			size += mf.Length
		}
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mergeBin writes one manifest holding the live entries of several: this
// snapshot's additions stay ADDED, everything else becomes EXISTING with
// its sequence numbers explicit; older DELETED entries are dropped.
func (u *SnapshotUpdate) mergeBin(ctx context.Context, meta *iceberg.TableMetadata, specID int,
	content iceberg.ManifestContent, bin []iceberg.ManifestFile) (iceberg.ManifestFile, error) {
	var entries []iceberg.ManifestEntry
	for _, mf := range bin {
		es, err := EntriesOf(ctx, u.table.env.IO, meta, mf)
		if err != nil {
			return iceberg.ManifestFile{}, err
		}
		for _, e := range es {
			own := e.SnapshotID != nil && *e.SnapshotID == u.snapshotID
			switch {
			case own && e.Status == iceberg.StatusAdded:
				// Keep inheritance: the new snapshot's seq is not known yet
				// (unless the update pins an older data sequence number).
				e.SnapshotID, e.FileSequenceNumber = nil, nil
				if e.SequenceNumber != nil && *e.SequenceNumber < 0 || u.dataSeq == nil {
					e.SequenceNumber = nil
				}
			case own && e.Status == iceberg.StatusDeleted:
			case e.Status == iceberg.StatusDeleted:
				continue
			default:
				e.Status = iceberg.StatusExisting
			}
			entries = append(entries, e)
		}
	}
	return u.writeManifest(ctx, meta, specID, content, entries)
}
