package exec

import (
	"context"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// spillFanOut is the number of partitions one pass of a spilling hash
// operator (aggregation, join) writes into.
const spillFanOut = 16

// spillPartitions holds the spillFanOut partition files of one pass of a
// spilling hash operator; each file is created when first written.
type spillPartitions struct {
	ec      *EvalContext
	files   *spillFiles
	pattern string        // the spill file name pattern
	created *atomic.Int64 // counts the files created, for diagnostics
	writers [spillFanOut]*runWriter
}

func newSpillPartitions(ec *EvalContext, files *spillFiles, pattern string, created *atomic.Int64) spillPartitions {
	return spillPartitions{ec: ec, files: files, pattern: pattern, created: created}
}

// drainBatches feeds every batch of it to add (it is not closed).
func drainBatches(ctx context.Context, it RecordIterator, add func(context.Context, arrow.RecordBatch) error) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := it.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		err = add(ctx, b)
		b.Release()
		if err != nil {
			return err
		}
	}
}

// partitionOrder orders rows by partition (partOf(i) is that of rows[i])
// with a counting sort, so one take serves every partition: partition p
// is idx[starts[p]:starts[p+1]].
func partitionOrder(rows []int32, partOf func(i int) uint64) (idx []int32, starts [spillFanOut + 1]int) {
	for i := range rows {
		starts[partOf(i)+1]++
	}
	for i := 1; i <= spillFanOut; i++ {
		starts[i] += starts[i-1]
	}
	pos := starts
	idx = make([]int32, len(rows))
	for i, r := range rows {
		part := partOf(i)
		idx[pos[part]] = r
		pos[part]++
	}
	return idx, starts
}

// write takes rows idx of cols (ordered by partitionOrder) and appends
// each partition's slice to its file. wrote, if not nil, is told each
// partition written and the size of all rows taken (batchBytes).
func (s *spillPartitions) write(ctx context.Context, schema *arrow.Schema, cols []arrow.Array, idx []int32, starts *[spillFanOut + 1]int, wrote func(part, rows int, takenBytes int64)) error {
	b, err := TakeBatch(ctx, s.ec, schema, cols, idx)
	if err != nil {
		return err
	}
	defer b.Release()
	var takenBytes int64
	if wrote != nil {
		takenBytes = batchBytes(b)
	}
	for part := range spillFanOut {
		lo, hi := starts[part], starts[part+1]
		if lo == hi {
			continue
		}
		w, err := s.writer(part, schema)
		if err != nil {
			return err
		}
		sl := b.NewSlice(int64(lo), int64(hi))
		err = w.write(sl)
		sl.Release()
		if err != nil {
			return err
		}
		if wrote != nil {
			wrote(part, hi-lo, takenBytes)
		}
	}
	return nil
}

func (s *spillPartitions) writer(part int, schema *arrow.Schema) (*runWriter, error) {
	if w := s.writers[part]; w != nil {
		return w, nil
	}
	w, err := newSpillWriter(s.ec, s.files, s.pattern, schema)
	if err != nil {
		return nil, err
	}
	s.created.Add(1)
	s.writers[part] = w
	return w, nil
}

// opened reports whether any partition file is open.
func (s *spillPartitions) opened() bool {
	for _, w := range s.writers {
		if w != nil {
			return true
		}
	}
	return false
}

// finish closes the partition files; runs[i] is partition i's file
// (path "" when no row went there). After the first error the rest are
// aborted.
func (s *spillPartitions) finish() (runs [spillFanOut]sortedRun, err error) {
	for i, w := range s.writers {
		if w == nil {
			continue
		}
		s.writers[i] = nil
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
func (s *spillPartitions) abort() {
	for i, w := range s.writers {
		if w != nil {
			w.abort()
			s.writers[i] = nil
		}
	}
}
