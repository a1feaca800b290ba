package exec

import (
	"context"
	"errors"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// WorkerCount is the number of parallel workers ec asks for: ec.Workers, or
// GOMAXPROCS when that is 0.
func (ec *EvalContext) WorkerCount() int {
	if ec.Workers > 0 {
		return ec.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// SharedSource hands the batches of some iterators to several workers.
// With at least as many parts as workers each worker takes whole parts
// (no locking per batch); otherwise workers take turns on one part at a
// time.
type SharedSource struct {
	mu        sync.Mutex
	parts     []RecordIterator
	next      int
	exclusive bool
	schema    *arrow.Schema
}

// NewSharedSource shares parts (all of one schema) among workers handles.
func NewSharedSource(schema *arrow.Schema, parts []RecordIterator, workers int) *SharedSource {
	return &SharedSource{parts: parts, exclusive: len(parts) >= workers, schema: schema}
}

// Handle returns one worker's view; closing it does nothing (Close the
// SharedSource).
func (s *SharedSource) Handle() RecordIterator { return &sharedHandle{s: s} }

// Close closes every part.
func (s *SharedSource) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.parts {
		p.Close()
	}
	s.next = len(s.parts)
}

type sharedHandle struct {
	s   *SharedSource
	own RecordIterator
}

func (h *sharedHandle) Schema() *arrow.Schema { return h.s.schema }
func (h *sharedHandle) Close()                {}

func (h *sharedHandle) Next(ctx context.Context) (arrow.RecordBatch, error) {
	s := h.s
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if h.own != nil {
			b, err := h.own.Next(ctx)
			if b != nil || err != nil {
				return b, err
			}
			h.own = nil
		}
		s.mu.Lock()
		if s.exclusive {
			if s.next < len(s.parts) {
				h.own = s.parts[s.next]
				s.next++
				s.mu.Unlock()
				continue
			}
			s.mu.Unlock()
			return nil, nil
		}
		for s.next < len(s.parts) {
			b, err := s.parts[s.next].Next(ctx)
			if err != nil || b != nil {
				s.mu.Unlock()
				return b, err
			}
			s.next++
		}
		s.mu.Unlock()
		return nil, nil
	}
}

// ParallelAggregate runs one partial aggregation per input on its own
// goroutine, then merges the partial states: the result equals
// HashAggregate over the union of the inputs (up to the order of
// floating-point additions). DISTINCT aggregates are not supported.
// Past the memory limit the workers spill like HashAggregate does.
type ParallelAggregate struct {
	Inputs []RecordIterator
	// Source, if set, is closed with the operator (the inputs' shared source).
	Source *SharedSource
	// Builds are join build sides the inputs share, closed with the operator.
	Builds []*JoinBuild
	Groups []Expr
	Aggs   []AggSpec
	Out    *arrow.Schema
	EC     *EvalContext
	done   bool
	spill  *aggSpill // the passes and spill files (agg_spill_parallel.go)
}

func (p *ParallelAggregate) Schema() *arrow.Schema { return p.Out }

func (p *ParallelAggregate) Close() {
	for _, in := range p.Inputs {
		in.Close()
	}
	if p.Source != nil {
		p.Source.Close()
	}
	for _, jb := range p.Builds {
		jb.Close()
	}
	if p.spill != nil {
		p.spill.release()
	}
}

func (p *ParallelAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if p.spill != nil {
		return p.spill.next(ctx)
	}
	if p.done {
		return nil, nil
	}
	p.done = true
	for _, a := range p.Aggs {
		if a.Distinct {
			return nil, errNotMergeable
		}
	}
	return p.aggregate(ctx)
}

// firstError prefers a worker's own failure over the cancellation it
// caused in the others; the caller's cancellation wins over both.
func firstError(ctx context.Context, errs []error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var cancelled error
	for _, err := range errs {
		if err == nil {
			continue
		}
		if errors.Is(err, context.Canceled) {
			cancelled = err
			continue
		}
		return err
	}
	return cancelled
}
