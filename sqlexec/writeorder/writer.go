package writeorder

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/sqlexec/exec"
)

// DataWriter is what a write pushes its data rows through: a
// datafile.Writer, or a Writer sorting in front of one.
type DataWriter interface {
	// Write adds rec's rows; rec stays the caller's.
	Write(ctx context.Context, rec arrow.RecordBatch) error
	// Close finishes the files and returns them.
	Close(ctx context.Context) ([]iceberg.DataFile, error)
	// Abort removes what was written.
	Abort(ctx context.Context) error
}

var (
	_ DataWriter = (*datafile.Writer)(nil)
	_ DataWriter = (*Writer)(nil)
)

// Writer sorts the rows pushed through Write by keys before they reach
// its datafile.Writer. A goroutine runs an exec.Sort whose input is the
// pushed batches, so the sort holds them within ec's memory limit and
// spills past it as any sort does; Close ends the input and writes the
// sorted rows.
type Writer struct {
	w        *datafile.Writer
	in       chan arrow.RecordBatch
	end      chan struct{} // closed by Close and Abort: the input is complete
	endOnce  sync.Once
	finished chan struct{}
	err      error // the goroutine's, once finished is closed
	cancel   context.CancelFunc
}

// NewWriter starts a Writer of rows of schema, sorted by keys, into w.
func NewWriter(ctx context.Context, ec *exec.EvalContext, w *datafile.Writer, schema *arrow.Schema, keys []exec.SortKey) *Writer {
	ctx, cancel := context.WithCancel(ctx)
	s := &Writer{w: w, in: make(chan arrow.RecordBatch), end: make(chan struct{}), finished: make(chan struct{}), cancel: cancel}
	sorter := &exec.Sort{Input: &pushed{schema: schema, in: s.in, end: s.end}, Keys: keys, EC: ec}
	go func() {
		defer close(s.finished)
		defer sorter.Close()
		for {
			b, err := sorter.Next(ctx)
			if err != nil || b == nil {
				s.err = err
				return
			}
			err = w.Write(ctx, b)
			b.Release()
			if err != nil {
				s.err = err
				return
			}
		}
	}()
	return s
}

// Write hands rec to the sort (retained: the caller keeps its own
// reference). It fails with the sort's or writer's error once either has
// failed, and with ErrClosed after Close or Abort. A Writer is used by
// one goroutine at a time.
func (s *Writer) Write(ctx context.Context, rec arrow.RecordBatch) error {
	select {
	case <-s.end:
		return ErrClosed
	default:
	}
	rec.Retain()
	select {
	case s.in <- rec:
		return nil
	case <-s.finished:
		rec.Release()
		if s.err != nil {
			return s.err
		}
		return ErrClosed
	case <-ctx.Done():
		rec.Release()
		return ctx.Err()
	}
}

// Close sorts and writes what was pushed, then closes the files.
func (s *Writer) Close(ctx context.Context) ([]iceberg.DataFile, error) {
	s.endInput()
	<-s.finished
	s.cancel()
	if s.err != nil {
		_ = s.w.Abort(context.WithoutCancel(ctx))
		return nil, s.err
	}
	return s.w.Close(ctx)
}

// Abort stops the sort and removes what was written.
func (s *Writer) Abort(ctx context.Context) error {
	s.cancel()
	s.endInput()
	<-s.finished
	return s.w.Abort(ctx)
}

func (s *Writer) endInput() { s.endOnce.Do(func() { close(s.end) }) }

// pushed is the Writer's batches as the sort's input.
type pushed struct {
	schema *arrow.Schema
	in     <-chan arrow.RecordBatch
	end    <-chan struct{}
}

func (p *pushed) Schema() *arrow.Schema { return p.schema }
func (p *pushed) Close()                {}

func (p *pushed) Next(ctx context.Context) (arrow.RecordBatch, error) {
	select {
	case b := <-p.in:
		return b, nil
	case <-p.end:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
