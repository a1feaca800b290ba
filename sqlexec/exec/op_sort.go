package exec

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// SortKey orders rows by an expression.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// Sort emits its input ordered by Keys (stable). It holds the input in
// memory up to about EC's memory limit; past that it sorts what it holds
// into a run on disk, and at the end streams a k-way merge of the runs.
// Without spilling the result is one batch, as before.
type Sort struct {
	Input RecordIterator
	Keys  []SortKey
	EC    *EvalContext
	done  bool

	files   spillFiles
	merge   *runMerger
	runSch  *arrow.Schema
	runs    []sortedRun // in input order
	rowSize int64       // bytes per row of the first run, to size chunks
	spills  int         // runs written from the input (for tests)
}

// mergeFanIn bounds the runs merged at once; more runs are merged in
// passes so the cursors' batches stay within the budget.
const mergeFanIn = 16

func (s *Sort) Schema() *arrow.Schema { return s.Input.Schema() }

func (s *Sort) Close() {
	s.Input.Close()
	s.release()
}

// release closes open runs and removes every spill file.
func (s *Sort) release() {
	if s.merge != nil {
		s.merge.close()
		s.merge = nil
	}
	s.files.removeAll()
	s.runs = nil
}

func (s *Sort) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.merge != nil {
		b, err := s.merge.next(ctx, s.chunkRows())
		if err != nil || b == nil {
			s.release()
			return nil, err
		}
		return dropKeys(s.Input.Schema(), b), nil
	}
	if s.done {
		return nil, nil
	}
	s.done = true
	b, err := s.consume(ctx)
	if err != nil {
		s.release()
		return nil, err
	}
	if b != nil || s.merge == nil {
		return b, nil
	}
	return s.Next(ctx)
}

// consume reads the whole input. It returns the sorted batch when
// everything fit in memory, otherwise it spills and sets up the merge.
func (s *Sort) consume(ctx context.Context) (arrow.RecordBatch, error) {
	s.files.dir = s.EC.SpillDir
	limit := s.EC.memoryLimit()
	var held []arrow.RecordBatch
	defer func() { ReleaseAll(held) }()
	var heldBytes int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := s.Input.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		held = append(held, b)
		heldBytes += batchBytes(b)
		// sorting copies what is held once more, hence half the budget
		if heldBytes > limit/2 {
			err := s.spill(ctx, held)
			ReleaseAll(held)
			held, heldBytes = nil, 0
			if err != nil {
				return nil, err
			}
		}
	}
	if len(s.runs) == 0 {
		cols, idx, err := s.sortHeld(ctx, held)
		if err != nil || cols == nil {
			return nil, err
		}
		defer ReleaseArrays(cols)
		return TakeBatch(ctx, s.EC, s.Input.Schema(), cols[:s.Input.Schema().NumFields()], idx)
	}
	if len(held) > 0 {
		if err := s.spill(ctx, held); err != nil {
			return nil, err
		}
	}
	return nil, s.startMerge(ctx)
}

// spill sorts the held batches into a new run file.
func (s *Sort) spill(ctx context.Context, held []arrow.RecordBatch) error {
	cols, idx, err := s.sortHeld(ctx, held)
	if err != nil || cols == nil {
		return err
	}
	defer ReleaseArrays(cols)
	if s.runSch == nil {
		fields := slices.Clone(s.Input.Schema().Fields())
		for i, k := range s.Keys {
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("__sort_key_%d", i), Type: k.Expr.DataType(), Nullable: true})
		}
		s.runSch = arrow.NewSchema(fields, nil)
		var bytes int64
		for _, c := range cols {
			bytes += arrayBytes(c.Data())
		}
		s.rowSize = max(1, bytes/int64(len(idx)))
	}
	for i, c := range cols {
		if !arrow.TypeEqual(c.DataType(), s.runSch.Field(i).Type) {
			return &BatchTypeError{Column: s.runSch.Field(i).Name, Want: s.runSch.Field(i).Type.String(), Got: c.DataType().String()}
		}
	}
	run, err := writeSortedRun(ctx, s.EC, &s.files, s.runSch, cols, idx, s.chunkRows())
	if err != nil {
		return err
	}
	s.runs = append(s.runs, run)
	s.spills++
	sortSpillRuns.Add(1)
	return nil
}

// sortSpillRuns counts the sorted runs sorts have written to disk.
var sortSpillRuns atomic.Int64

// SortSpillRuns reports how many sorted runs sorts have spilled since
// the process started (diagnostics and tests).
func SortSpillRuns() int64 { return sortSpillRuns.Load() }

// chunkRows sizes run batches so that mergeFanIn cursors hold about
// half the budget.
func (s *Sort) chunkRows() int {
	if s.rowSize == 0 {
		return 8192
	}
	return int(min(8192, max(16, s.EC.memoryLimit()/(2*mergeFanIn)/s.rowSize)))
}

// startMerge merges runs in passes until at most mergeFanIn remain,
// then opens the final streaming merge.
func (s *Sort) startMerge(ctx context.Context) error {
	for len(s.runs) > mergeFanIn {
		var next []sortedRun
		for lo := 0; lo < len(s.runs); lo += mergeFanIn {
			group := s.runs[lo:min(len(s.runs), lo+mergeFanIn)]
			if len(group) == 1 {
				next = append(next, group[0])
				continue
			}
			run, err := s.mergeToRun(ctx, group)
			if err != nil {
				return err
			}
			next = append(next, run)
		}
		s.runs = next
	}
	m, err := s.openMerger(s.runs)
	if err != nil {
		return err
	}
	s.merge = m
	return nil
}

func (s *Sort) openMerger(runs []sortedRun) (*runMerger, error) {
	cursors := make([]*runCursor, 0, len(runs))
	for i, p := range runs {
		c, err := openRun(s.EC, p, s.runSch, i)
		if err != nil {
			for _, c := range cursors {
				c.close()
			}
			return nil, err
		}
		cursors = append(cursors, c)
	}
	return newRunMerger(s.EC, s.Keys, s.runSch, cursors), nil
}

// mergeToRun merges a group of runs into one new run and removes them.
func (s *Sort) mergeToRun(ctx context.Context, group []sortedRun) (sortedRun, error) {
	m, err := s.openMerger(group)
	if err != nil {
		return sortedRun{}, err
	}
	defer m.close()
	w, err := newRunWriter(s.EC, &s.files, s.runSch)
	if err != nil {
		return sortedRun{}, err
	}
	for {
		b, err := m.next(ctx, s.chunkRows())
		if err != nil {
			w.abort()
			return sortedRun{}, err
		}
		if b == nil {
			break
		}
		err = w.write(b)
		b.Release()
		if err != nil {
			w.abort()
			return sortedRun{}, err
		}
	}
	run, err := w.finish()
	if err != nil {
		return sortedRun{}, err
	}
	for _, p := range group {
		s.files.remove(p.path)
	}
	return run, nil
}

// sortHeld concatenates the held batches, evaluates the keys and sorts
// row indices. cols holds the input columns then the key columns; nil
// when nothing is held.
func (s *Sort) sortHeld(ctx context.Context, held []arrow.RecordBatch) ([]arrow.Array, []int32, error) {
	schema := s.Input.Schema()
	cols, n, err := concatBatches(s.EC, schema, held)
	if err != nil {
		return nil, nil, err
	}
	if n == 0 {
		ReleaseArrays(cols)
		return nil, nil, nil
	}
	all := array.NewRecordBatch(schema, cols, int64(n))
	defer all.Release()
	for _, k := range s.Keys {
		kc, err := k.Expr.Eval(s.EC, all)
		if err != nil {
			ReleaseArrays(cols)
			return nil, nil, err
		}
		cols = append(cols, kc)
	}
	if err := ctx.Err(); err != nil {
		ReleaseArrays(cols)
		return nil, nil, err
	}
	keys := cols[schema.NumFields():]
	cmps := make([]func(i, j int) int, len(keys))
	for i, k := range keys {
		cmps[i] = rowComparator(k)
	}
	if len(keys) > 0 {
		if str, ok := keys[0].(*array.String); ok {
			return cols, sortByString(str, s.Keys, keys, cmps), nil
		}
	}
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	// Unstable pdqsort with the row index as the last key: stable, and
	// O(n log n) where SortStableFunc's in-place merge is O(n log² n).
	slices.SortFunc(idx, func(x, y int32) int {
		return compareRows(s.Keys, keys, cmps, 0, x, y)
	})
	return cols, idx, nil
}

// compareRows orders rows x and y by keys[from:], then by position.
func compareRows(sk []SortKey, keys []arrow.Array, cmps []func(i, j int) int, from int, x, y int32) int {
	for ki := from; ki < len(sk); ki++ {
		k, a := sk[ki], keys[ki]
		an, bn := a.IsNull(int(x)), a.IsNull(int(y))
		if an || bn {
			if an && bn {
				continue
			}
			if an == k.NullsFirst {
				return -1
			}
			return 1
		}
		if c := cmps[ki](int(x), int(y)); c != 0 {
			if k.Desc {
				return -c
			}
			return c
		}
	}
	return cmp.Compare(x, y)
}

// sortByString is sortHeld's order when the first key is a string
// column: the rows are sorted as (value, position) pairs, so that most
// comparisons are one strings.Compare on values held beside the index
// rather than two offset lookups through a closure (a 10M-row write
// ordered by a string spent most of its sort there). NULLs of the first
// key go before or after, in position order, and ties on it fall to the
// remaining keys.
func sortByString(str *array.String, sk []SortKey, keys []arrow.Array, cmps []func(i, j int) int) []int32 {
	type row struct {
		v string
		i int32
	}
	n := str.Len()
	rows := make([]row, 0, n)
	var nulls []int32
	for i := range n {
		if str.IsNull(i) {
			nulls = append(nulls, int32(i))
			continue
		}
		rows = append(rows, row{str.Value(i), int32(i)})
	}
	desc := sk[0].Desc
	slices.SortFunc(rows, func(a, b row) int {
		if c := strings.Compare(a.v, b.v); c != 0 {
			if desc {
				return -c
			}
			return c
		}
		return compareRows(sk, keys, cmps, 1, a.i, b.i)
	})
	if len(nulls) > 1 && len(sk) > 1 {
		slices.SortFunc(nulls, func(x, y int32) int { return compareRows(sk, keys, cmps, 1, x, y) })
	}
	idx := make([]int32, 0, n)
	if sk[0].NullsFirst {
		idx = append(idx, nulls...)
	}
	for _, r := range rows {
		idx = append(idx, r.i)
	}
	if !sk[0].NullsFirst {
		idx = append(idx, nulls...)
	}
	return idx
}

// rowComparator compares two non-null rows of one array.
func rowComparator(a arrow.Array) func(i, j int) int {
	switch x := a.(type) {
	case *array.Int64:
		v := x.Int64Values()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case *array.Int32:
		v := x.Int32Values()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case *array.Float64:
		v := x.Float64Values()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case *array.String:
		return func(i, j int) int { return cmp.Compare(x.Value(i), x.Value(j)) }
	case *array.Timestamp:
		// CompareValues compares arrow.Timestamp values as integers too
		v := x.TimestampValues()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case *array.Date32:
		v := x.Date32Values()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case *array.Time64:
		v := x.Time64Values()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case *array.Float32:
		v := x.Float32Values()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	}
	return func(i, j int) int { return CompareValues(ValueAt(a, i), ValueAt(a, j)) }
}

// batchBytes is the memory b's buffers occupy (shared buffers counted
// once per reference: an upper bound, which is what a budget wants).
func batchBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, c := range b.Columns() {
		n += arrayBytes(c.Data())
	}
	return n
}

func arrayBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, buf := range d.Buffers() {
		if buf != nil {
			n += int64(buf.Len())
		}
	}
	for _, c := range d.Children() {
		n += arrayBytes(c)
	}
	// Dictionary returns a typed nil when there is none
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		n += arrayBytes(dict)
	}
	return n
}
