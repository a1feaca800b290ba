package sqlexec

import (
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/scan"
)

// A parallel scan of fewer large files than it has workers would leave
// workers idle: one file is read by one iterator. Such files are cut at
// their split_offsets (row group starts, as Java's split planning does)
// into splits of about target bytes, so that every worker reads row
// groups of its own.
const (
	// splitsPerWorker: more splits than workers, so that the greedy
	// balance evens out.
	splitsPerWorker = 4
)

// minSplitBytes keeps splits large enough that opening the file (its
// footer) is a small part of reading one (a variable for tests).
var minSplitBytes int64 = 4 << 20

// splitTasks returns tasks with large Parquet files cut into splits for
// workers.
func splitTasks(tasks []scan.FileScanTask, workers int) []scan.FileScanTask {
	if workers <= 1 || len(tasks) >= workers*splitsPerWorker {
		return tasks
	}
	var total int64
	for _, t := range tasks {
		total += taskBytes(t)
	}
	target := max(total/int64(workers*splitsPerWorker), minSplitBytes)
	out := make([]scan.FileScanTask, 0, len(tasks))
	for _, t := range tasks {
		out = append(out, splitTask(t, target)...)
	}
	return out
}

// splitTask cuts t at split offsets into pieces of at least target bytes.
// The first piece starts at 0 and the last ends at the file's size, so
// the pieces tile the file and each row group is read by exactly one of
// them, even where the offsets are not row group starts.
func splitTask(t scan.FileScanTask, target int64) []scan.FileScanTask {
	f := t.File
	offs, size := f.SplitOffsets, f.FileSizeInBytes
	if t.Split() || f.FileFormat != iceberg.FormatParquet || len(offs) < 2 || size < 2*target || !ascendingWithin(offs, size) {
		return []scan.FileScanTask{t}
	}
	var parts []scan.FileScanTask
	start := int64(0)
	for _, o := range offs[1:] {
		if o-start >= target && size-o >= target/2 {
			parts = append(parts, withRange(t, start, o-start))
			start = o
		}
	}
	if len(parts) == 0 {
		return []scan.FileScanTask{t}
	}
	return append(parts, withRange(t, start, size-start))
}

func withRange(t scan.FileScanTask, start, length int64) scan.FileScanTask {
	t.Start, t.Length = start, length
	return t
}

// ascendingWithin reports whether offs rise strictly inside [0, size).
func ascendingWithin(offs []int64, size int64) bool {
	for i, o := range offs {
		if o < 0 || o >= size || i > 0 && o <= offs[i-1] {
			return false
		}
	}
	return true
}
