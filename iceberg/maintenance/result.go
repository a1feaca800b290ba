package maintenance

import "github.com/icesql/icesql/iceberg"

// Column is one column of a procedure's result set.
type Column struct {
	Name string
	Type iceberg.Type
}

// Result is a procedure's output as a result set: column names and types
// as Spark reports them, and rows of Go values in iceberg's value form
// (int64, string, nil for null).
type Result interface {
	Columns() []Column
	Rows() [][]any
}

var (
	longType   = iceberg.LongType{}
	stringType = iceberg.StringType{}
)

// ExpireResult is expire_snapshots' output.
type ExpireResult struct {
	DeletedDataFilesCount           int64
	DeletedPositionDeleteFilesCount int64
	DeletedEqualityDeleteFilesCount int64
	DeletedManifestFilesCount       int64
	DeletedManifestListsCount       int64
	DeletedStatisticsFilesCount     int64
	// ExpiredSnapshotIDs are the snapshots removed from metadata (not a
	// Spark column; useful to callers and tests).
	ExpiredSnapshotIDs []int64
}

// Columns implements Result.
func (ExpireResult) Columns() []Column {
	return []Column{
		{"deleted_data_files_count", longType},
		{"deleted_position_delete_files_count", longType},
		{"deleted_equality_delete_files_count", longType},
		{"deleted_manifest_files_count", longType},
		{"deleted_manifest_lists_count", longType},
		{"deleted_statistics_files_count", longType},
	}
}

// Rows implements Result.
func (r ExpireResult) Rows() [][]any {
	return [][]any{{r.DeletedDataFilesCount, r.DeletedPositionDeleteFilesCount, r.DeletedEqualityDeleteFilesCount,
		r.DeletedManifestFilesCount, r.DeletedManifestListsCount, r.DeletedStatisticsFilesCount}}
}

// OrphanResult is remove_orphan_files' output: one row per orphan file
// (deleted, or found when DryRun).
type OrphanResult struct {
	OrphanFileLocations []string
}

// Columns implements Result.
func (OrphanResult) Columns() []Column { return []Column{{"orphan_file_location", stringType}} }

// Rows implements Result.
func (r OrphanResult) Rows() [][]any {
	rows := make([][]any, len(r.OrphanFileLocations))
	for i, l := range r.OrphanFileLocations {
		rows[i] = []any{l}
	}
	return rows
}

// RewriteDataResult is rewrite_data_files' output.
type RewriteDataResult struct {
	RewrittenDataFilesCount int64
	AddedDataFilesCount     int64
	RewrittenBytesCount     int64
	FailedDataFilesCount    int64
	// RemovedDeleteFilesCount counts delete files dropped because every
	// data file they applied to was rewritten (not a Spark column).
	RemovedDeleteFilesCount int64
	// SnapshotID is the committed replace snapshot, 0 when nothing was
	// rewritten.
	SnapshotID int64
}

// Columns implements Result.
func (RewriteDataResult) Columns() []Column {
	return []Column{
		{"rewritten_data_files_count", longType},
		{"added_data_files_count", longType},
		{"rewritten_bytes_count", longType},
		{"failed_data_files_count", longType},
	}
}

// Rows implements Result.
func (r RewriteDataResult) Rows() [][]any {
	return [][]any{{r.RewrittenDataFilesCount, r.AddedDataFilesCount, r.RewrittenBytesCount, r.FailedDataFilesCount}}
}

// RewriteManifestsResult is rewrite_manifests' output, in Spark's columns
// (its documentation once misspelled the second "added_mainfests_count").
type RewriteManifestsResult struct {
	RewrittenManifestsCount int64
	AddedManifestsCount     int64
	SnapshotID              int64 // 0 when nothing was rewritten
}

// Columns implements Result.
func (RewriteManifestsResult) Columns() []Column {
	return []Column{{"rewritten_manifests_count", longType}, {"added_manifests_count", longType}}
}

// Rows implements Result.
func (r RewriteManifestsResult) Rows() [][]any {
	return [][]any{{r.RewrittenManifestsCount, r.AddedManifestsCount}}
}

// SnapshotChangeResult is the output of rollback_to_snapshot,
// rollback_to_timestamp and set_current_snapshot. PreviousSnapshotID is
// nil when main had no snapshot.
type SnapshotChangeResult struct {
	PreviousSnapshotID *int64
	CurrentSnapshotID  int64
}

// Columns implements Result.
func (SnapshotChangeResult) Columns() []Column {
	return []Column{{"previous_snapshot_id", longType}, {"current_snapshot_id", longType}}
}

// Rows implements Result.
func (r SnapshotChangeResult) Rows() [][]any {
	return [][]any{{optLong(r.PreviousSnapshotID), r.CurrentSnapshotID}}
}

// CherrypickResult is cherrypick_snapshot's output.
type CherrypickResult struct {
	SourceSnapshotID  int64
	CurrentSnapshotID int64
}

// Columns implements Result.
func (CherrypickResult) Columns() []Column {
	return []Column{{"source_snapshot_id", longType}, {"current_snapshot_id", longType}}
}

// Rows implements Result.
func (r CherrypickResult) Rows() [][]any { return [][]any{{r.SourceSnapshotID, r.CurrentSnapshotID}} }

// FastForwardResult is fast_forward's output.
type FastForwardResult struct {
	BranchUpdated string
	PreviousRef   *int64 // nil when the branch was empty
	UpdatedRef    int64
}

// Columns implements Result.
func (FastForwardResult) Columns() []Column {
	return []Column{{"branch_updated", stringType}, {"previous_ref", longType}, {"updated_ref", longType}}
}

// Rows implements Result.
func (r FastForwardResult) Rows() [][]any {
	return [][]any{{r.BranchUpdated, optLong(r.PreviousRef), r.UpdatedRef}}
}

// RefResult describes the branch or tag CreateRef left in place.
type RefResult struct {
	Name       string
	Type       iceberg.RefType
	SnapshotID int64
	// Created is false when IfNotExists found the ref already there.
	Created bool
}

// Columns implements Result.
func (RefResult) Columns() []Column {
	return []Column{{"name", stringType}, {"type", stringType}, {"snapshot_id", longType}}
}

// Rows implements Result.
func (r RefResult) Rows() [][]any { return [][]any{{r.Name, refTypeName(r.Type), r.SnapshotID}} }

func optLong(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func refTypeName(t iceberg.RefType) string {
	if t == iceberg.TagRef {
		return "TAG"
	}
	return "BRANCH"
}
