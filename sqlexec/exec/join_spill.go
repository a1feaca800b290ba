package exec

import (
	"context"
	"hash/maphash"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// Hash joins past the memory budget (grace hash join).
//
// While the build side is read its size is estimated; once the estimate
// passes EvalContext.MemoryLimit, every build row and then every probe
// row is written to one of joinFanOut partition files chosen by a seeded
// hash of its encoded key, so rows that may match share a partition.
// Partitions are then joined one at a time in memory. A build partition
// still over the budget is partitioned again, with a fresh seed, together
// with its probe partition; a partition that does not split (one key
// holds all its rows) or is maxJoinLevel deep is joined in memory anyway.

// joinFanOut is the number of partitions one pass spills into.
const joinFanOut = spillFanOut

// maxJoinLevel bounds re-partitioning: 16^6 partitions is far more than
// any budget needs unless keys repeat, which re-partitioning cannot help.
const maxJoinLevel = 6

// joinRowOverhead estimates what the hash table adds per build row
// (map entry, key bytes, row index).
const joinRowOverhead = mapEntryBytes + 16

// joinSpillFiles counts the spill files hash joins have created.
var joinSpillFiles atomic.Int64

// JoinSpillFiles reports how many spill files hash joins in this process
// have created so far (a diagnostic for tests and tools).
func JoinSpillFiles() int64 { return joinSpillFiles.Load() }

// buildEstimate is what hashing rows of bytes column data costs: the
// batches, their concatenated copy and the table.
func buildEstimate(bytes, rows int64) int64 {
	return 2*bytes + rows*joinRowOverhead
}

// joinPartitioner writes the rows of one side into joinFanOut files.
type joinPartitioner struct {
	ec         *EvalContext
	schema     *arrow.Schema
	keys       []Expr
	seed       maphash.Seed
	nullsEqual bool
	// keepNull keeps rows whose key has a NULL (they match nothing but
	// are output unmatched); they are spread round-robin.
	keepNull bool
	sawNull  bool
	nextNull uint64

	parts   spillPartitions
	bytes   [joinFanOut]int64
	rows    [joinFanOut]int64
	buf     []byte
	sel     []int32
	selPart []uint8 // the partition of each row in sel
}

func newJoinPartitioner(ec *EvalContext, files *spillFiles, schema *arrow.Schema, keys []Expr, seed maphash.Seed, nullsEqual, keepNull bool) *joinPartitioner {
	return &joinPartitioner{ec: ec, schema: schema, keys: keys, seed: seed, nullsEqual: nullsEqual, keepNull: keepNull,
		parts: newSpillPartitions(ec, files, "icesql-join-*.arrows", &joinSpillFiles)}
}

// consume drains it into the partitions (it is not closed).
func (p *joinPartitioner) consume(ctx context.Context, it RecordIterator) error {
	return drainBatches(ctx, it, p.add)
}

// add writes the rows of b to their partitions.
func (p *joinPartitioner) add(ctx context.Context, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	if !p.schema.Equal(b.Schema()) {
		return &BatchTypeError{Column: "hash join spill", Want: p.schema.String(), Got: b.Schema().String()}
	}
	keys, err := evalAll(p.ec, b, p.keys)
	if err != nil {
		return err
	}
	defer ReleaseArrays(keys)
	p.sel, p.selPart = p.sel[:0], p.selPart[:0]
	for r := range n {
		var null bool
		p.buf, null = appendRowKey(p.buf[:0], keys, r)
		var part uint64
		if null && !p.nullsEqual {
			p.sawNull = true
			if !p.keepNull {
				continue
			}
			part = p.nextNull % joinFanOut
			p.nextNull++
		} else {
			part = maphash.Bytes(p.seed, p.buf) % joinFanOut
		}
		p.sel = append(p.sel, int32(r))
		p.selPart = append(p.selPart, uint8(part))
	}
	if len(p.sel) == 0 {
		return nil
	}
	idx, starts := partitionOrder(p.sel, func(i int) uint64 { return uint64(p.selPart[i]) })
	return p.parts.write(ctx, p.schema, b.Columns(), idx, &starts, func(part, rows int, takenBytes int64) {
		p.bytes[part] += takenBytes * int64(rows) / int64(len(idx))
		p.rows[part] += int64(rows)
	})
}

// finish closes the partition files; runs[i] is partition i's file
// (path "" when no row went there).
func (p *joinPartitioner) finish() (runs [joinFanOut]sortedRun, err error) {
	return p.parts.finish()
}

// abort closes the partition files after a failure (the owner of files
// removes them).
func (p *joinPartitioner) abort() { p.parts.abort() }

// CollectJoinBuild reads a hash join's build input until it ends or,
// for a join with keys, until its estimate plus used (what other build
// sides already hold) passes the memory limit: over then reports that
// the build side belongs in a join that may spill (a shared JoinBuild
// never spills). It returns the batches read, which the caller owns,
// and their estimate. The input is not closed.
func CollectJoinBuild(ctx context.Context, ec *EvalContext, input RecordIterator, keys []Expr, used int64) (held []arrow.RecordBatch, estimate int64, over bool, err error) {
	limit := ec.memoryLimit()
	var bytes, rows int64
	for {
		if err := ctx.Err(); err != nil {
			ReleaseAll(held)
			return nil, 0, false, err
		}
		b, err := input.Next(ctx)
		if err != nil {
			ReleaseAll(held)
			return nil, 0, false, err
		}
		if b == nil {
			return held, buildEstimate(bytes, rows), false, nil
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		held = append(held, b)
		bytes += batchBytes(b)
		rows += b.NumRows()
		if len(keys) > 0 && used+buildEstimate(bytes, rows) > limit {
			return held, buildEstimate(bytes, rows), true, nil
		}
	}
}

// NewJoinBuildFrom is NewJoinBuild over batches already read from input
// (taken over; see CollectJoinBuild), hashed now; input is not read
// again but is closed with the build.
func NewJoinBuildFrom(ctx context.Context, ec *EvalContext, input RecordIterator, keys []Expr, nullsEqual bool, held []arrow.RecordBatch) (*JoinBuild, error) {
	return NewJoinBuildDict(ctx, ec, input, keys, nullsEqual, held, nil)
}

// NewJoinBuildDict is NewJoinBuildFrom holding the columns dict marks as
// dictionary arrays (JoinBuild.Dictionary).
func NewJoinBuildDict(ctx context.Context, ec *EvalContext, input RecordIterator, keys []Expr, nullsEqual bool, held []arrow.RecordBatch, dict []bool) (*JoinBuild, error) {
	jb := NewJoinBuild(ec, input, keys, nullsEqual)
	jb.Dictionary = dict
	if err := jb.buildFrom(ctx, held); err != nil {
		jb.Close()
		return nil, err
	}
	return jb, nil
}
