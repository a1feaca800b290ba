package datafile

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/icesql/icesql/iceberg"
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
	// ErrUnsupportedFormat: a data or delete file is not Parquet. Matches
	// iceberg.ErrUnsupported.
	ErrUnsupportedFormat = fmt.Errorf("datafile: unsupported file format: %w", iceberg.ErrUnsupported)
	// ErrUnsortedPositions: positions given to a PositionDeleteWriter are
	// not strictly increasing or are negative.
	ErrUnsortedPositions = errors.New("datafile: delete positions must be non-negative and strictly increasing")
	// ErrBadProperty: a table property has a value the writer cannot use.
	ErrBadProperty = errors.New("datafile: bad table property")
)

// FileError names the data or delete file an operation failed on; Unwrap
// gives the cause. A read whose cause matches no sentinel of package
// iceberg (a file whose values do not decode as its schema says, say)
// also matches iceberg.ErrInvalidDataFile.
type FileError struct {
	Op   string // "write", "read", "read deletes"
	Path string
	Err  error
}

func (e *FileError) Error() string { return fmt.Sprintf("datafile: %s %s: %v", e.Op, e.Path, e.Err) }

func (e *FileError) Unwrap() error { return e.Err }

func (e *FileError) Is(target error) bool {
	return target == iceberg.ErrInvalidDataFile && strings.HasPrefix(e.Op, "read") &&
		!iceberg.Classified(e.Err) && !errors.Is(e.Err, ErrIteratorClosed) &&
		!errors.Is(e.Err, context.Canceled) && !errors.Is(e.Err, context.DeadlineExceeded)
}

var (
	// ErrInvalidDeletionVector: a deletion vector's manifest entry lacks
	// its referenced data file, offset or size, or its blob disagrees with
	// the entry (bounds, cardinality).
	// Matches iceberg.ErrInvalidDataFile.
	ErrInvalidDeletionVector = fmt.Errorf("datafile: invalid deletion vector: %w", iceberg.ErrInvalidDataFile)
	// ErrMultipleDeletionVectors: more than one deletion vector applies to
	// a data file (the spec allows at most one per snapshot).
	// Matches iceberg.ErrInvalidDataFile.
	ErrMultipleDeletionVectors = fmt.Errorf("datafile: more than one deletion vector for a data file: %w", iceberg.ErrInvalidDataFile)
)
