// Package export writes query results to files: CSV, JSON lines and
// Parquet. COPY ... TO in SQL and the shell's \copy ... TO both use it, so
// the two write the same bytes.
package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The formats.
const (
	CSV     = "csv"
	JSON    = "json" // one object per line (JSON lines)
	Parquet = "parquet"
)

var (
	// ErrOptions: an unknown format or option, or a value it cannot take.
	ErrOptions = errors.New("export: bad options")
	// ErrFileExists: the target file exists and overwriting was not asked for.
	ErrFileExists = errors.New("export: file exists")
)

// Options say how to write.
type Options struct {
	// Format is csv, json or parquet; "" picks it from the file's extension.
	Format string
	// Header writes a CSV header line (the column names).
	Header bool
	// Delimiter separates CSV fields; 0 is ','.
	Delimiter rune
	// Null is the CSV text of a NULL (default empty).
	Null string
	// Overwrite replaces an existing file; without it an existing file is
	// an ErrFileExists and is left alone.
	Overwrite bool
}

// FormatOf picks a format from a file name's extension: .csv and .tsv
// (tab-delimited), .json, .jsonl and .ndjson, .parquet.
func FormatOf(path string) (format string, delimiter rune, ok bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return CSV, ',', true
	case ".tsv":
		return CSV, '\t', true
	case ".json", ".jsonl", ".ndjson":
		return JSON, 0, true
	case ".parquet":
		return Parquet, 0, true
	}
	return "", 0, false
}

// Normalize fills in the format from path when unset and checks the
// options.
func (o *Options) Normalize(path string) error {
	o.Format = strings.ToLower(o.Format)
	if o.Format == "" {
		f, d, ok := FormatOf(path)
		if !ok {
			return fmt.Errorf("%w: cannot tell the format of %q from its name: give FORMAT csv, json or parquet", ErrOptions, path)
		}
		o.Format = f
		if o.Delimiter == 0 {
			o.Delimiter = d
		}
	}
	switch o.Format {
	case "jsonl", "ndjson":
		o.Format = JSON
	case CSV, JSON, Parquet:
	default:
		return fmt.Errorf("%w: FORMAT %q: want csv, json or parquet", ErrOptions, o.Format)
	}
	if o.Format == CSV && o.Delimiter == 0 {
		o.Delimiter = ','
	}
	if o.Format == CSV && (o.Delimiter == '"' || o.Delimiter == '\n' || o.Delimiter == '\r') {
		return fmt.Errorf("%w: DELIMITER %q", ErrOptions, o.Delimiter)
	}
	return nil
}

// Source is a stream of record batches: sqlexec.Rows, or a RecordReader
// through FromReader.
type Source interface {
	Schema() *arrow.Schema
	// Next returns the next batch (the caller releases it), nil at the end.
	Next(ctx context.Context) (arrow.RecordBatch, error)
}

// FromReader adapts an array.RecordReader.
func FromReader(r array.RecordReader) Source { return readerSource{r} }

type readerSource struct{ r array.RecordReader }

func (s readerSource) Schema() *arrow.Schema { return s.r.Schema() }
func (s readerSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !s.r.Next() {
		return nil, s.r.Err()
	}
	b := s.r.RecordBatch()
	b.Retain()
	return b, nil
}

// WriteFile writes every batch of src to path and returns the rows
// written. The file is created exclusively unless Overwrite is set, in
// which case it is written beside the target and renamed over it at the
// end; a failed write removes what it created, so a file is either
// complete or absent (or, when overwriting, the old one).
func WriteFile(ctx context.Context, path string, src Source, opts Options) (int64, error) {
	if err := opts.Normalize(path); err != nil {
		return 0, err
	}
	target := path
	var f *os.File
	var err error
	if opts.Overwrite {
		if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
			return 0, &os.PathError{Op: "copy to", Path: path, Err: errors.New("not a regular file")}
		}
		f, err = os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	} else {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			return 0, fmt.Errorf("%w: %s (add OVERWRITE to replace it)", ErrFileExists, path)
		}
	}
	if err != nil {
		return 0, err
	}
	n, werr := Write(ctx, f, src, opts)
	if err := f.Sync(); werr == nil && err != nil {
		werr = err
	}
	if err := f.Close(); werr == nil && err != nil {
		werr = err
	}
	if werr == nil && opts.Overwrite {
		werr = os.Rename(f.Name(), target)
	}
	if werr != nil {
		os.Remove(f.Name())
		return n, werr
	}
	return n, nil
}

// Write writes every batch of src to w in opts' format (Normalize them
// first) and returns the rows written.
func Write(ctx context.Context, w io.Writer, src Source, opts Options) (int64, error) {
	var bw batchWriter
	var err error
	switch opts.Format {
	case CSV:
		bw, err = newCSVWriter(w, src.Schema(), opts)
	case JSON:
		bw, err = newJSONWriter(w, src.Schema())
	case Parquet:
		bw, err = newParquetWriter(w, src.Schema())
	default:
		return 0, fmt.Errorf("%w: FORMAT %q", ErrOptions, opts.Format)
	}
	if err != nil {
		return 0, err
	}
	var rows int64
	for {
		b, err := src.Next(ctx)
		if err != nil {
			bw.abort()
			return rows, err
		}
		if b == nil {
			break
		}
		err = bw.write(b)
		rows += b.NumRows()
		b.Release()
		if err != nil {
			bw.abort()
			return rows, err
		}
	}
	return rows, bw.close()
}

// batchWriter is one format's encoder.
type batchWriter interface {
	write(arrow.RecordBatch) error
	close() error
	abort()
}
