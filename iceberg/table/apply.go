package table

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
)

// attempt is one try at a commit: the new metadata and the files written
// for it that no other attempt reuses.
type attempt struct {
	base     *Table
	meta     *iceberg.TableMetadata // base plus updates, in memory until write
	updates  []iceberg.Update
	location string // the written metadata.json
	snapshot *iceberg.Snapshot
	// manifests is the snapshot's manifest list, to find new manifests
	// that a merge replaced.
	manifests []iceberg.ManifestFile
	written   []string // manifest list, rewritten/merged manifests, metadata.json
	list      *writtenList
	summary   *summaryBuilder
	// expired are the snapshots the attempt also removes
	// (expireHistory), whose files go once it landed.
	expired []int64
}

// apply builds the snapshot of this update on top of base (attempt n).
func (u *SnapshotUpdate) apply(ctx context.Context, base *Table, n int) (*attempt, error) {
	meta := base.meta
	if u.snapshotID == 0 {
		u.snapshotID = newSnapshotID(func(id int64) bool { _, ok := meta.SnapshotByID(id); return ok })
	} else if _, taken := meta.SnapshotByID(u.snapshotID); taken {
		return nil, fmt.Errorf("%w: snapshot id %d was taken by a concurrent commit", iceberg.ErrCommitFailed, u.snapshotID)
	}
	var parent *iceberg.Snapshot
	if ref, ok := meta.Ref(u.branch); ok {
		parent, _ = meta.SnapshotByID(ref.SnapshotID)
	} else if u.branch != MainBranch {
		return nil, fmt.Errorf("%w: branch %q of %s", iceberg.ErrNoSuchRef, u.branch, base.ident)
	}
	if u.val != nil {
		if err := u.validate(ctx, base, parent); err != nil {
			return nil, err
		}
	}
	at := &attempt{base: base, summary: newSummaryBuilder()}
	fail := func(err error) (*attempt, error) {
		u.cleanup(ctx, at.written)
		return nil, err
	}

	if err := u.writeNewManifests(ctx, meta); err != nil {
		return fail(err)
	}
	for _, f := range u.addedData {
		at.summary.addedFile(f)
	}
	for _, f := range u.addedDeletes {
		at.summary.addedFile(f)
	}

	existing, err := base.manifestsOf(ctx, parent)
	if err != nil {
		return fail(err)
	}
	kept, err := u.removeFiles(ctx, meta, existing, at)
	if err != nil {
		return fail(err)
	}
	manifests := append(slices.Clone(u.newMfs), kept...)
	if !u.fast && meta.PropertyBool(iceberg.PropManifestMergeEnabled, iceberg.DefaultManifestMergeEnabled) {
		if manifests, err = u.mergeManifests(ctx, meta, manifests, at); err != nil {
			return fail(err)
		}
	}

	seq := meta.NextSequenceNumber()
	// Lists are numbered by application, as Java numbers them by attempt:
	// a staged update may be applied again before its commit's attempts.
	u.lists++
	listLoc := fmt.Sprintf("%s/snap-%d-%d-%s.avro", metadataDir(meta), u.snapshotID, u.lists, u.commitUUID)
	var parentID *int64
	var prevSummary map[string]string
	if parent != nil {
		id := parent.SnapshotID
		parentID = &id
		prevSummary = parent.Summary
	}
	snap := &iceberg.Snapshot{
		SnapshotID:       u.snapshotID,
		ParentSnapshotID: parentID,
		SequenceNumber:   seq,
		TimestampMs:      max(base.env.now().UnixMilli(), meta.LastUpdatedMs()),
		ManifestList:     listLoc,
	}
	schemaID := meta.CurrentSchemaID()
	snap.SchemaID = &schemaID
	if err := u.writeManifestList(ctx, meta, snap, manifests, at); err != nil {
		return fail(err)
	}
	at.manifests = manifests
	snap.Summary = at.summary.build(u.operation(), prevSummary)
	for k, v := range u.summaryProps {
		snap.Summary[k] = v
	}
	at.snapshot = snap
	if err := base.env.Faults.at(FaultAfterManifests, base.ident); err != nil {
		return fail(err)
	}

	ref := iceberg.NewBranch(u.snapshotID)
	if old, ok := meta.Ref(u.branch); ok {
		ref.MaxRefAgeMs, ref.MaxSnapshotAgeMs, ref.MinSnapshotsToKeep = old.MaxRefAgeMs, old.MaxSnapshotAgeMs, old.MinSnapshotsToKeep
	}
	updates := []iceberg.Update{iceberg.AddSnapshotUpdate{Snapshot: snap}}
	if !u.stageOnly {
		updates = append(updates, iceberg.SetSnapshotRefUpdate{Name: u.branch, Ref: ref})
	}
	if err := at.stage(updates); err != nil {
		return fail(err)
	}
	return at, nil
}

// stage applies metadata updates to the base in memory.
func (at *attempt) stage(updates []iceberg.Update) error {
	base := at.base
	prev := base.location
	if base.staged {
		prev = "" // the base was never written: nothing to log
	}
	meta, err := iceberg.ApplyUpdates(base.meta, prev, updates)
	if err != nil {
		return err
	}
	at.meta = meta
	at.updates = append(at.updates, updates...)
	return nil
}

// write writes the staged metadata as the next metadata.json, except for
// a catalog that writes metadata itself: it receives the updates at the
// swap, and the attempt's location and metadata become the ones it wrote.
func (at *attempt) write(ctx context.Context) error {
	base := at.base
	if _, ok := base.env.Catalog.(MetadataCommitter); ok {
		return base.env.Faults.at(FaultAfterMetadata, base.ident)
	}
	loc, err := writeMetadataFile(ctx, base.env, at.meta, base.location)
	if err != nil {
		return err
	}
	at.location = loc
	at.written = append(at.written, loc)
	return base.env.Faults.at(FaultAfterMetadata, base.ident)
}

// change is the attempt in the REST catalog's commit shape: the updates
// staged on the base, with the requirements they need.
func (at *attempt) change() TableChange {
	return TableChange{Ident: at.base.ident, Base: at.base.meta,
		Requirements: iceberg.RequirementsFor(at.base.meta, at.updates), Updates: at.updates}
}

// installed takes what a MetadataCommitter wrote as the attempt's result.
func (at *attempt) installed(c Committed) {
	at.location, at.meta = c.Location, c.Metadata
}

// writeNewManifests writes the manifests of added files once; retries
// reuse them (their entries inherit the snapshot id and sequence number).
func (u *SnapshotUpdate) writeNewManifests(ctx context.Context, meta *iceberg.TableMetadata) error {
	if u.newMfs != nil || (len(u.addedData) == 0 && len(u.addedDeletes) == 0) {
		return nil
	}
	write := func(files []iceberg.DataFile, content iceberg.ManifestContent) error {
		bySpec := map[int][]iceberg.ManifestEntry{}
		var specs []int
		for _, f := range files {
			if _, ok := bySpec[f.SpecID]; !ok {
				specs = append(specs, f.SpecID)
			}
			e := iceberg.ManifestEntry{Status: iceberg.StatusAdded, DataFile: f}
			if content == iceberg.ManifestContentData && u.dataSeq != nil {
				e.SequenceNumber = u.dataSeq
			}
			bySpec[f.SpecID] = append(bySpec[f.SpecID], e)
		}
		for _, id := range specs {
			mf, err := u.writeManifest(ctx, meta, id, content, bySpec[id])
			if err != nil {
				return err
			}
			u.newMfs = append(u.newMfs, mf)
			u.unsynced = append(u.unsynced, mf.Path)
		}
		return nil
	}
	if err := write(u.addedData, iceberg.ManifestContentData); err != nil {
		return err
	}
	if err := write(u.addedDeletes, iceberg.ManifestContentDeletes); err != nil {
		return err
	}
	if u.newMfs == nil {
		u.newMfs = []iceberg.ManifestFile{}
	}
	return nil
}

// removeFiles rewrites the parent's manifests that hold removed files
// (marking them DELETED) and returns the manifest list to carry forward.
func (u *SnapshotUpdate) removeFiles(ctx context.Context, meta *iceberg.TableMetadata,
	existing []iceberg.ManifestFile, at *attempt) ([]iceberg.ManifestFile, error) {
	if len(u.removed) == 0 && u.deleteFilter == nil {
		return existing, nil
	}
	want := map[string]bool{}
	for _, f := range u.removed {
		want[FileKey(f)] = true
	}
	var filter *fileFilter
	if u.deleteFilter != nil {
		var err error
		if filter, err = newFileFilter(meta, u.deleteFilter); err != nil {
			return nil, err
		}
	}
	found := map[string]bool{}
	var out []iceberg.ManifestFile
	for _, mf := range existing {
		if mf.AddedFilesCount+mf.ExistingFilesCount == 0 && mf.AddedSnapshotID != u.snapshotID {
			continue // nothing live: drop the manifest, as Java does
		}
		entries, err := EntriesOf(ctx, u.table.env.IO, meta, mf)
		if err != nil {
			return nil, err
		}
		var rewritten []iceberg.ManifestEntry
		touched := false
		for _, e := range entries {
			if e.Status == iceberg.StatusDeleted {
				continue
			}
			remove := want[FileKey(e.DataFile)]
			if !remove && filter != nil && e.DataFile.Content == iceberg.ContentData {
				all, some, err := filter.matches(e.DataFile)
				if err != nil {
					return nil, err
				}
				if some && !all {
					return nil, &iceberg.ValidationError{Table: u.table.ident.String(), Filter: u.deleteFilter.String(),
						Reason: "cannot delete file where some, but not all, rows match the filter", ConflictingFiles: []string{e.DataFile.FilePath}}
				}
				remove = all
			}
			if remove {
				touched = true
				found[FileKey(e.DataFile)] = true
				at.summary.removedFile(e.DataFile)
				sid := u.snapshotID
				e.Status, e.SnapshotID = iceberg.StatusDeleted, &sid
			} else {
				e.Status = iceberg.StatusExisting
			}
			rewritten = append(rewritten, e)
		}
		if !touched {
			out = append(out, mf)
			continue
		}
		nmf, err := u.writeManifest(ctx, meta, mf.SpecID, mf.Content, rewritten)
		if err != nil {
			return nil, err
		}
		at.written = append(at.written, nmf.Path)
		out = append(out, nmf)
	}
	var missing []string
	for _, f := range u.removed {
		if !found[FileKey(f)] {
			missing = append(missing, f.FilePath)
		}
	}
	if len(missing) > 0 {
		return nil, &iceberg.ValidationError{Table: u.table.ident.String(), IsolationLevel: u.isolation(),
			Reason: "missing required files to delete (removed by a concurrent commit)", ConflictingFiles: missing}
	}
	return out, nil
}

// FileKey identifies a file to remove: its path, and for a deletion
// vector also its blob's offset, since one Puffin file holds the DVs of
// many data files and removing one must keep the others (Java keys its
// DeleteFileSet the same way).
func FileKey(f iceberg.DataFile) string {
	if isDV(f) && f.ContentOffset != nil {
		return f.FilePath + "#" + strconv.FormatInt(*f.ContentOffset, 10)
	}
	return f.FilePath
}

func (u *SnapshotUpdate) isolation() string {
	if u.val != nil {
		return u.val.isolation
	}
	return ""
}

// writeManifestList writes the list and, for v3, the snapshot's row-id
// range. Manifest bookkeeping keys (manifests-created, -kept, ...) are
// left to rewrite_manifests, as Java writes them nowhere else.
func (u *SnapshotUpdate) writeManifestList(ctx context.Context, meta *iceberg.TableMetadata, snap *iceberg.Snapshot,
	manifests []iceberg.ManifestFile, at *attempt) error {
	out, err := u.table.env.createLazy(ctx, snap.ManifestList)
	if err != nil {
		return err
	}
	var firstRowID *int64
	if meta.FormatVersion() >= 3 {
		next := meta.NextRowID()
		firstRowID = &next
	}
	written, nextRowID, err := writeList(out, meta.FormatVersion(), snap, firstRowID, manifests)
	if err != nil {
		out.Abort()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	at.written = append(at.written, snap.ManifestList)
	at.list = &writtenList{location: snap.ManifestList, manifests: written}
	if firstRowID != nil && nextRowID != nil {
		added := *nextRowID - *firstRowID
		snap.FirstRowID, snap.AddedRows = firstRowID, &added
	}
	return nil
}

// fileFilter decides whether all or some rows of a data file match a row
// filter, from its partition tuple (through the filter's projections onto
// the file's spec) and its column metrics.
type fileFilter struct {
	meta      *iceberg.TableMetadata
	bound     expr.BoundExpr
	inclusive *expr.InclusiveMetricsEvaluator
	strict    *expr.StrictMetricsEvaluator
	specs     map[int]*specFilter
}

type specFilter struct {
	inclusive, strict *expr.PartitionEvaluator // nil: cannot project
}

func newFileFilter(meta *iceberg.TableMetadata, filter expr.Expr) (*fileFilter, error) {
	bound, err := expr.Bind(meta.CurrentSchema(), filter, false)
	if err != nil {
		return nil, err
	}
	return &fileFilter{meta: meta, bound: bound, inclusive: expr.NewInclusiveMetricsEvaluator(bound),
		strict: expr.NewStrictMetricsEvaluator(bound), specs: map[int]*specFilter{}}, nil
}

func (f *fileFilter) spec(id int) *specFilter {
	if sf, ok := f.specs[id]; ok {
		return sf
	}
	sf := &specFilter{}
	if spec, ok := f.meta.SpecByID(id); ok {
		schema := f.meta.CurrentSchema()
		if p, err := expr.InclusiveProjection(spec, schema, f.bound); err == nil {
			sf.inclusive = expr.NewPartitionEvaluator(spec, p)
		}
		if p, err := expr.StrictProjection(spec, schema, f.bound); err == nil {
			sf.strict = expr.NewPartitionEvaluator(spec, p)
		}
	}
	f.specs[id] = sf
	return sf
}

func (f *fileFilter) matches(df iceberg.DataFile) (all, some bool, err error) {
	sf := f.spec(df.SpecID)
	if sf.inclusive != nil && !sf.inclusive.Eval(df.Partition) {
		return false, false, nil
	}
	if some, err = f.inclusive.Eval(&df); err != nil || !some {
		return false, false, err
	}
	if df.Content != iceberg.ContentData {
		return false, true, nil // delete files' metrics describe deleted rows, not a whole file
	}
	if sf.strict != nil && sf.strict.Eval(df.Partition) {
		return true, true, nil
	}
	all, err = f.strict.Eval(&df)
	return all, some, err
}
