package exec

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// RecordIterator is a pull-based stream of record batches.
type RecordIterator interface {
	// Schema is the schema of every batch returned.
	Schema() *arrow.Schema
	// Next returns the next batch, owned by the caller, or (nil, nil) at the end.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// Close releases resources; it is safe to call more than once.
	Close()
}

// EvalContext carries what expression evaluation needs besides the batch.
type EvalContext struct {
	Mem memory.Allocator
	// Ctx is the query's context, for expressions that run subqueries.
	Ctx context.Context
	// Now is fixed once per query so current_timestamp is stable within it.
	Now time.Time
	// Workers bounds parallel operators (0: GOMAXPROCS; 1: serial).
	Workers int
	// MemoryLimit bounds, in bytes, what a spilling operator (Sort, hash
	// aggregation, hash join) holds before it writes to disk (0:
	// DefaultMemoryLimit).
	MemoryLimit int64
	// SpillDir is where spill files go ("": os.TempDir()).
	SpillDir string
}

// DefaultMemoryLimit is the per-operator memory budget when
// EvalContext.MemoryLimit is 0.
const DefaultMemoryLimit int64 = 512 << 20

// memoryLimit is the effective per-operator budget.
func (ec *EvalContext) memoryLimit() int64 {
	if ec == nil || ec.MemoryLimit <= 0 {
		return DefaultMemoryLimit
	}
	return ec.MemoryLimit
}

// Expr is an expression evaluable over a batch. The result has batch.NumRows()
// rows and is owned by the caller.
type Expr interface {
	DataType() arrow.DataType
	Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error)
}

// Collect drains it into a slice of batches (caller releases) and closes it.
func Collect(ctx context.Context, it RecordIterator) ([]arrow.RecordBatch, error) {
	defer it.Close()
	var out []arrow.RecordBatch
	for {
		b, err := it.Next(ctx)
		if err != nil {
			ReleaseAll(out)
			return nil, err
		}
		if b == nil {
			return out, nil
		}
		out = append(out, b)
	}
}

// ReleaseAll releases every batch.
func ReleaseAll(bs []arrow.RecordBatch) {
	for _, b := range bs {
		if b != nil {
			b.Release()
		}
	}
}

// ReleaseArrays releases every non-nil array.
func ReleaseArrays(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}
