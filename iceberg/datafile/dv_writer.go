package datafile

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/dv"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/puffin"
)

// createdBy is the Puffin created-by property of written deletion vectors.
const createdBy = "icesql"

// DVWriter collects the deleted positions of data files and writes, at
// Close, one Puffin file holding one deletion vector per data file (format
// v3 merge-on-read, as Java's BaseDVFileWriter). It does not merge a data
// file's existing deletes: the caller passes them in (see PreviousDeletes)
// and removes the rewritten delete files in the same commit. Not safe for
// concurrent use.
type DVWriter struct {
	fio     fileio.FileIO
	opts    resolved
	pending pendingSet
	done    []iceberg.DataFile
	loc     string // the Puffin file, once created
	err     error
}

// NewDVWriter prepares a writer for a format v3 (or later) table; problems
// are reported by the first Delete or Close.
func NewDVWriter(ctx context.Context, fio fileio.FileIO, meta *iceberg.TableMetadata, opts WriterOptions) *DVWriter {
	w := &DVWriter{fio: fio, pending: newPendingSet()}
	if v := meta.FormatVersion(); v < 3 {
		w.err = fmt.Errorf("%w: deletion vectors in a format version %d table", iceberg.ErrUnsupported, v)
		return w
	}
	w.opts, w.err = resolveOptions(meta, opts, "-deletes")
	return w
}

// Delete records deleted row positions of a data file; positions must be
// non-negative, strictly increasing and below the file's row count.
// Several calls for one file are merged.
func (w *DVWriter) Delete(ctx context.Context, file iceberg.DataFile, positions []int64) error {
	if w.err != nil {
		return w.err
	}
	pd, err := w.pending.target(ctx, file, positions)
	if pd == nil {
		return err
	}
	pd.positions = dv.Union(pd.positions, positions)
	return nil
}

// Close writes the Puffin file (none when nothing was deleted) and returns
// one delete file entry per data file: content position deletes, format
// PUFFIN, the data file's spec and partition, its referenced data file,
// the blob's content offset and size, and the cardinality as record count.
func (w *DVWriter) Close(ctx context.Context) ([]iceberg.DataFile, error) {
	if w.err != nil {
		return nil, w.err
	}
	if len(w.pending.order) == 0 {
		w.err = ErrWriterClosed
		return nil, nil
	}
	if err := w.write(ctx); err != nil {
		w.err = errors.Join(err, w.Abort(ctx))
		return nil, w.err
	}
	w.err = ErrWriterClosed
	return w.done, nil
}

func (w *DVWriter) write(ctx context.Context) error {
	w.opts.namer.count++
	n := w.opts.namer
	loc := fmt.Sprintf("%s/%05d-%d-%s-%05d%s.puffin", n.dir, n.partitionID, n.taskID, n.operationID, n.count, n.suffix)
	out, err := fileio.CreateForCommit(ctx, w.fio, loc)
	if err != nil {
		return &FileError{Op: "create", Path: loc, Err: err}
	}
	w.loc = loc
	fail := func(err error) error {
		_ = out.Abort()
		w.loc = ""
		return &FileError{Op: "write", Path: loc, Err: err}
	}
	pw := puffin.NewWriter(out, map[string]string{puffin.PropCreatedBy: createdBy})
	paths := w.pending.sortedPaths()
	var entries []iceberg.DataFile
	for _, p := range paths {
		pd := w.pending.byPath[p]
		blob, err := dv.EncodeBlob(pd.positions)
		if err != nil {
			return fail(err)
		}
		card := int64(len(pd.positions))
		bm, err := pw.AddBlob(puffin.BlobMetadata{
			Type: dv.BlobType, Fields: []int32{dv.RowPositionFieldID}, SnapshotID: -1, SequenceNumber: -1,
			Properties: map[string]string{dv.PropReferencedDataFile: p, dv.PropCardinality: strconv.FormatInt(card, 10)},
		}, blob)
		if err != nil {
			return fail(err)
		}
		ref, off, size := p, bm.Offset, bm.Length
		entries = append(entries, iceberg.DataFile{
			Content: iceberg.ContentPositionDeletes, FilePath: loc, FileFormat: iceberg.FormatPuffin,
			SpecID: pd.file.SpecID, Partition: pd.file.Partition, RecordCount: card,
			ReferencedDataFile: &ref, ContentOffset: &off, ContentSizeInBytes: &size,
		})
	}
	total, err := pw.Finish()
	if err != nil {
		return fail(err)
	}
	if err := out.Close(); err != nil {
		return fail(err)
	}
	for i := range entries {
		entries[i].FileSizeInBytes = total
	}
	w.done = entries
	return nil
}

// Abort removes the Puffin file if it was written.
func (w *DVWriter) Abort(ctx context.Context) error {
	w.err = ErrWriterClosed
	w.done = nil
	if w.loc == "" {
		return nil
	}
	loc := w.loc
	w.loc = ""
	return removeAll(ctx, w.fio, []string{loc})
}
