package datafile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// PropWriteDataPath overrides where data files go (default <location>/data).
const PropWriteDataPath = "write.data.path"

// WriterOptions configure a Writer or PositionDeleteWriter. The zero value
// takes everything from the table properties.
type WriterOptions struct {
	// PartitionID and TaskID are the first two parts of file names, as in
	// Java's OutputFileFactory:
	// <PartitionID %05d>-<TaskID>-<OperationID>-<file count %05d>.parquet.
	PartitionID int
	TaskID      int64
	// OperationID is the third part of file names; a random UUID if empty.
	OperationID string
	// TargetFileSizeBytes rolls to a new file once a file's estimated size
	// reaches it; 0 reads write.target-file-size-bytes (default 512 MiB).
	TargetFileSizeBytes int64
	// SortOrderID is recorded on data files; nil records 0 (unsorted).
	SortOrderID *int
	// Parquet replaces the options read from the write.parquet.* properties.
	Parquet *parquetfile.WriterOptions
}

// resolved are the options after reading table properties.
type resolved struct {
	dataDir string
	target  int64
	parquet parquetfile.WriterOptions
	namer   *fileNamer
}

func resolveOptions(meta *iceberg.TableMetadata, o WriterOptions, suffix string) (resolved, error) {
	props := meta.Properties()
	r := resolved{target: o.TargetFileSizeBytes}
	if r.target <= 0 {
		r.target = iceberg.DefaultWriteTargetFileSizeBytes
		if v, ok := props[iceberg.PropWriteTargetFileSizeBytes]; ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return r, fmt.Errorf("%w: %s=%q is not a positive integer", ErrBadProperty, iceberg.PropWriteTargetFileSizeBytes, v)
			}
			r.target = n
		}
	}
	if o.Parquet != nil {
		r.parquet = *o.Parquet
	} else {
		po, err := parquetfile.OptionsFromProperties(props)
		if err != nil {
			return r, fmt.Errorf("%w: %w", ErrBadProperty, err)
		}
		r.parquet = po
	}
	// New files are named below the plain path of a file: location (see
	// fileio.NewFileBase), so every reader finds them literally.
	r.dataDir = fileio.NewFileBase(strings.TrimRight(props[PropWriteDataPath], "/"))
	if r.dataDir == "" {
		r.dataDir = fileio.NewFileBase(strings.TrimRight(meta.Location(), "/")) + "/data"
	}
	op := o.OperationID
	if op == "" {
		op = iceberg.NewUUIDString()
	}
	r.namer = &fileNamer{dir: r.dataDir, partitionID: o.PartitionID, taskID: o.TaskID, operationID: op, suffix: suffix}
	return r, nil
}

// fileNamer generates file locations like Java's OutputFileFactory; the
// count is shared by all partitions of one writer.
type fileNamer struct {
	dir         string
	partitionID int
	taskID      int64
	operationID string
	suffix      string // "-deletes" for delete files
	count       int
}

// next is the location of a new file below the partition path (empty for
// unpartitioned tables).
func (n *fileNamer) next(partitionPath string) string {
	n.count++
	name := fmt.Sprintf("%05d-%d-%s-%05d%s.parquet", n.partitionID, n.taskID, n.operationID, n.count, n.suffix)
	if partitionPath == "" {
		return n.dir + "/" + name
	}
	return n.dir + "/" + partitionPath + "/" + name
}
