package dv

import (
	"errors"
	"fmt"
)

var (
	// ErrCorrupt: a serialized bitmap or deletion-vector blob is malformed
	// (bad magic, checksum, length, cookie, container or key order).
	ErrCorrupt = errors.New("dv: corrupt deletion vector")
	// ErrTooLarge: a bitmap declares more positions than the caller allows
	// (the data file's row count), so it is not expanded.
	ErrTooLarge = errors.New("dv: deletion vector has more positions than allowed")
	// ErrInvalidPositions: positions to encode are negative, unsorted or
	// repeated.
	ErrInvalidPositions = errors.New("dv: positions must be non-negative and strictly increasing")
)

// CorruptError says where in a serialized deletion vector decoding failed;
// it matches ErrCorrupt with errors.Is.
type CorruptError struct {
	Offset int    // byte offset in the decoded input
	Reason string // what was wrong there
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("dv: corrupt deletion vector at byte %d: %s", e.Offset, e.Reason)
}

func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

func corruptf(off int, format string, args ...any) error {
	return &CorruptError{Offset: off, Reason: fmt.Sprintf(format, args...)}
}
