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
const joinFanOut = 16

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
	files      *spillFiles
	schema     *arrow.Schema
	keys       []Expr
	seed       maphash.Seed
	nullsEqual bool
	// keepNull keeps rows whose key has a NULL (they match nothing but
	// are output unmatched); they are spread round-robin.
	keepNull bool
	sawNull  bool
	nextNull uint64

	writers [joinFanOut]*runWriter
	bytes   [joinFanOut]int64
	rows    [joinFanOut]int64
	buf     []byte
	sel     []int32
	parts   []uint8
}

func newJoinPartitioner(ec *EvalContext, files *spillFiles, schema *arrow.Schema, keys []Expr, seed maphash.Seed, nullsEqual, keepNull bool) *joinPartitioner {
	return &joinPartitioner{ec: ec, files: files, schema: schema, keys: keys, seed: seed, nullsEqual: nullsEqual, keepNull: keepNull}
}

// consume drains it into the partitions (it is not closed).
func (p *joinPartitioner) consume(ctx context.Context, it RecordIterator) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := it.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		err = p.add(ctx, b)
		b.Release()
		if err != nil {
			return err
		}
	}
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
	// a counting sort by partition, so one take serves every partition
	var starts [joinFanOut + 1]int
	p.sel, p.parts = p.sel[:0], p.parts[:0]
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
		p.parts = append(p.parts, uint8(part))
		starts[part+1]++
	}
	if len(p.sel) == 0 {
		return nil
	}
	for i := 1; i <= joinFanOut; i++ {
		starts[i] += starts[i-1]
	}
	pos := starts
	idx := make([]int32, len(p.sel))
	for i, r := range p.sel {
		idx[pos[p.parts[i]]] = r
		pos[p.parts[i]]++
	}
	sorted, err := TakeBatch(ctx, p.ec, p.schema, b.Columns(), idx)
	if err != nil {
		return err
	}
	defer sorted.Release()
	total := batchBytes(sorted)
	for part := range joinFanOut {
		lo, hi := starts[part], starts[part+1]
		if lo == hi {
			continue
		}
		w, err := p.writer(part)
		if err != nil {
			return err
		}
		s := sorted.NewSlice(int64(lo), int64(hi))
		err = w.write(s)
		s.Release()
		if err != nil {
			return err
		}
		p.bytes[part] += total * int64(hi-lo) / int64(len(idx))
		p.rows[part] += int64(hi - lo)
	}
	return nil
}

func (p *joinPartitioner) writer(part int) (*runWriter, error) {
	if w := p.writers[part]; w != nil {
		return w, nil
	}
	w, err := newSpillWriter(p.ec, p.files, "icesql-join-*.arrows", p.schema)
	if err != nil {
		return nil, err
	}
	joinSpillFiles.Add(1)
	p.writers[part] = w
	return w, nil
}

// finish closes the partition files; runs[i] is partition i's file
// (path "" when no row went there).
func (p *joinPartitioner) finish() (runs [joinFanOut]sortedRun, err error) {
	for i, w := range p.writers {
		if w == nil {
			continue
		}
		p.writers[i] = nil
		if err != nil {
			w.abort()
			continue
		}
		runs[i], err = w.finish()
	}
	return runs, err
}

// abort closes the partition files after a failure (the owner of files
// removes them).
func (p *joinPartitioner) abort() {
	for i, w := range p.writers {
		if w != nil {
			w.abort()
			p.writers[i] = nil
		}
	}
}
