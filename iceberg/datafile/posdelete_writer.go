package datafile

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// posDeleteBatchRows is the rows per Arrow batch handed to the Parquet writer.
const posDeleteBatchRows = 64 << 10

// PositionDeleteOptions configure a PositionDeleteWriter.
type PositionDeleteOptions struct {
	WriterOptions
	// PerPartition writes one delete file per partition instead of one per
	// data file.
	PerPartition bool
}

// PositionDeleteWriter collects (data file, positions) pairs and writes
// position delete files (file_path, pos; sorted by path then position) at
// Close: one per data file, or one per partition. Positions are held in
// memory (8 bytes each) until Close. Not safe for concurrent use.
type PositionDeleteWriter struct {
	fio     fileio.FileIO
	meta    *iceberg.TableMetadata
	opts    resolved
	per     bool
	codec   string
	pending pendingSet
	done    []iceberg.DataFile
	err     error
}

// NewPositionDeleteWriter prepares a writer; problems with the table's
// properties are reported by the first Delete or Close.
func NewPositionDeleteWriter(ctx context.Context, fio fileio.FileIO, meta *iceberg.TableMetadata, opts PositionDeleteOptions) *PositionDeleteWriter {
	w := &PositionDeleteWriter{fio: fio, meta: meta, per: opts.PerPartition, pending: newPendingSet()}
	if v := meta.FormatVersion(); v != 2 {
		// v1 has no delete files; v3 replaces them with deletion vectors.
		w.err = fmt.Errorf("%w: position delete files in a format version %d table", iceberg.ErrUnsupported, v)
		return w
	}
	var err error
	if w.opts, err = resolveOptions(meta, opts.WriterOptions, "-deletes"); err != nil {
		w.err = err
		return w
	}
	w.codec = w.opts.parquet.Compression
	if _, err := arrowCodec(w.codec); err != nil {
		w.err = err
	}
	return w
}

// Delete records the deleted row positions of a data file; positions must
// be non-negative and strictly increasing. Several calls for one file are
// merged.
func (w *PositionDeleteWriter) Delete(ctx context.Context, file iceberg.DataFile, positions []int64) error {
	if w.err != nil {
		return w.err
	}
	pd, err := w.pending.target(ctx, file, positions)
	if pd == nil {
		return err
	}
	if n := len(pd.positions); n > 0 && positions[0] <= pd.positions[n-1] {
		pd.sorted = false
	}
	pd.positions = append(pd.positions, positions...)
	return nil
}

// Close writes the delete files and returns them. On failure every file is
// removed.
func (w *PositionDeleteWriter) Close(ctx context.Context) ([]iceberg.DataFile, error) {
	if w.err != nil {
		return nil, w.err
	}
	for _, group := range w.groups() {
		if err := w.writeGroup(ctx, group); err != nil {
			w.err = errors.Join(err, w.Abort(ctx))
			return nil, w.err
		}
	}
	w.err = ErrWriterClosed
	return w.done, nil
}

// groups orders the pending files by path and cuts them into delete files.
func (w *PositionDeleteWriter) groups() [][]*pendingDeletes {
	paths := w.pending.sortedPaths()
	var out [][]*pendingDeletes
	index := map[string]int{}
	for _, p := range paths {
		pd := w.pending.byPath[p]
		if !pd.sorted {
			slices.Sort(pd.positions)
			pd.positions = slices.Compact(pd.positions)
		}
		if !w.per {
			out = append(out, []*pendingDeletes{pd})
			continue
		}
		key := fmt.Sprintf("%d%s", pd.file.SpecID, partitionKey(pd.file.Partition))
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], pd)
	}
	return out
}

// writeGroup writes the deletes of data files sharing one partition.
func (w *PositionDeleteWriter) writeGroup(ctx context.Context, group []*pendingDeletes) error {
	first := group[0].file
	path, err := w.partitionPath(first)
	if err != nil {
		return err
	}
	codec, _ := arrowCodec(w.codec)
	loc := w.opts.namer.next(path)
	out, err := fileio.CreateForCommit(ctx, w.fio, loc)
	if err != nil {
		return &FileError{Op: "create", Path: loc, Err: err}
	}
	fail := func(err error) error {
		_ = out.Abort()
		return &FileError{Op: "write", Path: loc, Err: err}
	}
	fw, err := pqarrow.NewFileWriter(posDeleteArrowSchema, out, posDeleteWriterProps(codec), pqarrow.DefaultWriterProps())
	if err != nil {
		return fail(err)
	}
	var rows int64
	pb := array.NewStringBuilder(memory.DefaultAllocator)
	ob := array.NewInt64Builder(memory.DefaultAllocator)
	defer pb.Release()
	defer ob.Release()
	flush := func() error {
		if ob.Len() == 0 {
			return nil
		}
		pa, oa := pb.NewArray(), ob.NewArray()
		rec := array.NewRecordBatch(posDeleteArrowSchema, []arrow.Array{pa, oa}, int64(oa.Len()))
		pa.Release()
		oa.Release()
		defer rec.Release()
		return fw.WriteBuffered(rec)
	}
	for _, pd := range group {
		for _, pos := range pd.positions {
			pb.Append(pd.file.FilePath)
			ob.Append(pos)
			rows++
			if ob.Len() >= posDeleteBatchRows {
				if err := flush(); err != nil {
					return fail(err)
				}
			}
		}
	}
	if err := flush(); err != nil {
		return fail(err)
	}
	if err := fw.Close(); err != nil {
		return fail(err)
	}
	md, err := fw.FileMetadata()
	if err != nil {
		return fail(err)
	}
	if err := out.Close(); err != nil {
		return fail(err)
	}
	df := iceberg.DataFile{
		Content:         iceberg.ContentPositionDeletes,
		FilePath:        loc,
		FileFormat:      iceberg.FormatParquet,
		SpecID:          first.SpecID,
		Partition:       first.Partition,
		RecordCount:     rows,
		FileSizeInBytes: out.Written(),
	}
	if len(group) == 1 {
		ref := first.FilePath
		df.ReferencedDataFile = &ref
	}
	if err := posDeleteMetrics(&df, md, group); err != nil {
		return fail(err)
	}
	w.done = append(w.done, df)
	return nil
}

// partitionPath renders the data file's partition under its own spec.
func (w *PositionDeleteWriter) partitionPath(f iceberg.DataFile) (string, error) {
	spec, ok := w.meta.SpecByID(f.SpecID)
	if !ok {
		return "", fmt.Errorf("%w: data file %s has unknown spec id %d", iceberg.ErrInvalidPartitionSpec, f.FilePath, f.SpecID)
	}
	if len(spec.Fields) == 0 {
		return "", nil
	}
	var firstErr error
	// The spec's source columns may only exist in an older schema.
	schemas := append([]*iceberg.Schema{w.meta.CurrentSchema()}, w.meta.Schemas()...)
	for _, s := range schemas {
		p, err := spec.PartitionPath(f.Partition, s)
		if err == nil {
			return p, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return "", firstErr
}

// Abort removes every delete file written so far.
func (w *PositionDeleteWriter) Abort(ctx context.Context) error {
	locs := make([]string, 0, len(w.done))
	for _, f := range w.done {
		locs = append(locs, f.FilePath)
	}
	w.done = nil
	if w.err == nil {
		w.err = ErrWriterClosed
	}
	return removeAll(ctx, w.fio, locs)
}
