package exec

import (
	"context"
	"fmt"
	"hash/maphash"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// Hash aggregation past the memory budget (hybrid hash aggregation).
//
// An aggPass aggregates rows into its table until the table's estimate
// exceeds the budget; from then on the table is frozen: rows of groups
// it holds still update it, rows of any other group are written, as the
// evaluated group and argument columns, to one of aggFanOut partition
// files chosen by a seeded hash of the encoded key. A group's rows thus
// all land in one place, in input order. Once the input ends the table
// is emitted and each partition is aggregated by a pass of its own, with
// a fresh seed, which may freeze and partition again.

// aggFanOut is the number of partitions one pass spills into.
const aggFanOut = spillFanOut

// maxAggLevel bounds the re-partitioning depth; a pass that deep keeps
// every group in memory. (Each level already shrinks: a frozen table
// holds at least one group, whose rows do not go down.)
const maxAggLevel = 12

// aggSpillFiles counts the spill files hash aggregations have created.
var aggSpillFiles atomic.Int64

// AggregateSpillFiles reports how many spill files hash aggregations in
// this process have created so far (a diagnostic for tests and tools).
func AggregateSpillFiles() int64 { return aggSpillFiles.Load() }

// aggBudget is a memory budget shared by the passes that run at once
// (the workers of a parallel aggregation).
type aggBudget struct {
	limit int64
	used  atomic.Int64
}

// aggPass is one level of hybrid hash aggregation.
type aggPass struct {
	ec      *EvalContext
	st      *aggState
	budget  *aggBudget
	counted int64 // what this pass has added to budget.used
	level   int
	seed    maphash.Seed
	schema  *arrow.Schema // of the partition files, from the first spilled rows
	parts   spillPartitions
	frozen  bool
	miss    []int32  // rows of the current batch left to the partitions
	hashes  []uint64 // their key hashes
}

func newAggPass(ec *EvalContext, st *aggState, budget *aggBudget, level int, seed maphash.Seed, files *spillFiles) *aggPass {
	return &aggPass{ec: ec, st: st, budget: budget, level: level, seed: seed,
		parts: newSpillPartitions(ec, files, "icesql-agg-*.arrows", &aggSpillFiles)}
}

// consume drains it into the pass (it is not closed).
func (p *aggPass) consume(ctx context.Context, it RecordIterator) error {
	return drainBatches(ctx, it, p.add)
}

// add aggregates one input batch.
func (p *aggPass) add(ctx context.Context, b arrow.RecordBatch) error {
	cols, err := p.st.evalCols(b)
	defer ReleaseArrays(cols)
	if err != nil {
		return err
	}
	return p.addCols(ctx, cols, int(b.NumRows()))
}

func (p *aggPass) addCols(ctx context.Context, cols []arrow.Array, n int) error {
	if !p.frozen {
		if err := p.st.updateCols(ctx, cols, n, nil); err != nil {
			return err
		}
		p.account()
		return nil
	}
	// Missed rows are written to the partitions as plain values.
	decodeDictionaries(p.ec.Mem, cols)
	p.miss, p.hashes = p.miss[:0], p.hashes[:0]
	err := p.st.updateCols(ctx, cols, n, func(r int, enc []byte) {
		p.miss = append(p.miss, int32(r))
		p.hashes = append(p.hashes, maphash.Bytes(p.seed, enc))
	})
	if err != nil {
		return err
	}
	p.account()
	if len(p.miss) == 0 {
		return nil
	}
	return p.spillRows(ctx, cols)
}

// account updates the shared budget with the table's estimate and
// freezes the table once the budget is exceeded.
func (p *aggPass) account() {
	now := p.st.memBytes()
	used := p.budget.used.Add(now - p.counted)
	p.counted = now
	if !p.frozen && used > p.budget.limit && len(p.st.groups) > 0 && p.level < maxAggLevel {
		p.frozen = true
	}
}

// spillRows writes the missed rows of cols to their partitions.
func (p *aggPass) spillRows(ctx context.Context, cols []arrow.Array) error {
	if err := p.checkSchema(cols); err != nil {
		return err
	}
	idx, starts := partitionOrder(p.miss, func(i int) uint64 { return p.hashes[i] % aggFanOut })
	return p.parts.write(ctx, p.schema, cols, idx, &starts, nil)
}

// checkSchema fixes the partition schema from the first spilled columns
// and holds later ones to it.
func (p *aggPass) checkSchema(cols []arrow.Array) error {
	if p.schema == nil {
		fields := make([]arrow.Field, len(cols))
		for i, c := range cols {
			fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: c.DataType(), Nullable: true}
		}
		p.schema = arrow.NewSchema(fields, nil)
		return nil
	}
	for i, c := range cols {
		if f := p.schema.Field(i); !arrow.TypeEqual(c.DataType(), f.Type) {
			return &BatchTypeError{Column: f.Name, Want: f.Type.String(), Got: c.DataType().String()}
		}
	}
	return nil
}

// finish closes the partition files; parts[i] is partition i's run
// (path "" when nothing went there). It also returns the pass's share
// of the budget.
func (p *aggPass) finish() (parts []sortedRun, err error) {
	p.budget.used.Add(-p.counted)
	p.counted = 0
	if !p.parts.opened() {
		return nil, nil
	}
	runs, err := p.parts.finish()
	return runs[:], err
}

// abort closes the partition files after a failure (the owner of files
// removes them).
func (p *aggPass) abort() {
	p.budget.used.Add(-p.counted)
	p.counted = 0
	p.parts.abort()
}
