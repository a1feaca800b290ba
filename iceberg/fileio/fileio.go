// Package fileio is the storage interface of icesql: every data, delete,
// manifest and metadata file is read and written through a FileIO, and
// addressed by its location as it appears in table metadata (an absolute
// path written literally, as Java writes it, or a file: URI).
package fileio

import (
	"context"
	"io"
	"iter"
	"time"
)

// FileIO opens, creates, lists and removes files by location.
type FileIO interface {
	// Open opens an existing file for random access.
	Open(ctx context.Context, location string) (InputFile, error)
	// Create creates a new file exclusively: it fails with ErrExists if the
	// file is already there, so two writers can never overwrite each other.
	// The file is durable (fsynced, with its directory) once Close returns
	// nil; Abort removes it.
	Create(ctx context.Context, location string) (OutputFile, error)
	// Remove deletes a file; removing a missing file is not an error.
	Remove(ctx context.Context, location string) error
	// List yields the files below a location prefix (a directory), lazily.
	List(ctx context.Context, prefix string) iter.Seq2[FileInfo, error]
}

// LazySyncer is implemented by FileIOs that can defer durability, so a
// commit can make all its small metadata files durable together (in
// parallel, with one sync per directory) right before the catalog swap
// instead of one after another.
type LazySyncer interface {
	// CreateLazy is Create whose Close does not make the file durable.
	CreateLazy(ctx context.Context, location string) (OutputFile, error)
	// Sync makes files created with CreateLazy (and closed) durable,
	// with their directories.
	Sync(ctx context.Context, locations []string) error
}

// InputFile is an open file for reading.
type InputFile interface {
	io.ReaderAt
	io.Reader
	io.Closer
	Size() int64
	Location() string
}

// RemoteReads is implemented by input files whose every read is a
// request to a remote store (object storage): readers then fetch what
// they will need whole, ahead and concurrently, rather than piece by
// piece as they decode.
type RemoteReads interface {
	RemoteReads() bool
}

// OutputFile is a file being written. Close flushes and makes it durable;
// Abort closes and deletes it (used when a write fails half way).
type OutputFile interface {
	io.Writer
	Close() error
	Abort() error
	Location() string
	// Written is the number of bytes written so far.
	Written() int64
}

// FileInfo describes a listed file.
type FileInfo struct {
	Location string
	Size     int64
	ModTime  time.Time
}

// CreateForCommit creates a file that a commit will reference: lazily when
// the FileIO can defer durability (the commit syncs every file it adds
// before its swap, see table.SnapshotUpdate), durably otherwise.
func CreateForCommit(ctx context.Context, fio FileIO, location string) (OutputFile, error) {
	if ls, ok := fio.(LazySyncer); ok {
		return ls.CreateLazy(ctx, location)
	}
	return fio.Create(ctx, location)
}

// BulkRemover is implemented by FileIOs that delete many files in one
// request (S3's DeleteObjects), for expiry and orphan removal.
type BulkRemover interface {
	// RemoveAll deletes the files; missing files are not errors.
	RemoveAll(ctx context.Context, locations []string) error
}
