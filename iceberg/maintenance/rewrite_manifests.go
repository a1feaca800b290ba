package maintenance

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/manifest"
	"github.com/icesql/icesql/iceberg/table"
)

// totalKeys are the summary totals a replace snapshot carries over
// unchanged from its parent.
var totalKeys = []string{"total-records", "total-files-size", "total-data-files", "total-delete-files",
	"total-position-deletes", "total-equality-deletes"}

// RewriteManifests rewrites main's data manifests into manifests of about
// commit.manifest.target-size-bytes whose entries are grouped by spec and
// sorted by partition tuple, committed as one replace snapshot (delete
// manifests are carried over). Entries keep their snapshot ids and sequence
// numbers. If main moves concurrently the rewrite is redone on the new head.
// Format v3 tables are refused (row lineage ids would have to be kept).
func RewriteManifests(ctx context.Context, tbl *table.Table) (RewriteManifestsResult, error) {
	if tbl.Metadata().FormatVersion() >= 3 {
		return RewriteManifestsResult{}, fmt.Errorf("maintenance: rewrite_manifests: %w: format version 3", iceberg.ErrUnsupported)
	}
	var res RewriteManifestsResult
	var written []string
	cleanup := func() {
		for _, p := range written {
			tbl.IO().Remove(context.WithoutCancel(ctx), p)
		}
		written = nil
	}
	_, err := commitMetadata(ctx, tbl, func(t *table.Table) ([]iceberg.Update, error) {
		cleanup() // files of an attempt that lost to a concurrent commit
		res = RewriteManifestsResult{}
		ups, err := rewriteManifestsOn(ctx, t, &res, &written)
		if err != nil {
			cleanup()
		}
		return ups, err
	})
	if err != nil {
		if !errors.Is(err, iceberg.ErrCommitStateUnknown) {
			cleanup()
		}
		return RewriteManifestsResult{}, err
	}
	return res, nil
}

// rewriteManifestsOn writes the new manifests and manifest list for the
// table's head and returns the updates that install them.
func rewriteManifestsOn(ctx context.Context, t *table.Table, res *RewriteManifestsResult, written *[]string) ([]iceberg.Update, error) {
	meta := t.Metadata()
	parent := meta.CurrentSnapshot()
	if parent == nil {
		return nil, nil
	}
	mfs, err := table.ManifestsOf(ctx, t.IO(), parent)
	if err != nil {
		return nil, err
	}
	var kept []iceberg.ManifestFile
	bySpec := map[int][]iceberg.ManifestEntry{}
	for _, mf := range mfs {
		if mf.Content != iceberg.ManifestContentData {
			kept = append(kept, mf)
			continue
		}
		res.RewrittenManifestsCount++
		entries, err := table.EntriesOf(ctx, t.IO(), meta, mf)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Status != iceberg.StatusDeleted {
				e.Status = iceberg.StatusExisting
				bySpec[mf.SpecID] = append(bySpec[mf.SpecID], e)
			}
		}
	}
	if res.RewrittenManifestsCount == 0 {
		return nil, nil
	}
	snapID := newSnapshotID(meta)
	target := meta.PropertyInt(iceberg.PropManifestTargetSizeBytes, iceberg.DefaultManifestTargetSizeBytes)
	specs := make([]int, 0, len(bySpec))
	for id := range bySpec {
		specs = append(specs, id)
	}
	slices.Sort(specs)
	var created []iceberg.ManifestFile
	processed := 0
	for _, specID := range specs {
		entries := bySpec[specID]
		processed += len(entries)
		slices.SortStableFunc(entries, func(a, b iceberg.ManifestEntry) int {
			return comparePartitions(a.DataFile.Partition, b.DataFile.Partition)
		})
		out, err := writeManifests(ctx, t, specID, snapID, entries, target, written)
		if err != nil {
			return nil, err
		}
		created = append(created, out...)
	}
	res.AddedManifestsCount = int64(len(created))

	seq := meta.NextSequenceNumber()
	listLoc := fmt.Sprintf("%s/snap-%d-1-%s.avro", t.MetadataDir(), snapID, iceberg.NewUUIDString())
	parentID := parent.SnapshotID
	out, err := t.IO().Create(ctx, listLoc)
	if err != nil {
		return nil, err
	}
	all := append(created, kept...)
	if _, err := manifest.WriteManifestList(out, meta.FormatVersion(), snapID, &parentID, seq, nil, all); err != nil {
		out.Abort()
		return nil, err
	}
	if err := out.Close(); err != nil {
		return nil, err
	}
	*written = append(*written, listLoc)

	summary := map[string]string{
		iceberg.SummaryOperation: string(iceberg.OpReplace),
		"manifests-created":      strconv.Itoa(len(created)),
		"manifests-kept":         strconv.Itoa(len(kept)),
		"manifests-replaced":     strconv.FormatInt(res.RewrittenManifestsCount, 10),
		"entries-processed":      strconv.Itoa(processed),
		"engine-name":            "icesql",
		"engine-version":         table.EngineVersion,
	}
	for _, k := range totalKeys {
		if v, ok := parent.Summary[k]; ok {
			summary[k] = v
		}
	}
	schemaID := meta.CurrentSchemaID()
	snap := &iceberg.Snapshot{
		SnapshotID: snapID, ParentSnapshotID: &parentID, SequenceNumber: seq,
		TimestampMs: max(now(t).UnixMilli(), meta.LastUpdatedMs()), ManifestList: listLoc,
		Summary: summary, SchemaID: &schemaID,
	}
	ref := withSnapshot(mainRef(meta), snapID)
	return []iceberg.Update{iceberg.AddSnapshotUpdate{Snapshot: snap}, iceberg.SetSnapshotRefUpdate{Name: iceberg.MainBranch, Ref: ref}}, nil
}

// writeManifests writes sorted entries of one spec into manifests rolled
// at the target size.
func writeManifests(ctx context.Context, t *table.Table, specID int, snapID int64, entries []iceberg.ManifestEntry,
	target int64, written *[]string) ([]iceberg.ManifestFile, error) {
	meta := t.Metadata()
	spec, ok := meta.SpecByID(specID)
	if !ok {
		return nil, fmt.Errorf("%w: partition spec %d", iceberg.ErrInvalidPartitionSpec, specID)
	}
	var out []iceberg.ManifestFile
	for len(entries) > 0 {
		loc := fmt.Sprintf("%s/%s-m0.avro", t.MetadataDir(), iceberg.NewUUIDString())
		f, err := t.IO().Create(ctx, loc)
		if err != nil {
			return nil, err
		}
		w, err := manifest.NewManifestWriter(f, meta.FormatVersion(), spec, meta.CurrentSchema(), iceberg.ManifestContentData, snapID)
		if err != nil {
			f.Abort()
			return nil, err
		}
		n := 0
		for n < len(entries) && (n == 0 || w.BytesWritten() < target) {
			if err := w.WriteEntry(entries[n]); err != nil {
				f.Abort()
				return nil, err
			}
			n++
		}
		if err := w.Close(); err != nil {
			f.Abort()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		*written = append(*written, loc)
		out = append(out, w.ToManifestFile(loc, f.Written()))
		entries = entries[n:]
	}
	return out, nil
}

// comparePartitions orders partition tuples field by field, nulls first.
func comparePartitions(a, b []any) int {
	for i := range min(len(a), len(b)) {
		if c := compareSortValues(a[i], b[i], iceberg.SortField{NullOrder: iceberg.NullsFirst}); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// newSnapshotID returns a random positive id not used by the table.
func newSnapshotID(meta *iceberg.TableMetadata) int64 {
	for {
		var b [8]byte
		rand.Read(b[:])
		id := int64(binary.BigEndian.Uint64(b[:]) &^ (1 << 63))
		if _, taken := meta.SnapshotByID(id); id != 0 && !taken {
			return id
		}
	}
}
