package datafile

import (
	"errors"
	"fmt"
)

var (
	// ErrWriterClosed: Write after Close or Abort, or after a failed write
	// that aborted the writer.
	ErrWriterClosed = errors.New("datafile: writer is closed")
	// ErrIteratorClosed: Next after Close.
	ErrIteratorClosed = errors.New("datafile: record iterator is closed")
	// ErrUnsupportedPartition: the spec has a field this writer cannot
	// compute (unknown transform, source inside a list or map).
	ErrUnsupportedPartition = errors.New("datafile: unsupported partition field")
	// ErrUnsupportedFormat: a data or delete file is not Parquet.
	ErrUnsupportedFormat = errors.New("datafile: unsupported file format")
	// ErrUnsortedPositions: positions given to a PositionDeleteWriter are
	// not strictly increasing or are negative.
	ErrUnsortedPositions = errors.New("datafile: delete positions must be non-negative and strictly increasing")
	// ErrBadProperty: a table property has a value the writer cannot use.
	ErrBadProperty = errors.New("datafile: bad table property")
)

// FileError names the data or delete file an operation failed on; Unwrap
// gives the cause.
type FileError struct {
	Op   string // "write", "read", "read deletes"
	Path string
	Err  error
}

func (e *FileError) Error() string { return fmt.Sprintf("datafile: %s %s: %v", e.Op, e.Path, e.Err) }

func (e *FileError) Unwrap() error { return e.Err }

var (
	// ErrInvalidDeletionVector: a deletion vector's manifest entry lacks
	// its referenced data file, offset or size, or its blob disagrees with
	// the entry (bounds, cardinality).
	ErrInvalidDeletionVector = errors.New("datafile: invalid deletion vector")
	// ErrMultipleDeletionVectors: more than one deletion vector applies to
	// a data file (the spec allows at most one per snapshot).
	ErrMultipleDeletionVectors = errors.New("datafile: more than one deletion vector for a data file")
)
