package fileio

import (
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
	ErrBadLocation = errors.New("fileio: unsupported location")
	// ErrNotAFile: Open found a directory at the location.
	ErrNotAFile = errors.New("fileio: not a regular file")
)

// PathError names the operation and location of a failure.
type PathError struct {
	Op       string
	Location string
	Err      error
}

func (e *PathError) Error() string { return fmt.Sprintf("fileio: %s %s: %v", e.Op, e.Location, e.Err) }
func (e *PathError) Unwrap() error { return e.Err }
