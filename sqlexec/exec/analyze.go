package exec

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// OpStats are one operator's counters for EXPLAIN ANALYZE. Parallel
// workers running copies of an operator share one OpStats, so the fields
// are atomic and Nanos sums the workers' time.
type OpStats struct {
	Rows    atomic.Int64
	Batches atomic.Int64
	// Nanos is the time spent in Next, the inputs' Next included.
	Nanos atomic.Int64
	// Calls counts the calls of Next: 0 means the operator never ran
	// (a LIMIT 0 above it, an empty join side).
	Calls atomic.Int64
}

// Analyzed counts what Input returns. Only EXPLAIN ANALYZE builds it, so
// plain queries pay nothing for the counters.
type Analyzed struct {
	Input RecordIterator
	Stats *OpStats
}

// NewAnalyzed wraps in, counting into st.
func NewAnalyzed(in RecordIterator, st *OpStats) *Analyzed {
	return &Analyzed{Input: in, Stats: st}
}

func (a *Analyzed) Schema() *arrow.Schema { return a.Input.Schema() }

func (a *Analyzed) Next(ctx context.Context) (arrow.RecordBatch, error) {
	start := time.Now()
	b, err := a.Input.Next(ctx)
	a.Stats.Nanos.Add(int64(time.Since(start)))
	a.Stats.Calls.Add(1)
	if b != nil {
		a.Stats.Rows.Add(b.NumRows())
		a.Stats.Batches.Add(1)
	}
	return b, err
}

func (a *Analyzed) Close() { a.Input.Close() }
