package puffin

import (
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

var (
	// ErrCorrupt: the file is not a valid Puffin file (magic, footer size,
	// flags, JSON, blob bounds).
	ErrCorrupt = errors.New("puffin: corrupt file")
	// ErrUnsupportedCodec: a blob or footer uses a compression codec other
	// than lz4 and zstd.
	ErrUnsupportedCodec = errors.New("puffin: unsupported compression codec")
	// ErrTooLarge: a footer or blob would exceed the reader's size limit.
	// Matches iceberg.ErrTooLarge.
	ErrTooLarge = fmt.Errorf("puffin: section exceeds size limit: %w", iceberg.ErrTooLarge)
	// ErrWriterClosed: a write after Finish or after a failed write.
	ErrWriterClosed = errors.New("puffin: writer is finished")
)

// CorruptError names what is wrong with a Puffin file; it matches
// ErrCorrupt with errors.Is.
type CorruptError struct {
	Reason string
}

func (e *CorruptError) Error() string { return "puffin: corrupt file: " + e.Reason }

func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

func corruptf(format string, args ...any) error {
	return &CorruptError{Reason: fmt.Sprintf(format, args...)}
}
