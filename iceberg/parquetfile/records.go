package parquetfile

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/parquet-go/parquet-go"
)

// PosFieldID and PosFieldName identify the row-position metadata column
// (_pos) appended when ReadOptions.WithPosition is set.
const (
	PosFieldID   = 2147483645
	PosFieldName = "_pos"
)

// DefaultBatchSize is the rows per record batch when none is given.
const DefaultBatchSize = 8192

// ReadOptions configure NewRecordReader.
type ReadOptions struct {
	// BatchSize is the maximum rows per record; default DefaultBatchSize.
	BatchSize int
	// NameMapping resolves columns that carry no field id.
	NameMapping NameMapping
	// RowGroupFilter, when set, is asked about each row group with the
	// statistics of the projected primitive columns (keyed by field id);
	// returning false skips the row group.
	RowGroupFilter func(stats map[int]ColumnStats) bool
	// RangeStart and RangeEnd, when RangeEnd > 0, keep only the row
	// groups whose first byte (their first column chunk's first page)
	// lies in [RangeStart, RangeEnd): a split of the file. RowGroupFilter
	// is still asked about every row group, in order.
	RangeStart, RangeEnd int64
	// WithPosition appends an int64 _pos column: each row's position in
	// the file (for applying position deletes).
	WithPosition bool
	// Allocator for the records; default memory.DefaultAllocator.
	Allocator memory.Allocator
	// Constants are values, by field id, of fields missing from the file:
	// a data file's identity partition values (the spec's column
	// projection). They replace a missing field's nulls or initial
	// default; a nil value reads as null.
	Constants map[int]any
	// Concurrency is the goroutines decoding pages: Concurrency-1
	// workers decode the pages of top-level primitive columns ahead of
	// the batches (current row group first, then the next), beside the
	// caller's goroutine; default GOMAXPROCS, 1 decodes every page on the
	// caller's goroutine.
	Concurrency int
	// ExpectedFieldIDs are the field ids the manifest lists for the file
	// (the keys of its column metrics). Each one that is a primitive
	// field of the projection must be a column of the footer's schema
	// with the physical type of its Iceberg type (or one it is promoted
	// from), else NewRecordReader fails with ErrFooterMismatch. Empty
	// checks nothing (files whose manifest entry carries no metrics).
	ExpectedFieldIDs []int
	// ExpectedRows, when positive, is the manifest's record_count: a
	// footer with another row count fails with ErrFooterMismatch.
	ExpectedRows int64
	// FullBatches keeps every record at BatchSize rows (fewer only at the
	// end of a row group) instead of ending records where the pages of
	// the projected columns end: two readers of other columns of one
	// file then return records of the same rows.
	FullBatches bool
	// DictionaryFieldIDs are top-level string fields to read as
	// dictionary<int32, string> arrays: batches of dictionary-encoded
	// pages carry the chunk's dictionary (one array per column chunk,
	// shared by its batches) and the indexes, so that a consumer can
	// work once per distinct value; other batches get an identity
	// dictionary of their values.
	DictionaryFieldIDs []int
	// Scratch promises that the caller is done with a record's arrays by
	// its next call to Next (or Close): the pages' memory they view is
	// then reused for later pages, instead of being left to the garbage
	// collector. For a reader whose columns only feed a filter.
	Scratch bool
}

// RecordReader yields record batches of a projection of the file.
type RecordReader struct {
	ctx     context.Context
	r       *Reader
	opts    ReadOptions
	schema  *arrow.Schema
	roots   []*rnode
	leaves  []*rleaf
	flat    []*flatReader // per root: its streaming reader, or nil
	chunked []*rleaf      // leaves of the other roots (whole-chunk assembly)
	dict    []bool        // per root: read as a dictionary array (nil: none)
	mem     memory.Allocator
	rg      int // next row group to consider
	ahead   int // row group found (and prefetched) ahead, or -1
	pool    *decodePool
	rgRows  int64 // rows in the loaded row group
	rgFirst int64 // file position of its first row
	rgNext  int64 // next row within it
	rgIndex int   // its index in the file
	loaded  bool
	err     error
	lender  *bodyLender // with opts.Scratch: the bodies to reuse at the next Next
}

// NewRecordReader reads the fields of projection (the table schema pruned
// to the wanted columns) bound by field id: renamed columns resolve by id,
// fields missing from the file read as null (or their initial default) and
// Iceberg type promotions are applied.
func (r *Reader) NewRecordReader(ctx context.Context, projection *iceberg.Schema, opts ReadOptions) (*RecordReader, error) {
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	mem := opts.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := &binder{mapping: opts.NameMapping, constants: opts.Constants}
	if opts.NameMapping == nil && !hasAnyID(r) {
		return nil, ErrNoFieldIDs
	}
	if err := r.checkExpected(projection, opts); err != nil {
		return nil, err
	}
	roots, err := b.bindFields(projection.Fields(), r.file.Root(), nil, 0, 0)
	if err != nil {
		return nil, err
	}
	as, err := arrowschema.ToArrow(projection)
	if err != nil {
		return nil, err
	}
	if opts.WithPosition {
		fields := append(as.Fields(), arrow.Field{Name: PosFieldName, Type: arrow.PrimitiveTypes.Int64,
			Metadata: arrow.NewMetadata([]string{arrowschema.FieldIDKey}, []string{fmt.Sprint(PosFieldID)})})
		as = arrow.NewSchema(fields, nil)
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = runtime.GOMAXPROCS(0)
	}
	rr := &RecordReader{ctx: ctx, r: r, opts: opts, schema: as, roots: roots, leaves: b.leaves, mem: mem, ahead: -1}
	if opts.Scratch {
		rr.lender = new(bodyLender)
		for _, l := range rr.leaves {
			l.lender = rr.lender
		}
	}
	rr.flat = make([]*flatReader, len(roots))
	rr.dict = dictionaryRoots(roots, opts.DictionaryFieldIDs)
	if rr.dict != nil {
		fields := as.Fields()
		for i, d := range rr.dict {
			if d {
				fields[i].Type = DictionaryString
			}
		}
		as = arrow.NewSchema(fields, nil)
		rr.schema = as
	}
	flat := 0
	for i, n := range roots {
		if n.kind == kindLeaf && !n.missing {
			rr.flat[i] = &flatReader{node: n, leaf: n.leaf}
			if rr.dict != nil && rr.dict[i] {
				rr.flat[i].dictOut = &dictOut{}
			}
			flat++
		} else {
			rr.chunked = append(rr.chunked, n.leaves...)
		}
	}
	for _, f := range rr.flat {
		if f != nil {
			f.limit = queueLimit(flat)
		}
	}
	return rr, nil
}

func hasAnyID(r *Reader) bool {
	for _, c := range r.file.Root().Columns() {
		if c.ID() != 0 {
			return true
		}
	}
	return len(r.file.Root().Columns()) == 0
}

// RowGroup is the index in the file of the row group the last record
// came from (a record never spans row groups); -1 before the first.
func (rr *RecordReader) RowGroup() int {
	if !rr.loaded {
		return -1
	}
	return rr.rgIndex
}

// Schema is the Arrow schema of the records.
func (rr *RecordReader) Schema() *arrow.Schema { return rr.schema }

// Next returns the next record batch (the caller releases it), or io.EOF
// after the last one.
func (rr *RecordReader) Next() (arrow.RecordBatch, error) {
	if rr.err != nil {
		return nil, rr.err
	}
	if rr.lender != nil {
		rr.lender.reclaim() // the caller is done with the last record
	}
	rec, err := rr.next()
	if err != nil {
		// The reader is done: no goroutine outlives it, even unclosed.
		rr.err = err
		rr.stopWorkers()
	}
	return rec, err
}

func (rr *RecordReader) next() (arrow.RecordBatch, error) {
	if err := rr.ctx.Err(); err != nil {
		return nil, err
	}
	for !rr.loaded || rr.rgNext >= rr.rgRows {
		if err := rr.loadNextRowGroup(); err != nil {
			return nil, err
		}
	}
	n, err := rr.pageAligned(int(min(int64(rr.opts.BatchSize), rr.rgRows-rr.rgNext)))
	if err != nil {
		return nil, err
	}
	ranges := make(map[*rleaf][2]int, len(rr.chunked))
	for _, l := range rr.chunked {
		e1, err := l.advanceRows(n)
		if err != nil {
			return nil, err
		}
		ranges[l] = [2]int{l.entry, e1}
	}
	bt := &batch{mem: rr.mem, ranges: ranges}
	cols := make([]arrow.Array, len(rr.roots), len(rr.roots)+1)
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	if err := rr.readFlat(cols, n); err != nil {
		return nil, err
	}
	for i, root := range rr.roots {
		if rr.flat[i] != nil {
			continue
		}
		a, err := bt.build(root, n)
		if err != nil {
			return nil, err
		}
		cols[i] = a
	}
	for i, d := range rr.dict {
		if d && cols[i].DataType().ID() != arrow.DICTIONARY {
			a := IdentityDictionary(rr.mem, cols[i])
			cols[i].Release()
			cols[i] = a
		}
	}
	if rr.opts.WithPosition {
		pb := array.NewInt64Builder(rr.mem)
		pb.Reserve(n)
		for i := range int64(n) {
			pb.UnsafeAppend(rr.rgFirst + rr.rgNext + i)
		}
		cols = append(cols, pb.NewArray())
		pb.Release()
	}
	for _, l := range rr.chunked {
		l.finishBatch(ranges[l][1])
	}
	rr.rgNext += int64(n)
	return array.NewRecordBatch(rr.schema, cols, int64(n)), nil
}

// pageAligned shortens a batch of n rows to end where the current page
// of a flat column ends, unless that leaves less than a quarter of it: a
// batch within one page of each column shares the pages' PLAIN values
// instead of copying them. (A writer's page row limit ends the pages of
// every column on the same rows, so batches then never straddle pages.)
func (rr *RecordReader) pageAligned(n int) (int, error) {
	if rr.opts.FullBatches {
		return n, nil
	}
	left := n
	for _, f := range rr.flat {
		if f == nil {
			continue
		}
		if err := f.ensurePage(); err != nil {
			return 0, err
		}
		left = min(left, f.leaf.chunk.n-f.pos)
	}
	if left < n/4 {
		return n, nil
	}
	return left, nil
}

// loadNextRowGroup decodes the projected chunks of the next row group that
// passes the filter; io.EOF when none is left. The flat columns of the
// passing row group after it start decoding at once, so row groups follow
// each other without a pipeline stall.
func (rr *RecordReader) loadNextRowGroup() error {
	groups := rr.r.file.RowGroups()
	i := rr.ahead
	if i < 0 {
		i = rr.findRowGroup()
	}
	rr.ahead = -1
	if i >= len(groups) {
		rr.stopWorkers()
		return io.EOF
	}
	g := groups[i]
	first := int64(0)
	for _, prev := range groups[:i] {
		first += prev.NumRows()
	}
	rr.r.fetchGroup(i, rr.columns(), true)
	chunks := g.ColumnChunks()
	// Flat columns check their pages as they decode them.
	var unchecked []*parquet.Column
	for _, l := range rr.chunked {
		unchecked = append(unchecked, l.col)
	}
	if err := rr.r.checkChunks(i, unchecked, rr.opts.Concurrency); err != nil {
		return err
	}
	for _, f := range rr.flat {
		if f == nil {
			continue
		}
		if err := f.open(chunkRef{r: rr.r, group: i, cc: chunks[f.leaf.col.Index()]}, g.NumRows()); err != nil {
			return err
		}
	}
	for _, l := range rr.chunked {
		if err := l.chunk.load(rr.r, chunks[l.col.Index()], byte(l.col.MaxDefinitionLevel()), byte(l.col.MaxRepetitionLevel())); err != nil {
			return err
		}
		rows := l.chunk.n
		if l.chunk.maxRep > 0 {
			rows = 0
			for _, r := range l.chunk.rep {
				if r == 0 {
					rows++
				}
			}
		}
		if int64(rows) != g.NumRows() {
			return corrupt("column %q has %d rows in a row group of %d", l.col.Name(), rows, g.NumRows())
		}
		l.entry, l.value = 0, 0
	}
	rr.rgRows, rr.rgFirst, rr.rgNext, rr.rgIndex, rr.loaded = g.NumRows(), first, 0, i, true
	if err := rr.prefetchRowGroup(); err != nil {
		return err
	}
	rr.serveQueues()
	return nil
}

// serveQueues points the decode workers (started on first use) at the
// flat columns' queues: the current row group's first.
func (rr *RecordReader) serveQueues() {
	workers := rr.opts.Concurrency - 1
	var current, next []*pageQueue
	for _, f := range rr.flat {
		if f != nil && f.q != nil {
			current = append(current, f.q)
		}
		if f != nil && f.ahead != nil {
			next = append(next, f.ahead)
		}
	}
	if workers <= 0 || len(current)+len(next) == 0 {
		return
	}
	if rr.pool == nil {
		rr.pool = newDecodePool(min(workers, len(current)+len(next)))
		for _, f := range rr.flat {
			if f != nil {
				f.pool = rr.pool
			}
		}
	}
	rr.pool.setQueues(current, next)
}

// stopWorkers ends the decode workers, if any.
func (rr *RecordReader) stopWorkers() {
	if rr.pool != nil {
		rr.pool.close()
		rr.pool = nil
		for _, f := range rr.flat {
			if f != nil {
				f.pool = nil
			}
		}
	}
}

// findRowGroup consumes row groups up to the next one that passes the
// filter and returns its index (len(groups) when none is left). The filter
// is asked once per row group.
func (rr *RecordReader) findRowGroup() int {
	groups := rr.r.file.RowGroups()
	for rr.rg < len(groups) {
		g := groups[rr.rg]
		rr.rg++
		keep := rr.opts.RowGroupFilter == nil || rr.opts.RowGroupFilter(rr.rowGroupStats(g))
		if keep && rr.r.InRange(rr.rg-1, rr.opts.RangeStart, rr.opts.RangeEnd) {
			return rr.rg - 1
		}
	}
	return len(groups)
}

// prefetchRowGroup finds the next row group to read and starts decoding
// its flat columns.
func (rr *RecordReader) prefetchRowGroup() error {
	groups := rr.r.file.RowGroups()
	rr.ahead = rr.findRowGroup()
	if rr.ahead >= len(groups) {
		return nil
	}
	g := groups[rr.ahead]
	rr.r.fetchGroup(rr.ahead, rr.columns(), false)
	chunks := g.ColumnChunks()
	for _, f := range rr.flat {
		if f == nil {
			continue
		}
		ref := chunkRef{r: rr.r, group: rr.ahead, cc: chunks[f.leaf.col.Index()]}
		if err := f.prefetchNext(ref, g.NumRows()); err != nil {
			return err
		}
	}
	return nil
}

// columns are the file's columns the reader reads.
func (rr *RecordReader) columns() []*parquet.Column {
	var out []*parquet.Column
	for _, f := range rr.flat {
		if f != nil {
			out = append(out, f.leaf.col)
		}
	}
	for _, l := range rr.chunked {
		out = append(out, l.col)
	}
	return out
}

// advanceRows returns the end entry of the next n rows.
func (l *rleaf) advanceRows(n int) (int, error) {
	c := &l.chunk
	if c.maxRep == 0 {
		if l.entry+n > c.n {
			return 0, corrupt("column %q ran out of values", l.col.Name())
		}
		return l.entry + n, nil
	}
	e := l.entry
	for rows := 0; e < c.n; e++ {
		if c.rep[e] == 0 {
			if rows == n {
				break
			}
			rows++
		}
	}
	return e, nil
}

// finishBatch moves the cursor past the batch's entries.
func (l *rleaf) finishBatch(end int) {
	c := &l.chunk
	if c.maxDef == 0 {
		l.value += end - l.entry
	} else {
		for _, d := range c.def[l.entry:end] {
			if d == c.maxDef {
				l.value++
			}
		}
	}
	l.entry = end
}

// Close releases the reader's buffers; Next then fails with
// ErrReaderClosed.
func (rr *RecordReader) Close() error {
	rr.stopWorkers()
	for _, f := range rr.flat {
		if f != nil {
			f.close()
		}
	}
	if rr.lender != nil {
		rr.lender.drop() // the last record may still be in use
	}
	for _, l := range rr.leaves {
		l.chunk = chunkData{}
	}
	if rr.err == nil {
		rr.err = ErrReaderClosed
	}
	return nil
}

// readFlat fills cols for the streaming roots on the calling goroutine:
// the decode workers do the heavy part (decompression) ahead of it, and
// assembling in place avoids a goroutine handoff per column and batch,
// which on a busy machine costs more than the copying it would spread.
func (rr *RecordReader) readFlat(cols []arrow.Array, n int) error {
	for i, f := range rr.flat {
		if f == nil {
			continue
		}
		a, err := f.read(rr.mem, n)
		if err != nil {
			return err
		}
		cols[i] = a
	}
	return nil
}

// ReadAll reads every remaining batch into one table-like slice of records.
func (rr *RecordReader) ReadAll() ([]arrow.RecordBatch, error) {
	var out []arrow.RecordBatch
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			for _, r := range out {
				r.Release()
			}
			return nil, err
		}
		out = append(out, rec)
	}
}
