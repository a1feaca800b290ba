package exec

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// A sorted run on disk is an Arrow IPC stream whose batches hold the
// input columns followed by the evaluated sort keys, so merging never
// re-evaluates key expressions.

// spillFiles tracks every temporary file an operator created so that
// all of them go away on Close, on error and on cancellation.
type spillFiles struct {
	dir   string
	paths map[string]bool
}

func (f *spillFiles) create(pattern string) (*os.File, error) {
	fh, err := os.CreateTemp(f.dir, pattern)
	if err != nil {
		return nil, &SpillError{Op: "create", Path: f.dir, Err: err}
	}
	if f.paths == nil {
		f.paths = map[string]bool{}
	}
	f.paths[fh.Name()] = true
	return fh, nil
}

func (f *spillFiles) remove(path string) {
	os.Remove(path)
	delete(f.paths, path)
}

func (f *spillFiles) removeAll() {
	for p := range f.paths {
		os.Remove(p)
	}
	f.paths = nil
}

// sortedRun is a finished run file and its row count, checked when read
// back since an IPC stream cut at a batch boundary still parses.
type sortedRun struct {
	path string
	rows int64
}

// runWriter writes one sorted run.
type runWriter struct {
	fh   *os.File
	bw   *bufio.Writer
	w    *ipc.Writer
	rows int64
}

func newRunWriter(ec *EvalContext, files *spillFiles, schema *arrow.Schema) (*runWriter, error) {
	fh, err := files.create("icesql-sort-*.arrows")
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(fh, 1<<16)
	w := ipc.NewWriter(bw, ipc.WithSchema(schema), ipc.WithAllocator(ec.Mem))
	return &runWriter{fh: fh, bw: bw, w: w}, nil
}

func (r *runWriter) write(b arrow.RecordBatch) error {
	if err := r.w.Write(b); err != nil {
		return &SpillError{Op: "write", Path: r.fh.Name(), Err: err}
	}
	r.rows += b.NumRows()
	return nil
}

// finish flushes and closes the file.
func (r *runWriter) finish() (sortedRun, error) {
	err := errors.Join(r.w.Close(), r.bw.Flush(), r.fh.Close())
	if err != nil {
		return sortedRun{}, &SpillError{Op: "close", Path: r.fh.Name(), Err: err}
	}
	return sortedRun{path: r.fh.Name(), rows: r.rows}, nil
}

// abort closes the file without flushing; the caller removes it.
func (r *runWriter) abort() {
	r.w.Close()
	r.fh.Close()
}

// writeSortedRun writes rows idx of cols (input then key columns) in
// chunks of chunkRows.
func writeSortedRun(ctx context.Context, ec *EvalContext, files *spillFiles, schema *arrow.Schema, cols []arrow.Array, idx []int32, chunkRows int) (sortedRun, error) {
	w, err := newRunWriter(ec, files, schema)
	if err != nil {
		return sortedRun{}, err
	}
	for lo := 0; lo < len(idx); lo += chunkRows {
		if err := ctx.Err(); err != nil {
			w.abort()
			return sortedRun{}, err
		}
		b, err := TakeBatch(ctx, ec, schema, cols, idx[lo:min(len(idx), lo+chunkRows)])
		if err != nil {
			w.abort()
			return sortedRun{}, err
		}
		err = w.write(b)
		b.Release()
		if err != nil {
			w.abort()
			return sortedRun{}, err
		}
	}
	return w.finish()
}

// runCursor reads one run a batch at a time.
type runCursor struct {
	path  string
	fh    *os.File
	r     *ipc.Reader
	batch arrow.RecordBatch // current batch (retained), nil at the end
	row   int
	order int // the run's position in input order, for stability
	want  int64
	read  int64
}

func openRun(ec *EvalContext, run sortedRun, schema *arrow.Schema, order int) (*runCursor, error) {
	path := run.path
	fh, err := os.Open(path)
	if err != nil {
		return nil, &SpillError{Op: "open", Path: path, Err: err}
	}
	r, err := ipc.NewReader(bufio.NewReaderSize(fh, 1<<16), ipc.WithAllocator(ec.Mem), ipc.WithSchema(schema))
	if err != nil {
		fh.Close()
		return nil, &SpillError{Op: "read", Path: path, Err: err}
	}
	c := &runCursor{path: path, fh: fh, r: r, order: order, want: run.rows}
	if err := c.load(); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// load replaces the current batch with the next non-empty one.
func (c *runCursor) load() error {
	if c.batch != nil {
		c.batch.Release()
		c.batch = nil
	}
	c.row = 0
	for c.r.Next() {
		b := c.r.RecordBatch()
		if b.NumRows() > 0 {
			c.read += b.NumRows()
			if c.read > c.want {
				break
			}
			b.Retain()
			c.batch = b
			return nil
		}
	}
	if err := c.r.Err(); err != nil {
		return &SpillError{Op: "read", Path: c.path, Err: err}
	}
	if c.read != c.want {
		return &SpillError{Op: "read", Path: c.path, Err: fmt.Errorf("run holds %d rows, %d were written", c.read, c.want)}
	}
	return nil
}

// advance moves to the next row; at the end c.batch is nil.
func (c *runCursor) advance() error {
	c.row++
	if c.row < int(c.batch.NumRows()) {
		return nil
	}
	return c.load()
}

func (c *runCursor) close() {
	if c.batch != nil {
		c.batch.Release()
		c.batch = nil
	}
	c.r.Release()
	c.fh.Close()
}
