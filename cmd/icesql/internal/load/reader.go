package load

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// DefaultBatchRows is the number of rows per record batch.
const DefaultBatchRows = 8192

// Options say how to read a file.
type Options struct {
	Format    string // csv, jsonl or parquet
	Header    bool   // CSV: the first record names the columns
	Delimiter rune   // CSV: field separator, default ','
	Quote     rune   // CSV: quote character, default '"'
	Escape    rune   // CSV: escapes a quote inside quotes, default Quote
	Null      string // CSV: an unquoted field equal to this is NULL, default empty
	BatchRows int    // rows per batch, default DefaultBatchRows
}

// withDefaults fills the options left zero.
func (o Options) withDefaults() Options {
	if o.BatchRows <= 0 {
		o.BatchRows = DefaultBatchRows
	}
	if o.Delimiter == 0 {
		o.Delimiter = ','
	}
	if o.Quote == 0 {
		o.Quote = '"'
	}
	if o.Escape == 0 {
		o.Escape = o.Quote
	}
	return o
}

// Reader streams a file as Arrow record batches in the table's schema.
// It implements array.RecordReader; Err reports the first bad value.
type Reader struct {
	schema *arrow.Schema
	refs   atomic.Int64
	file   *os.File
	next   func() (arrow.RecordBatch, error)
	cur    arrow.RecordBatch
	err    error
	rows   int64
	// done and total measure progress (bytes or rows of the input).
	done  atomic.Int64
	total int64
}

var _ array.RecordReader = (*Reader)(nil)

// Open opens path for reading into batches typed as cols.
func Open(path string, cols []Column, opts Options) (*Reader, error) {
	if len(cols) == 0 {
		return nil, &InputError{File: path, Msg: "the table has no columns"}
	}
	opts = opts.withDefaults()
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		at, err := arrowschema.TypeToArrow(c.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w: %w", c.Name, ErrUnsupportedType, err)
		}
		fields[i] = arrow.Field{Name: c.Name, Type: at, Nullable: true}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	r := &Reader{schema: arrow.NewSchema(fields, nil), file: f, total: st.Size()}
	r.refs.Store(1)
	b := &batcher{r: r, cols: cols, rb: array.NewRecordBuilder(memory.DefaultAllocator, r.schema), max: opts.BatchRows}
	var setupErr error
	switch opts.Format {
	case "csv":
		r.next, setupErr = newCSV(path, &countingReader{f, &r.done}, cols, opts, b)
	case "jsonl":
		r.next, setupErr = newJSONL(path, &countingReader{f, &r.done}, cols, b)
	case "parquet":
		r.next, setupErr = newParquet(path, f, cols, b, r)
	default:
		setupErr = fmt.Errorf("%w: unknown format %q (want csv, jsonl or parquet)", ErrBadCommand, opts.Format)
	}
	if setupErr != nil {
		b.rb.Release()
		f.Close()
		return nil, setupErr
	}
	return r, nil
}

func (r *Reader) Retain() { r.refs.Add(1) }

func (r *Reader) Release() {
	if r.refs.Add(-1) == 0 {
		r.Close()
	}
}

// Close releases the current batch and closes the file.
func (r *Reader) Close() error {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.file == nil {
		return nil
	}
	err := r.file.Close()
	r.file = nil
	return err
}

func (r *Reader) Schema() *arrow.Schema { return r.schema }

// Next reads the next batch; false at the end or on the first error.
func (r *Reader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.err != nil || r.file == nil {
		return false
	}
	rec, err := r.next()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			r.err = err
		}
		return false
	}
	r.cur = rec
	r.rows += rec.NumRows()
	return true
}

func (r *Reader) RecordBatch() arrow.RecordBatch { return r.cur }

// Deprecated: use RecordBatch.
func (r *Reader) Record() arrow.RecordBatch { return r.cur }

func (r *Reader) Err() error { return r.err }

// Rows is the number of rows read so far.
func (r *Reader) Rows() int64 { return r.rows }

// Progress reports how much of the input is read, in bytes (or rows for
// Parquet), and the total.
func (r *Reader) Progress() (done, total int64) { return r.done.Load(), r.total }

// batcher appends converted rows to a record builder.
type batcher struct {
	r    *Reader
	cols []Column
	rb   *array.RecordBuilder
	n    int
	max  int
}

func (b *batcher) append(col int, v any) error {
	return appendAny(b.rb.Field(col), v)
}

// full reports whether a batch is ready; endRow counts the row.
func (b *batcher) endRow() bool {
	b.n++
	return b.n >= b.max
}

// flush returns the batch built so far, or io.EOF if it is empty (and
// then releases the builder).
func (b *batcher) flush() (arrow.RecordBatch, error) {
	if b.n == 0 {
		b.rb.Release()
		b.rb = nil
		return nil, io.EOF
	}
	b.n = 0
	return b.rb.NewRecordBatch(), nil
}

// typeName is how errors name a column type.
func typeName(t iceberg.Type) string { return arrowschema.IcebergSQLName(t) }

// countingReader counts the bytes read, for the progress bar.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
