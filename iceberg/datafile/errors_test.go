package datafile

import (
	"context"
	"errors"
	"syscall"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// TestFileErrorSentinels: a FileError matches its cause's sentinels, and
// a read failing for an unclassified reason matches ErrInvalidDataFile.
func TestFileErrorSentinels(t *testing.T) {
	cases := []struct {
		name    string
		err     error
		want    []error
		notWant []error
	}{
		{"undecodable read", &FileError{Op: "read", Path: "f", Err: errors.New("bad dictionary index")},
			[]error{iceberg.ErrInvalidDataFile}, nil},
		{"undecodable deletes", &FileError{Op: "read deletes", Path: "f", Err: errors.New("bad level")},
			[]error{iceberg.ErrInvalidDataFile}, nil},
		{"storage failure", &FileError{Op: "read", Path: "f", Err: &fileio.PathError{Op: "read", Location: "f", Err: syscall.EIO}},
			[]error{iceberg.ErrIO}, []error{iceberg.ErrInvalidDataFile}},
		{"missing", &FileError{Op: "read", Path: "f", Err: &fileio.PathError{Op: "open", Location: "f", Err: fileio.ErrNotFound}},
			[]error{iceberg.ErrNotFound}, []error{iceberg.ErrInvalidDataFile, iceberg.ErrIO}},
		{"cancelled", &FileError{Op: "read", Path: "f", Err: context.Canceled},
			[]error{context.Canceled}, []error{iceberg.ErrInvalidDataFile}},
		{"not parquet", &FileError{Op: "read", Path: "f", Err: ErrUnsupportedFormat},
			[]error{iceberg.ErrUnsupported}, []error{iceberg.ErrInvalidDataFile}},
		{"bad deletion vector", &FileError{Op: "read deletion vector", Path: "f", Err: ErrInvalidDeletionVector},
			[]error{iceberg.ErrInvalidDataFile}, nil},
		{"two deletion vectors", &FileError{Op: "read deletes", Path: "f", Err: ErrMultipleDeletionVectors},
			[]error{iceberg.ErrInvalidDataFile}, nil},
		{"write", &FileError{Op: "write", Path: "f", Err: errors.New("encoder failed")},
			nil, []error{iceberg.ErrInvalidDataFile}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, w := range c.want {
				if !errors.Is(c.err, w) {
					t.Errorf("%v does not match %v", c.err, w)
				}
			}
			for _, w := range c.notWant {
				if errors.Is(c.err, w) {
					t.Errorf("%v matches %v", c.err, w)
				}
			}
		})
	}
}
