// Package scan plans a table scan: it reads a snapshot's manifest list and
// manifests, prunes manifests by partition summaries and data files by
// partition values and column metrics, and attaches to each data file the
// delete files that apply to it.
//
// Manifest lists and manifests never change once written, so a
// long-lived caller (an engine) makes one ManifestCache and passes it in
// every plan's Options.Cache; repeated plans of a snapshot then decode
// nothing. PlanSeq streams the tasks of tables too large to list at once.
package scan

import (
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
)

// FileScanTask is one data file to read, with the deletes that apply to it
// and the part of the filter its partition does not already decide.
type FileScanTask struct {
	File               iceberg.DataFile
	DataSequenceNumber int64
	Deletes            []DeleteFile
	Residual           expr.BoundExpr
	Spec               *iceberg.PartitionSpec
	// Start and Length, when Length > 0, make the task a split of the
	// file (Java's FileScanTask.split at split_offsets): it reads the row
	// groups whose first byte lies in [Start, Start+Length). Splits that
	// tile [0, file size) read each row group exactly once, whatever the
	// offsets, so a file whose split_offsets are wrong is still read
	// whole.
	Start, Length int64
}

// Split reports whether t reads part of its file.
func (t FileScanTask) Split() bool { return t.Length > 0 }

// DeleteFile is a position or equality delete file with its data sequence
// number.
type DeleteFile struct {
	File               iceberg.DataFile
	DataSequenceNumber int64
}

// Stats counts planning work for EXPLAIN.
type Stats struct {
	Manifests             int // data manifests in the manifest list
	ManifestsPruned       int // skipped by partition summaries or counts
	DeleteManifests       int
	DeleteManifestsPruned int
	DataFiles             int // live data file entries in scanned manifests
	PrunedByPartition     int
	PrunedByMetrics       int
	PlannedFiles          int
	DeleteFiles           int // live delete files kept after partition pruning
}

func (s Stats) String() string {
	return fmt.Sprintf("manifests %d/%d (delete %d/%d), files %d/%d (pruned %d by partition, %d by metrics), delete files %d",
		s.Manifests-s.ManifestsPruned, s.Manifests, s.DeleteManifests-s.DeleteManifestsPruned, s.DeleteManifests,
		s.PlannedFiles, s.DataFiles, s.PrunedByPartition, s.PrunedByMetrics, s.DeleteFiles)
}

// partitionKey identifies a partition (spec id and values) for matching
// deletes to data files.
func partitionKey(specID int, values []any) string { return iceberg.PartitionKey(specID, values) }
