// Package datafile turns Arrow record batches into partitioned Iceberg data
// files and position delete files, and reads a scan task's data file back
// as Arrow records with its delete files applied.
package datafile

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/fileio"
)

// rollCheckRows bounds how many rows go into a file between two checks of
// its size against the target.
const rollCheckRows = 16384

// Writer writes record batches in the table's current schema to data files
// of the current partition spec, keeping one open file per partition seen
// (fanout) and rolling each at the target file size. It is not safe for
// concurrent use.
type Writer struct {
	fio    fileio.FileIO
	schema *iceberg.Schema
	spec   *iceberg.PartitionSpec
	arrow  *arrow.Schema
	sortID int
	opts   resolved
	part   *partitioner

	parts    map[string]*partitionFiles
	done     []iceberg.DataFile
	finished []string // locations of closed files, for Abort
	err      error    // sticky: set by a failed I/O, Close or Abort
}

// partitionFiles is the state of one partition: its tuple, its directory
// and the file currently open for it.
type partitionFiles struct {
	tuple []any
	path  string
	cur   *openFile
}

// NewWriter prepares a writer; nothing is created on disk before the first
// row. Problems with the table's properties or spec are reported by the
// first Write or Close.
func NewWriter(ctx context.Context, fio fileio.FileIO, meta *iceberg.TableMetadata, opts WriterOptions) *Writer {
	w := &Writer{fio: fio, schema: meta.CurrentSchema(), spec: meta.CurrentSpec(), parts: map[string]*partitionFiles{}}
	if opts.SortOrderID != nil {
		w.sortID = *opts.SortOrderID
	}
	if w.schema == nil || w.spec == nil {
		w.err = fmt.Errorf("%w: table has no current schema or spec", iceberg.ErrInvalidMetadata)
		return w
	}
	var err error
	if w.opts, err = resolveOptions(meta, opts, ""); err != nil {
		w.err = err
		return w
	}
	if w.arrow, err = arrowschema.ToArrow(w.schema); err != nil {
		w.err = err
		return w
	}
	if w.part, err = newPartitioner(w.schema, w.spec); err != nil {
		w.err = err
	}
	return w
}

// Write appends rec, whose columns correspond by position to the table
// schema's top-level fields. A batch with wrong types or a null in a
// required column fails with an *arrowschema.ColumnError (wrapping
// iceberg.ErrTypeMismatch or iceberg.ErrNotNullViolation) before anything
// of it is written, and the writer stays usable. An I/O failure aborts the
// writer: every file it wrote is removed.
func (w *Writer) Write(ctx context.Context, rec arrow.RecordBatch) error {
	if w.err != nil {
		return w.err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if rec.NumRows() == 0 {
		return nil
	}
	cast, err := arrowschema.CastRecord(ctx, rec, w.arrow)
	if err != nil {
		return err
	}
	defer cast.Release()
	pieces, err := w.split(ctx, cast)
	if err != nil {
		return err
	}
	defer func() {
		for _, p := range pieces {
			p.rec.Release()
		}
	}()
	for _, p := range pieces {
		if err := w.writeTo(ctx, p.part, p.rec); err != nil {
			w.fail(ctx, err)
			return w.err
		}
	}
	return nil
}

type piece struct {
	part *partitionFiles
	rec  arrow.RecordBatch
}

// split cuts a cast batch into one record per partition.
func (w *Writer) split(ctx context.Context, rec arrow.RecordBatch) ([]piece, error) {
	if len(w.spec.Fields) == 0 {
		p, err := w.partition(nil)
		if err != nil {
			return nil, err
		}
		rec.Retain()
		return []piece{{p, rec}}, nil
	}
	groups, err := w.part.group(rec)
	if err != nil {
		return nil, err
	}
	// Map groups to partitions (several groups may share one).
	local := map[*partitionFiles]int{}
	var parts []*partitionFiles
	groupPart := make([]int, len(groups.rep))
	for g, row := range groups.rep {
		tuple, err := w.part.tuple(rec, row)
		if err != nil {
			return nil, err
		}
		p, err := w.partition(tuple)
		if err != nil {
			return nil, err
		}
		idx, ok := local[p]
		if !ok {
			idx = len(parts)
			local[p] = idx
			parts = append(parts, p)
		}
		groupPart[g] = idx
	}
	if len(parts) == 1 {
		rec.Retain()
		return []piece{{parts[0], rec}}, nil
	}
	// One gather puts the rows in partition order (a counting sort of row
	// numbers); each partition's piece is then a zero-copy slice. One Take
	// per batch rather than one per partition matters with many partitions.
	counts := make([]int, len(parts)+1)
	for _, g := range groups.group {
		counts[groupPart[g]+1]++
	}
	for k := 1; k < len(counts); k++ {
		counts[k] += counts[k-1]
	}
	perm := make([]int32, len(groups.group))
	next := slices.Clone(counts[:len(parts)])
	for i, g := range groups.group {
		k := groupPart[g]
		perm[next[k]] = int32(i)
		next[k]++
	}
	taken, err := TakeRows(ctx, rec, perm)
	if err != nil {
		return nil, err
	}
	defer taken.Release()
	out := make([]piece, 0, len(parts))
	for k := range parts {
		out = append(out, piece{parts[k], taken.NewSlice(int64(counts[k]), int64(counts[k+1]))})
	}
	return out, nil
}

// partition finds or starts the state of a partition tuple.
func (w *Writer) partition(tuple []any) (*partitionFiles, error) {
	key := partitionKey(tuple)
	if p, ok := w.parts[key]; ok {
		return p, nil
	}
	path := ""
	if len(w.spec.Fields) > 0 {
		var err error
		if path, err = w.spec.PartitionPath(tuple, w.schema); err != nil {
			return nil, err
		}
	}
	p := &partitionFiles{tuple: tuple, path: path}
	w.parts[key] = p
	return p, nil
}

// writeTo appends rec to the partition's open file, rolling at the target
// size.
func (w *Writer) writeTo(ctx context.Context, p *partitionFiles, rec arrow.RecordBatch) error {
	n := rec.NumRows()
	for from := int64(0); from < n; from += rollCheckRows {
		to := min(from+rollCheckRows, n)
		chunk := rec
		if from > 0 || to < n {
			chunk = rec.NewSlice(from, to)
		}
		if p.cur == nil {
			f, err := createFile(ctx, w.fio, w.opts.namer.next(p.path), w.schema, w.opts.parquet)
			if err != nil {
				return err
			}
			p.cur = f
		}
		err := p.cur.write(chunk)
		if chunk != rec {
			chunk.Release()
		}
		if err != nil {
			return err
		}
		if p.cur.pw.EstimatedSize() >= w.opts.target {
			if err := w.closeFile(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// closeFile finishes the partition's open file and records its DataFile.
func (w *Writer) closeFile(p *partitionFiles) error {
	f := p.cur
	p.cur = nil
	m, err := f.finish()
	if err != nil {
		_ = f.abort()
		return err
	}
	w.finished = append(w.finished, f.out.Location())
	sortID := w.sortID
	df := iceberg.DataFile{
		Content:     iceberg.ContentData,
		FilePath:    f.out.Location(),
		SpecID:      w.spec.ID,
		Partition:   slices.Clone(p.tuple),
		SortOrderID: &sortID,
	}
	m.Apply(&df)
	if df.Partition == nil {
		df.Partition = []any{}
	}
	w.done = append(w.done, df)
	return nil
}

// Close finishes every open file and returns the DataFiles written, in the
// order they were finished. On failure every file is removed.
func (w *Writer) Close(ctx context.Context) ([]iceberg.DataFile, error) {
	if w.err != nil {
		return nil, w.err
	}
	for _, p := range w.sortedParts() {
		if p.cur == nil {
			continue
		}
		if err := w.closeFile(p); err != nil {
			w.fail(ctx, err)
			return nil, w.err
		}
	}
	w.err = ErrWriterClosed
	return w.done, nil
}

// sortedParts orders partitions by path so Close is deterministic.
func (w *Writer) sortedParts() []*partitionFiles {
	out := make([]*partitionFiles, 0, len(w.parts))
	for _, p := range w.parts {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *partitionFiles) int { return strings.Compare(a.path, b.path) })
	return out
}

// Abort removes every file written so far, finished or not. The writer
// cannot be used afterwards.
func (w *Writer) Abort(ctx context.Context) error {
	var errs []error
	for _, p := range w.parts {
		if p.cur != nil {
			errs = append(errs, p.cur.abort())
			p.cur = nil
		}
	}
	errs = append(errs, removeAll(ctx, w.fio, w.finished))
	w.finished, w.done = nil, nil
	if w.err == nil {
		w.err = ErrWriterClosed
	}
	return errors.Join(errs...)
}

// fail aborts the writer after err, keeping err as the sticky error.
func (w *Writer) fail(ctx context.Context, err error) {
	if aerr := w.Abort(ctx); aerr != nil {
		err = errors.Join(err, aerr)
	}
	w.err = err
}

// partitionKey identifies a partition tuple within one spec.
func partitionKey(tuple []any) string {
	var b strings.Builder
	for _, v := range tuple {
		switch x := v.(type) {
		case nil:
			b.WriteString("|n")
		case []byte:
			fmt.Fprintf(&b, "|b:%x", x)
		case string:
			fmt.Fprintf(&b, "|s:%q", x)
		case iceberg.Decimal:
			fmt.Fprintf(&b, "|d:%s", x)
		default:
			fmt.Fprintf(&b, "|%T:%v", x, x)
		}
	}
	return b.String()
}
