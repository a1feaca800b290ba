package datafile

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// Reads of a data file on remote storage fetch the column chunks of the
// row group being read and of the next one whole: a few requests at a
// time, and no more bytes held per file than the budget (row groups of
// Iceberg's default 128 MiB target are fetched in part, the rest read as
// it is decoded).
const (
	remoteFetchesInFlight = 4
	remoteFetchBudget     = 64 << 20
)

// taskIterator reads one data file. Columns needed only by equality
// deletes or the residual are read by a second reader over the same file
// (aux), whose batches line up with the main reader's because both use the
// same batch size and skip the same row groups.
type taskIterator struct {
	path         string
	constants    map[int]any // identity partition values, for columns missing from the file
	expectedIDs  []int       // field ids the manifest has metrics for
	expectedRows int64       // the manifest's record_count
	fileSize     int64       // the manifest's file_size_in_bytes
	outPositions bool
	needPos      bool
	// rangeStart, rangeEnd: the task's split of the file (rangeEnd 0:
	// the whole file)
	rangeStart, rangeEnd int64

	deleted  []int64 // sorted positions deleted in this file
	cursor   int     // into deleted; file positions only grow
	eqSets   []*eqDeleteSet
	residual *expr.Evaluator
	// residualExpr is evaluated column-wise when every predicate allows.
	residualExpr expr.BoundExpr

	residualIDs []int
	// wholeGroups marks the row groups whose statistics prove that every
	// row matches the residual: it is not evaluated on their rows (nil:
	// none is known to).
	wholeGroups []bool
	keyIDs      []int // equality and residual field ids
	projection  *iceberg.Schema
	auxSchema   *iceberg.Schema

	in        fileio.InputFile
	pr        *parquetfile.Reader
	main, aux *parquetfile.RecordReader
	out       *arrow.Schema
	cols      map[int]colRef
	buf       []byte
	closed    bool
}

// open opens the file. Equality delete columns are resolved in table
// (the current schema), residual ones in read, the schema the residual is
// bound to; field ids are never reused, so an id means one column in both.
func (it *taskIterator) open(ctx context.Context, fio fileio.FileIO, table, read, projection *iceberg.Schema, mapping parquetfile.NameMapping, opts ReadOptions) error {
	it.projection = projection
	it.needPos = it.outPositions || len(it.deleted) > 0
	it.cols = map[int]colRef{}
	seen := map[int]bool{}
	var extra []int
	add := func(id int, in *iceberg.Schema) {
		if seen[id] {
			return
		}
		seen[id] = true
		it.keyIDs = append(it.keyIDs, id)
		if _, ok := projection.FindFieldByID(id); ok {
			return
		}
		if _, ok := in.FindFieldByID(id); ok {
			extra = append(extra, id)
		}
	}
	for _, s := range it.eqSets {
		for _, id := range s.ids {
			add(id, table)
		}
	}
	for _, id := range it.residualIDs {
		add(id, read)
	}
	pr, in, err := openCached(ctx, fio, opts.Files, it.path, it.fileSize, opts.Stats)
	if err != nil {
		return &FileError{Op: "read", Path: it.path, Err: err}
	}
	it.in = in // nil for a file held in memory by the cache
	if r, ok := in.(fileio.RemoteReads); ok && r.RemoteReads() {
		pr.FetchAhead(remoteFetchesInFlight, remoteFetchBudget, in.Size())
		it.pr = pr
	}
	if opts.SkipPageChecksums {
		pr.SkipChecksums()
	}
	var keepGroups []bool
	if it.residualExpr != nil {
		if keepGroups, it.wholeGroups, err = rowGroupsMatching(ctx, pr, read, it.residualExpr, it.residualIDs, mapping); err != nil {
			return &FileError{Op: "read", Path: it.path, Err: err}
		}
	}
	if st := opts.Stats; st != nil {
		if it.rangeStart == 0 { // a file split in parts counts once
			st.Files.Add(1)
		}
		for g := range pr.NumRowGroups() {
			if !pr.InRange(g, it.rangeStart, it.rangeEnd) {
				continue
			}
			st.RowGroups.Add(1)
			if keepGroups != nil && !keepGroups[g] {
				st.RowGroupsSkipped.Add(1)
			} else if it.wholeGroups != nil && it.wholeGroups[g] {
				st.RowGroupsWhole.Add(1)
			}
		}
	}
	ro := parquetfile.ReadOptions{BatchSize: opts.BatchSize, NameMapping: mapping, WithPosition: it.needPos, RowGroupFilter: replayFilter(keepGroups), Constants: it.constants,
		ExpectedFieldIDs: it.expectedIDs, ExpectedRows: it.expectedRows, RangeStart: it.rangeStart, RangeEnd: it.rangeEnd,
		DictionaryFieldIDs: dictionaryIDs(opts.DictionaryFieldIDs, it.keyIDs)}
	probe := it.newProbe(ctx, pr, read, projection, ro, keepGroups, opts.Stats)
	if probe != nil {
		ro.RowGroupFilter = probe.filter()
	}
	// The auxiliary reader's records must hold the main reader's rows:
	// neither may end them where its own columns' pages end.
	ro.FullBatches = len(extra) > 0
	if it.main, err = pr.NewRecordReader(ctx, projection, ro); err != nil {
		return &FileError{Op: "read", Path: it.path, Err: err}
	}
	if len(extra) > 0 {
		if it.auxSchema, err = selectAcross(read, table, extra); err != nil {
			return err
		}
		ro.WithPosition = false
		ro.DictionaryFieldIDs = nil
		// Its columns only feed filterRows, which is done with a record
		// before asking for the next: their pages' memory is reused.
		ro.Scratch = true
		ro.RowGroupFilter = replayFilter(keepGroups)
		if probe != nil {
			ro.RowGroupFilter = probe.filter()
		}
		if it.aux, err = pr.NewRecordReader(ctx, it.auxSchema, ro); err != nil {
			return &FileError{Op: "read", Path: it.path, Err: err}
		}
	}
	it.out = it.main.Schema()
	if it.needPos && !it.outPositions {
		fields := it.out.Fields()
		it.out = arrow.NewSchema(fields[:len(fields)-1], nil)
	}
	return nil
}

// newProbe is the task's groupProbe, or nil when probing cannot save
// work: no residual, or nothing projected beyond its columns.
func (it *taskIterator) newProbe(ctx context.Context, pr *parquetfile.Reader, table, projection *iceberg.Schema, ro parquetfile.ReadOptions, keep []bool, stats *ReadStats) *groupProbe {
	if it.residualExpr == nil || len(it.residualIDs) == 0 || pr.NumRowGroups() < 2 {
		return nil
	}
	residual := map[int]bool{}
	for _, id := range it.residualIDs {
		if _, ok := table.FindFieldByID(id); !ok {
			return nil // bound to another schema: the row evaluator's
		}
		residual[id] = true
	}
	more := it.needPos
	for _, f := range projection.Fields() {
		more = more || !residual[f.ID]
	}
	if !more {
		return nil
	}
	// Probing a group that matches decodes its filter columns twice: worth
	// it only where many groups are left to skip.
	left := 0
	for g := range pr.NumRowGroups() {
		if pr.InRange(g, it.rangeStart, it.rangeEnd) && (keep == nil || keep[g]) && (it.wholeGroups == nil || !it.wholeGroups[g]) {
			left++
		}
	}
	if left < probeMinGroups {
		return nil
	}
	schema, err := table.Select(it.residualIDs...)
	if err != nil {
		return nil
	}
	return &groupProbe{ctx: ctx, pr: pr, schema: schema, ids: it.residualIDs, residual: it.residualExpr, opts: ro, stats: stats,
		keep: keep, whole: it.wholeGroups, start: it.rangeStart, end: it.rangeEnd}
}

// Next returns the next non-empty record after deletes and the residual.
func (it *taskIterator) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if it.closed {
		return nil, ErrIteratorClosed
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec, err := it.main.Next()
		if err != nil {
			if err != eof {
				err = &FileError{Op: "read", Path: it.path, Err: err}
			}
			return nil, err
		}
		out, err := it.filter(ctx, rec)
		rec.Release()
		if err != nil {
			return nil, err
		}
		if out != nil {
			return out, nil
		}
	}
}

// filter applies deletes and the residual to one batch; nil when no row
// survives.
func (it *taskIterator) filter(ctx context.Context, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(rec.NumRows())
	whole := it.wholeGroup()
	if len(it.deleted) == 0 && (len(it.keyIDs) == 0 || whole && len(it.eqSets) == 0 && it.aux == nil) {
		if n == 0 {
			return nil, nil
		}
		if int(rec.NumCols()) == it.out.NumFields() {
			rec.Retain()
			return rec, nil
		}
		return array.NewRecordBatch(it.out, rec.Columns()[:it.out.NumFields()], int64(n)), nil
	}
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	if len(it.deleted) > 0 {
		pos := rec.Column(int(rec.NumCols()) - 1).(*array.Int64)
		for i := 0; i < n; i++ {
			p := pos.Value(i)
			for it.cursor < len(it.deleted) && it.deleted[it.cursor] < p {
				it.cursor++
			}
			if it.cursor < len(it.deleted) && it.deleted[it.cursor] == p {
				keep[i] = false
			}
		}
	}
	if len(it.keyIDs) > 0 {
		if err := it.filterRows(rec, keep, whole); err != nil {
			return nil, err
		}
	}
	var idx []int32
	for i, k := range keep {
		if k {
			idx = append(idx, int32(i))
		}
	}
	if len(idx) == 0 {
		return nil, nil
	}
	cols := rec.Columns()
	if len(cols) > it.out.NumFields() {
		cols = cols[:it.out.NumFields()]
	}
	base := array.NewRecordBatch(it.out, cols, int64(n))
	if len(idx) == n {
		return base, nil
	}
	defer base.Release()
	return TakeRows(ctx, base, idx)
}

// wholeGroup reports whether every row of the main reader's current row
// group matches the residual.
func (it *taskIterator) wholeGroup() bool {
	g := it.main.RowGroup()
	return g >= 0 && g < len(it.wholeGroups) && it.wholeGroups[g]
}

// filterRows drops rows matching an equality delete or, unless whole
// (the row group matches it throughout), failing the residual.
func (it *taskIterator) filterRows(rec arrow.RecordBatch, keep []bool, whole bool) error {
	clear(it.cols)
	if err := resolveColumns(rec, it.projection, it.keyIDs, it.cols); err != nil {
		return err
	}
	if it.aux != nil {
		aux, err := it.aux.Next()
		if err != nil {
			return &FileError{Op: "read", Path: it.path, Err: err}
		}
		defer aux.Release()
		if aux.NumRows() != rec.NumRows() {
			return &FileError{Op: "read", Path: it.path, Err: fmt.Errorf("internal error: column readers out of step (%d and %d rows)", rec.NumRows(), aux.NumRows())}
		}
		if err := resolveColumns(aux, it.auxSchema, it.keyIDs, it.cols); err != nil {
			return err
		}
	}
	rowResidual := it.residual
	if whole {
		rowResidual = nil
	} else if it.residual != nil {
		if mask, ok := evalVector(it.residualExpr, it.cols, len(keep)); ok {
			for i, m := range mask {
				keep[i] = keep[i] && m
			}
			rowResidual = nil
		}
	}
	var rowErr error
	row := 0
	access := func(id int) any {
		c, ok := it.cols[id]
		if !ok {
			return nil
		}
		v, err := c.value(row)
		if err != nil && rowErr == nil {
			rowErr = err
		}
		return v
	}
	for i := range keep {
		if !keep[i] {
			continue
		}
		for _, s := range it.eqSets {
			hit, buf, err := s.contains(it.cols, i, it.buf)
			it.buf = buf
			if err != nil {
				return err
			}
			if hit {
				keep[i] = false
				break
			}
		}
		if keep[i] && rowResidual != nil {
			row = i
			keep[i] = rowResidual.Eval(access)
			if rowErr != nil {
				return rowErr
			}
		}
	}
	return nil
}

// Close releases the readers and the file.
func (it *taskIterator) Close() {
	if it.closed {
		return
	}
	it.closed = true
	if it.main != nil {
		_ = it.main.Close()
	}
	if it.aux != nil {
		_ = it.aux.Close()
	}
	if it.pr != nil {
		it.pr.StopFetching()
	}
	if it.in != nil {
		_ = it.in.Close()
	}
}

// replayFilter is a row group filter returning the decisions in keep, one
// call per row group in file order; nil keeps every group.
func replayFilter(keep []bool) func(map[int]parquetfile.ColumnStats) bool {
	if keep == nil {
		return nil
	}
	next := 0
	return func(map[int]parquetfile.ColumnStats) bool {
		ok := next >= len(keep) || keep[next]
		next++
		return ok
	}
}

// dictionaryIDs are the fields of ids to read as dictionaries: those
// equality deletes and the residual do not read, which expect strings.
func dictionaryIDs(ids, keyIDs []int) []int {
	var out []int
	for _, id := range ids {
		if !slices.Contains(keyIDs, id) {
			out = append(out, id)
		}
	}
	return out
}

// selectAcross selects the fields ids from read, or from table for ids
// read lacks (equality delete columns added after a time-travel read's
// schema). Their top-level fields must not overlap: a struct holding ids
// from both schemas cannot be read as one column.
func selectAcross(read, table *iceberg.Schema, ids []int) (*iceberg.Schema, error) {
	var inRead, inTable []int
	for _, id := range ids {
		if _, ok := read.FindFieldByID(id); ok {
			inRead = append(inRead, id)
		} else {
			inTable = append(inTable, id)
		}
	}
	if len(inTable) == 0 {
		return read.Select(inRead...)
	}
	if len(inRead) == 0 {
		return table.Select(inTable...)
	}
	a, err := read.Select(inRead...)
	if err != nil {
		return nil, err
	}
	b, err := table.Select(inTable...)
	if err != nil {
		return nil, err
	}
	fields := a.Fields()
	for _, f := range b.Fields() {
		if _, ok := a.FindFieldByID(f.ID); ok {
			return nil, fmt.Errorf("datafile: column %q would be read both as of the query's schema and the current one: %w", f.Name, iceberg.ErrUnsupported)
		}
		fields = append(fields, f)
	}
	return iceberg.NewSchema(0, fields)
}
