package datafile

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// openFile is one Parquet file being written.
type openFile struct {
	out fileio.OutputFile
	pw  *parquetfile.Writer
}

func createFile(ctx context.Context, fio fileio.FileIO, location string, schema *iceberg.Schema, opts parquetfile.WriterOptions) (*openFile, error) {
	out, err := fileio.CreateForCommit(ctx, fio, location)
	if err != nil {
		return nil, &FileError{Op: "create", Path: location, Err: err}
	}
	pw, err := parquetfile.NewWriter(out, schema, opts)
	if err != nil {
		_ = out.Abort()
		return nil, &FileError{Op: "create", Path: location, Err: err}
	}
	return &openFile{out: out, pw: pw}, nil
}

func (f *openFile) write(rec arrow.RecordBatch) error {
	if err := f.pw.Write(rec); err != nil {
		return &FileError{Op: "write", Path: f.out.Location(), Err: err}
	}
	return nil
}

// finish writes the footer and makes the file durable.
func (f *openFile) finish() (parquetfile.Metrics, error) {
	m, err := f.pw.Close()
	if err != nil {
		return m, &FileError{Op: "close", Path: f.out.Location(), Err: err}
	}
	if err := f.out.Close(); err != nil {
		return m, &FileError{Op: "close", Path: f.out.Location(), Err: err}
	}
	return m, nil
}

func (f *openFile) abort() error {
	if err := f.out.Abort(); err != nil {
		return &FileError{Op: "abort", Path: f.out.Location(), Err: err}
	}
	return nil
}

// removeAll removes finished files, returning the first error.
func removeAll(ctx context.Context, fio fileio.FileIO, locations []string) error {
	var errs []error
	for _, loc := range locations {
		if err := fio.Remove(ctx, loc); err != nil {
			errs = append(errs, &FileError{Op: "remove", Path: loc, Err: err})
		}
	}
	return errors.Join(errs...)
}
