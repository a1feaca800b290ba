package table

import (
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
)

// SnapshotUpdate collects the file changes of one snapshot: files to add,
// files to remove, rows to delete by filter, and what to validate against
// concurrent commits. Nothing is written until Commit. Its content is
// independent of the base metadata, so every retry re-applies the same
// changes onto the latest table without rewriting data.
type SnapshotUpdate struct {
	table  *Table
	op     iceberg.Operation // empty: derived from the changes
	branch string

	addedData    []iceberg.DataFile
	addedDeletes []iceberg.DataFile
	removed      []iceberg.DataFile // by path
	deleteFilter expr.Expr          // metadata-only delete of whole files
	val          *validation
	summaryProps map[string]string
	ownFiles     bool
	fast         bool
	dataSeq      *int64 // explicit data sequence number of added data files
	stageOnly    bool   // add the snapshot without moving the branch

	// State kept across attempts.
	snapshotID  int64
	commitUUID  string
	newMfs      []iceberg.ManifestFile // manifests of added files, written once
	unsynced    []string               // new manifests not yet made durable
	filesSynced bool                   // added data and delete files made durable
	manifestSeq int
	lists       int // manifest lists written, which numbers the next one
}

// validation is what to check against commits made since the operation's
// starting snapshot (Java's validateFromSnapshot and friends).
type validation struct {
	fromSnapshot   *int64 // nil: the operation started on an empty table
	isolation      string
	conflictFilter expr.Expr
	// noNewData: fail on data files added since the start that may match
	// the filter (serializable).
	noNewData bool
	// noNewDeletes: fail on delete files added since the start that may
	// match the filter, and on data files matching it removed by others.
	noNewDeletes bool
	// referenced data files (position deletes' targets) must still exist.
	referenced []string
}

func (t *Table) newUpdate(op iceberg.Operation) *SnapshotUpdate {
	return &SnapshotUpdate{table: t, op: op, branch: MainBranch, commitUUID: iceberg.NewUUIDString()}
}

// MainBranch is the default branch.
const MainBranch = "main"

// NewAppend starts an append: data files only. Manifests are merged per
// commit.manifest-merge.enabled and friends.
func (t *Table) NewAppend() *SnapshotUpdate { return t.newUpdate(iceberg.OpAppend) }

// NewFastAppend starts an append that never merges manifests.
func (t *Table) NewFastAppend() *SnapshotUpdate {
	u := t.newUpdate(iceberg.OpAppend)
	u.fast = true
	return u
}

// NewOverwrite starts an overwrite: files added and removed as one logical
// change (copy-on-write DELETE/UPDATE/MERGE, INSERT OVERWRITE).
func (t *Table) NewOverwrite() *SnapshotUpdate { return t.newUpdate(iceberg.OpOverwrite) }

// NewRowDelta starts a row delta: data files plus delete files
// (merge-on-read). Its operation is delete when it adds only delete files.
func (t *Table) NewRowDelta() *SnapshotUpdate { return t.newUpdate("") }

// NewDelete starts a delete of whole files or of rows by a filter that
// selects whole files (metadata-only delete).
func (t *Table) NewDelete() *SnapshotUpdate { return t.newUpdate(iceberg.OpDelete) }

// NewRewrite starts a rewrite (compaction): replaced files and their
// replacements hold the same rows.
func (t *Table) NewRewrite() *SnapshotUpdate { return t.newUpdate(iceberg.OpReplace) }

// ToBranch commits to a branch other than main.
func (u *SnapshotUpdate) ToBranch(name string) *SnapshotUpdate { u.branch = name; return u }

// StageOnly adds the snapshot to the table without moving the branch to
// it (write-audit-publish): readers do not see it until it is published,
// for example by cherry-picking it. Its parent is the branch's head.
func (u *SnapshotUpdate) StageOnly() *SnapshotUpdate { u.stageOnly = true; return u }

// Table is the version of the table the update started from.
func (u *SnapshotUpdate) Table() *Table { return u.table }

// Staged reports whether the update only stages its snapshot.
func (u *SnapshotUpdate) Staged() bool { return u.stageOnly }

// AddDataFile adds a data file.
func (u *SnapshotUpdate) AddDataFile(f iceberg.DataFile) *SnapshotUpdate {
	u.addedData = append(u.addedData, f)
	return u
}

// AddDeleteFile adds a position or equality delete file.
func (u *SnapshotUpdate) AddDeleteFile(f iceberg.DataFile) *SnapshotUpdate {
	u.addedDeletes = append(u.addedDeletes, f)
	return u
}

// RemoveFile removes a data or delete file (matched by FileKey: the path,
// and a deletion vector's offset in its Puffin file). A file that is no
// longer in the table when the commit applies fails validation.
func (u *SnapshotUpdate) RemoveFile(f iceberg.DataFile) *SnapshotUpdate {
	u.removed = append(u.removed, f)
	return u
}

// DeleteWhere removes every data file whose rows all match the filter; a
// file where only some rows match fails the commit (it needs a row-level
// delete instead).
func (u *SnapshotUpdate) DeleteWhere(filter expr.Expr) *SnapshotUpdate {
	u.deleteFilter = filter
	return u
}

// KeepDataSequenceNumber gives the added data files an explicit, older
// data sequence number (a compaction's starting snapshot's), so delete
// files committed since then still apply to the rewritten rows (Spark's
// use-starting-sequence-number).
func (u *SnapshotUpdate) KeepDataSequenceNumber(seq int64) *SnapshotUpdate {
	u.dataSeq = &seq
	return u
}

// SetSummary adds a custom summary property.
func (u *SnapshotUpdate) SetSummary(key, value string) *SnapshotUpdate {
	if u.summaryProps == nil {
		u.summaryProps = map[string]string{}
	}
	u.summaryProps[key] = value
	return u
}

// OwnFiles makes the update responsible for the data and delete files it
// adds: they are removed if the commit finally fails (but never when its
// state is unknown).
func (u *SnapshotUpdate) OwnFiles() *SnapshotUpdate { u.ownFiles = true; return u }

// Validate checks, at commit, every snapshot committed since fromSnapshot
// (nil for an empty table) for conflicts with this operation, as Java's
// row-level operations do. isolation is "serializable" (new data files
// matching conflictFilter conflict too) or "snapshot".
func (u *SnapshotUpdate) Validate(fromSnapshot *int64, isolation string, conflictFilter expr.Expr) *SnapshotUpdate {
	if conflictFilter == nil {
		conflictFilter = expr.True()
	}
	u.val = &validation{
		fromSnapshot:   fromSnapshot,
		isolation:      isolation,
		conflictFilter: conflictFilter,
		noNewData:      isolation != iceberg.IsolationSnapshot,
		noNewDeletes:   true,
	}
	return u
}

// RequireDataFiles makes the commit fail validation unless these data
// files are still live (the targets of new position deletes).
func (u *SnapshotUpdate) RequireDataFiles(paths ...string) *SnapshotUpdate {
	if u.val == nil {
		u.Validate(nil, iceberg.IsolationSnapshot, nil)
		u.val.noNewDeletes = false
		u.val.fromSnapshot = currentSnapshotID(u.table.meta)
	}
	u.val.referenced = append(u.val.referenced, paths...)
	return u
}

func currentSnapshotID(m *iceberg.TableMetadata) *int64 {
	if s := m.CurrentSnapshot(); s != nil {
		id := s.SnapshotID
		return &id
	}
	return nil
}

// operation derives the summary operation from the changes (Java's rules).
func (u *SnapshotUpdate) operation() iceberg.Operation {
	if u.op != "" {
		return u.op
	}
	if len(u.addedData) == 0 && len(u.addedDeletes) > 0 {
		return iceberg.OpDelete
	}
	if len(u.removed) == 0 && len(u.addedDeletes) == 0 && u.deleteFilter == nil {
		return iceberg.OpAppend
	}
	return iceberg.OpOverwrite
}
