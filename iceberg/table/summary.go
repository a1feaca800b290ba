package table

import (
	"strconv"

	"github.com/icesql/icesql/iceberg"
)

// Snapshot summary keys, exactly as Java writes them.
const (
	sumAddedDataFiles         = "added-data-files"
	sumDeletedDataFiles       = "deleted-data-files"
	sumTotalDataFiles         = "total-data-files"
	sumAddedDeleteFiles       = "added-delete-files"
	sumRemovedDeleteFiles     = "removed-delete-files"
	sumTotalDeleteFiles       = "total-delete-files"
	sumAddedEqDeleteFiles     = "added-equality-delete-files"
	sumRemovedEqDeleteFiles   = "removed-equality-delete-files"
	sumAddedPosDeleteFiles    = "added-position-delete-files"
	sumRemovedPosDeleteFiles  = "removed-position-delete-files"
	sumAddedDVs               = "added-dvs"
	sumRemovedDVs             = "removed-dvs"
	sumAddedRecords           = "added-records"
	sumDeletedRecords         = "deleted-records"
	sumTotalRecords           = "total-records"
	sumAddedFilesSize         = "added-files-size"
	sumRemovedFilesSize       = "removed-files-size"
	sumTotalFilesSize         = "total-files-size"
	sumAddedPosDeletes        = "added-position-deletes"
	sumRemovedPosDeletes      = "removed-position-deletes"
	sumTotalPosDeletes        = "total-position-deletes"
	sumAddedEqDeletes         = "added-equality-deletes"
	sumRemovedEqDeletes       = "removed-equality-deletes"
	sumTotalEqDeletes         = "total-equality-deletes"
	sumChangedPartitionCount  = "changed-partition-count"
	sumPartitionSummariesIncl = "partition-summaries-included"
	sumEngineName             = "engine-name"
	sumEngineVersion          = "engine-version"
)

// EngineVersion is written into every snapshot summary.
const EngineVersion = "0.1.0"

// summaryBuilder accumulates the file changes of one snapshot and renders
// Java's summary map, totals included.
type summaryBuilder struct {
	addedDataFiles, removedDataFiles           int64
	addedEqDeleteFiles, removedEqDeleteFiles   int64
	addedPosDeleteFiles, removedPosDeleteFiles int64
	addedDVs, removedDVs                       int64
	addedRecords, deletedRecords               int64
	addedSize, removedSize                     int64
	addedPosDeletes, removedPosDeletes         int64
	addedEqDeletes, removedEqDeletes           int64
	partitions                                 map[string]struct{}
	extra                                      map[string]string
}

func newSummaryBuilder() *summaryBuilder {
	return &summaryBuilder{partitions: map[string]struct{}{}, extra: map[string]string{}}
}

// partitionKey identifies a partition tuple for changed-partition-count.
func partitionKey(f iceberg.DataFile) string { return iceberg.PartitionKey(f.SpecID, f.Partition) }

// isDV reports whether f is a deletion vector: a position delete blob in
// a Puffin file, counted as Java's summaries count them (added-dvs, the
// blob's size rather than the Puffin file's).
func isDV(f iceberg.DataFile) bool {
	return f.Content == iceberg.ContentPositionDeletes && f.FileFormat == iceberg.FormatPuffin
}

// contentSize is the bytes f contributes to file sizes: a DV's blob, any
// other file whole (Java's ScanTaskUtil.contentSizeInBytes).
func contentSize(f iceberg.DataFile) int64 {
	if isDV(f) && f.ContentSizeInBytes != nil {
		return *f.ContentSizeInBytes
	}
	return f.FileSizeInBytes
}

func (s *summaryBuilder) addedFile(f iceberg.DataFile) {
	s.partitions[partitionKey(f)] = struct{}{}
	s.addedSize += contentSize(f)
	switch {
	case isDV(f):
		s.addedDVs++
		s.addedPosDeletes += f.RecordCount
	case f.Content == iceberg.ContentData:
		s.addedDataFiles++
		s.addedRecords += f.RecordCount
	case f.Content == iceberg.ContentPositionDeletes:
		s.addedPosDeleteFiles++
		s.addedPosDeletes += f.RecordCount
	case f.Content == iceberg.ContentEqualityDeletes:
		s.addedEqDeleteFiles++
		s.addedEqDeletes += f.RecordCount
	}
}

func (s *summaryBuilder) removedFile(f iceberg.DataFile) {
	s.partitions[partitionKey(f)] = struct{}{}
	s.removedSize += contentSize(f)
	switch {
	case isDV(f):
		s.removedDVs++
		s.removedPosDeletes += f.RecordCount
	case f.Content == iceberg.ContentData:
		s.removedDataFiles++
		s.deletedRecords += f.RecordCount
	case f.Content == iceberg.ContentPositionDeletes:
		s.removedPosDeleteFiles++
		s.removedPosDeletes += f.RecordCount
	case f.Content == iceberg.ContentEqualityDeletes:
		s.removedEqDeleteFiles++
		s.removedEqDeletes += f.RecordCount
	}
}

// build renders the summary; previous is the summary of the branch head the
// snapshot is committed on top of (nil for the first snapshot).
func (s *summaryBuilder) build(op iceberg.Operation, previous map[string]string) map[string]string {
	m := map[string]string{iceberg.SummaryOperation: string(op)}
	for k, v := range s.extra {
		m[k] = v
	}
	setPos := func(key string, v int64) {
		if v > 0 {
			m[key] = strconv.FormatInt(v, 10)
		}
	}
	setPos(sumAddedDataFiles, s.addedDataFiles)
	setPos(sumDeletedDataFiles, s.removedDataFiles)
	addedDeletes := s.addedEqDeleteFiles + s.addedPosDeleteFiles + s.addedDVs
	removedDeletes := s.removedEqDeleteFiles + s.removedPosDeleteFiles + s.removedDVs
	setPos(sumAddedDeleteFiles, addedDeletes)
	setPos(sumRemovedDeleteFiles, removedDeletes)
	setPos(sumAddedEqDeleteFiles, s.addedEqDeleteFiles)
	setPos(sumRemovedEqDeleteFiles, s.removedEqDeleteFiles)
	setPos(sumAddedPosDeleteFiles, s.addedPosDeleteFiles)
	setPos(sumRemovedPosDeleteFiles, s.removedPosDeleteFiles)
	setPos(sumAddedDVs, s.addedDVs)
	setPos(sumRemovedDVs, s.removedDVs)
	setPos(sumAddedRecords, s.addedRecords)
	setPos(sumDeletedRecords, s.deletedRecords)
	setPos(sumAddedFilesSize, s.addedSize)
	setPos(sumRemovedFilesSize, s.removedSize)
	setPos(sumAddedPosDeletes, s.addedPosDeletes)
	setPos(sumRemovedPosDeletes, s.removedPosDeletes)
	setPos(sumAddedEqDeletes, s.addedEqDeletes)
	setPos(sumRemovedEqDeletes, s.removedEqDeletes)
	m[sumChangedPartitionCount] = strconv.Itoa(len(s.partitions))
	m[sumPartitionSummariesIncl] = "false"

	total := func(key string, added, removed int64) {
		prev := int64(0)
		if previous != nil {
			v, ok := previous[key]
			if !ok {
				return // unknown base total: Java omits the total
			}
			p, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return
			}
			prev = p
		}
		if t := prev + added - removed; t >= 0 {
			m[key] = strconv.FormatInt(t, 10)
		}
	}
	total(sumTotalRecords, s.addedRecords, s.deletedRecords)
	total(sumTotalFilesSize, s.addedSize, s.removedSize)
	total(sumTotalDataFiles, s.addedDataFiles, s.removedDataFiles)
	total(sumTotalDeleteFiles, addedDeletes, removedDeletes)
	total(sumTotalPosDeletes, s.addedPosDeletes, s.removedPosDeletes)
	total(sumTotalEqDeletes, s.addedEqDeletes, s.removedEqDeletes)
	m[sumEngineName] = "icesql"
	m[sumEngineVersion] = EngineVersion
	return m
}
