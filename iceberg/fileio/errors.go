package fileio

import (
	"context"
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// Sentinel errors of this package; test with errors.Is. Failures carry the
// operation and location in a *PathError that wraps one of these or the
// operating system's error.
var (
	// ErrNotFound: the file does not exist. Matches iceberg.ErrNotFound.
	ErrNotFound = fmt.Errorf("fileio: %w", iceberg.ErrNotFound)
	// ErrExists: Create found the file already there. Matches iceberg.ErrFileExists.
	ErrExists = fmt.Errorf("fileio: %w", iceberg.ErrFileExists)
	// ErrBadLocation: the location is not a URI this FileIO can serve.
	// Matches iceberg.ErrUnsupported.
	ErrBadLocation = &sentinel{"fileio: unsupported location", iceberg.ErrUnsupported}
	// ErrNotAFile: Open found a directory, device, FIFO or socket at the
	// location, not a regular file. Matches iceberg.ErrNotFound.
	ErrNotAFile = &sentinel{"fileio: not a regular file", iceberg.ErrNotFound}
	// ErrTooLarge: ReadAll found a file larger than its limit. Matches
	// iceberg.ErrTooLarge.
	ErrTooLarge = &sentinel{"fileio: file too large", iceberg.ErrTooLarge}
)

// sentinel is a sentinel error that also matches a root sentinel of
// package iceberg, keeping its own message.
type sentinel struct {
	msg  string
	root error
}

func (s *sentinel) Error() string { return s.msg }
func (s *sentinel) Unwrap() error { return s.root }

// PathError names the operation and location of a failure. It matches
// its cause's sentinels, and iceberg.ErrIO when the cause is the
// operating system's.
type PathError struct {
	Op       string
	Location string
	Err      error
}

func (e *PathError) Error() string { return fmt.Sprintf("fileio: %s %s: %v", e.Op, e.Location, e.Err) }
func (e *PathError) Unwrap() error { return e.Err }

// Is makes a failure of the storage itself (permission denied, disk full,
// an I/O error: a cause that is none of this package's sentinels) match
// iceberg.ErrIO.
func (e *PathError) Is(target error) bool {
	return target == iceberg.ErrIO && !iceberg.Classified(e.Err) &&
		!errors.Is(e.Err, context.Canceled) && !errors.Is(e.Err, context.DeadlineExceeded)
}
