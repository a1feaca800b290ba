package datafile

import (
	"context"
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/dv"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/scan"
)

// maxDVBlobBytes bounds a deletion vector blob read into memory; a bitmap
// of every position of a 2^31-row file stays far below it.
const maxDVBlobBytes = 1 << 30

// IsDeletionVector reports whether a delete file entry is a format v3
// deletion vector (a position delete stored as a Puffin blob).
func IsDeletionVector(f iceberg.DataFile) bool {
	return f.Content == iceberg.ContentPositionDeletes && f.FileFormat == iceberg.FormatPuffin
}

// ReadDeletionVector reads the deletion-vector-v1 blob of a DV entry (at
// its content_offset, content_size_in_bytes in the Puffin file; the footer
// is not needed) and returns its positions, sorted. The blob must hold
// exactly the entry's record_count positions.
func ReadDeletionVector(ctx context.Context, fio fileio.FileIO, d iceberg.DataFile) ([]int64, error) {
	fail := func(err error) ([]int64, error) {
		return nil, &FileError{Op: "read deletion vector", Path: d.FilePath, Err: err}
	}
	if d.ReferencedDataFile == nil || d.ContentOffset == nil || d.ContentSizeInBytes == nil {
		return fail(fmt.Errorf("%w: referenced_data_file, content_offset and content_size_in_bytes are required", ErrInvalidDeletionVector))
	}
	off, size := *d.ContentOffset, *d.ContentSizeInBytes
	if off < 0 || size < 12 || size > maxDVBlobBytes || d.RecordCount < 0 {
		return fail(fmt.Errorf("%w: blob at %d of %d bytes, %d rows", ErrInvalidDeletionVector, off, size, d.RecordCount))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	in, err := fio.Open(ctx, d.FilePath)
	if err != nil {
		return fail(err)
	}
	defer in.Close()
	if off > in.Size()-size {
		return fail(fmt.Errorf("%w: blob [%d, +%d) past the end of the %d-byte file", ErrInvalidDeletionVector, off, size, in.Size()))
	}
	blob := make([]byte, size)
	if _, err := in.ReadAt(blob, off); err != nil {
		return fail(err)
	}
	positions, err := dv.DecodeBlob(blob, d.RecordCount)
	if err != nil {
		return fail(err)
	}
	if int64(len(positions)) != d.RecordCount {
		return fail(fmt.Errorf("%w: blob holds %d positions, record_count is %d", ErrInvalidDeletionVector, len(positions), d.RecordCount))
	}
	return positions, nil
}

// loadRowDeletes returns the deleted positions of dataPath: its deletion
// vector's when it has one (position delete files then do not apply),
// else those of its position delete files.
func loadRowDeletes(ctx context.Context, fio fileio.FileIO, dataPath string, dvs, posDeletes []iceberg.DataFile, cache *DeleteCache) ([]int64, error) {
	switch len(dvs) {
	case 0:
		return loadPositionDeletes(ctx, fio, dataPath, posDeletes, cache)
	case 1:
		return ReadDeletionVector(ctx, fio, dvs[0])
	default:
		return nil, &FileError{Op: "read deletes", Path: dataPath, Err: fmt.Errorf("%w: %s and %s", ErrMultipleDeletionVectors, dvs[0].FilePath, dvs[1].FilePath)}
	}
}

// PreviousDeletes returns the positions already deleted in a task's data
// file (its deletion vector's, else its position delete files') and the
// delete files that a new deletion vector holding them replaces: the
// deletion vector, or the position delete files scoped to this one data
// file. Position delete files covering a whole partition stay; once the
// file has a deletion vector they no longer apply to it.
func PreviousDeletes(ctx context.Context, fio fileio.FileIO, task scan.FileScanTask) ([]int64, []iceberg.DataFile, error) {
	path := task.File.FilePath
	var dvs, pos, replaced []iceberg.DataFile
	for _, d := range task.Deletes {
		ref := d.File.ReferencedDataFile
		if d.File.Content != iceberg.ContentPositionDeletes || d.DataSequenceNumber < task.DataSequenceNumber || (ref != nil && *ref != path) {
			continue
		}
		if IsDeletionVector(d.File) {
			dvs = append(dvs, d.File)
			continue
		}
		if d.File.FileFormat != iceberg.FormatParquet {
			return nil, nil, &FileError{Op: "read deletes", Path: d.File.FilePath, Err: fmt.Errorf("%w: %q", ErrUnsupportedFormat, d.File.FileFormat)}
		}
		pos = append(pos, d.File)
		if ref != nil {
			replaced = append(replaced, d.File)
		}
	}
	positions, err := loadRowDeletes(ctx, fio, path, dvs, pos, nil)
	if err != nil {
		return nil, nil, err
	}
	if len(dvs) > 0 {
		replaced = dvs
	}
	return positions, replaced, nil
}
