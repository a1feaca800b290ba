// Package parquetfile writes and reads Iceberg data files in Parquet, with
// Arrow record batches in and out. Columns are bound by Iceberg field id.
package parquetfile

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/parquet-go/parquet-go"
)

// writeChunkRows is how many rows are shredded before being handed to the
// Parquet column writers (bounds memory and lets pages cut at the page size).
const writeChunkRows = 4096

// Writer writes Arrow record batches of one Iceberg schema to a Parquet file
// and collects the file's Iceberg metrics.
type Writer struct {
	out       *countingWriter
	schema    *iceberg.Schema
	arrow     *arrow.Schema
	opts      WriterOptions
	pw        *parquet.Writer
	roots     []*wnode
	leaves    []*leafColumn
	rows      int64
	rgRows    int64
	closed    bool
	metrics   Metrics
	rgStarted int64
}

// NewWriter starts a Parquet file for schema on w. Nothing is written to w
// until the first row group or Close.
func NewWriter(w io.Writer, schema *iceberg.Schema, opts WriterOptions) (*Writer, error) {
	opts = opts.withDefaults()
	ps, err := parquetSchema(schema)
	if err != nil {
		return nil, err
	}
	as, err := arrowschema.ToArrow(schema)
	if err != nil {
		return nil, err
	}
	popts, err := opts.parquetOptions(ps)
	if err != nil {
		return nil, err
	}
	cfg, err := parquet.NewWriterConfig(popts...)
	if err != nil {
		return nil, fmt.Errorf("parquetfile: %w", err)
	}
	out := &countingWriter{w: w}
	roots, leaves := buildWriteTree(schema)
	// The plain Writer: GenericWriter builds reflection paths we never use.
	pw := parquet.NewWriter(out, cfg)
	if got := len(pw.ColumnWriters()); got != len(leaves) {
		return nil, fmt.Errorf("parquetfile: internal error: %d parquet columns for %d leaves", got, len(leaves))
	}
	return &Writer{out: out, schema: schema, arrow: as, opts: opts, pw: pw, roots: roots, leaves: leaves}, nil
}

// ArrowSchema is the Arrow schema records are converted to before writing.
func (w *Writer) ArrowSchema() *arrow.Schema { return w.arrow }

// Write appends a record batch whose columns correspond by position to the
// schema's top-level fields. Columns are converted as arrowschema.CastRecord
// does; a null in a required field fails with iceberg.ErrNotNullViolation
// and nothing of the batch is written.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.closed {
		return ErrWriterClosed
	}
	cast, err := arrowschema.CastRecord(context.Background(), rec, w.arrow)
	if err != nil {
		return err
	}
	defer cast.Release()
	n := int(cast.NumRows())
	cols := w.pw.ColumnWriters()
	for from := 0; from < n; from += writeChunkRows {
		to := min(from+writeChunkRows, n)
		for i, root := range w.roots {
			if err := root.emitRows(cast.Column(i), from, to); err != nil {
				w.clearBuffers()
				return err
			}
		}
		for _, l := range w.leaves {
			if _, err := cols[l.index].WriteRowValues(l.values); err != nil {
				w.clearBuffers()
				return fmt.Errorf("parquetfile: writing column %d: %w", l.fieldID, err)
			}
			clear(l.values)
			l.values = l.values[:0]
		}
		w.rows += int64(to - from)
		w.rgRows += int64(to - from)
		if w.pw.Size()-w.rgStarted >= w.opts.RowGroupSizeBytes {
			if err := w.flushRowGroup(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Writer) clearBuffers() {
	for _, l := range w.leaves {
		clear(l.values)
		l.values = l.values[:0]
	}
}

func (w *Writer) flushRowGroup() error {
	if w.rgRows == 0 {
		return nil
	}
	for _, c := range w.pw.ColumnWriters() {
		if err := c.Flush(); err != nil {
			return fmt.Errorf("parquetfile: %w", err)
		}
	}
	if err := w.pw.Flush(); err != nil {
		return fmt.Errorf("parquetfile: %w", err)
	}
	w.rgRows = 0
	w.rgStarted = w.pw.Size()
	return nil
}

// Rows is the number of rows written so far.
func (w *Writer) Rows() int64 { return w.rows }

// EstimatedSize is the bytes written so far plus the buffered row group
// (uncompressed estimate); used to roll files at a target size.
func (w *Writer) EstimatedSize() int64 { return w.pw.Size() }

// Close finishes the file (footer included) and returns its metrics. It
// does not close the underlying io.Writer.
func (w *Writer) Close() (Metrics, error) {
	if w.closed {
		return w.metrics, nil
	}
	w.closed = true
	if err := w.pw.Close(); err != nil {
		return Metrics{}, fmt.Errorf("parquetfile: %w", err)
	}
	m, err := w.collectMetrics(w.pw.File().Metadata().RowGroups)
	if err != nil {
		return Metrics{}, err
	}
	w.metrics = m
	return m, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
