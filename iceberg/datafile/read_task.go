package datafile

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/iceberg/scan"
)

// PosColumnName is the extra int64 column ReadTask appends with
// WithPositions: each row's position in its data file.
const PosColumnName = parquetfile.PosFieldName

// ReadOptions configure ReadTask.
type ReadOptions struct {
	// BatchSize is the maximum rows per record read from the file (output
	// records may be smaller after deletes and filtering).
	BatchSize int
	// WithPositions appends an int64 column _pos (field id
	// parquetfile.PosFieldID) holding each row's position in the data file;
	// with the task's file path it identifies rows for position deletes.
	WithPositions bool
	// NameMapping resolves columns of files written without field ids; nil
	// reads the table's schema.name-mapping.default property.
	NameMapping parquetfile.NameMapping
	// DeleteCache, shared by the tasks of one scan, keeps parsed equality
	// delete files and the order of position delete files so that each is
	// read once per scan rather than once per task; nil reads them per task.
	DeleteCache *DeleteCache
	// Files, when set, keeps small data files in memory across tasks and
	// scans (an engine-wide FileCache); nil opens every file from storage.
	Files *FileCache
	// Stats, when set, counts files, row groups and delete files read.
	Stats *ReadStats
	// SkipPageChecksums reads the data file without verifying its page
	// CRCs (parquetfile.Reader.SkipChecksums); delete files are always
	// verified.
	SkipPageChecksums bool
	// DictionaryFieldIDs are string fields the reader may return as
	// dictionary arrays (parquetfile.ReadOptions.DictionaryFieldIDs);
	// fields that equality deletes or the residual read stay strings.
	DictionaryFieldIDs []int
	// Schema is the schema the projection and the task's residual are
	// bound to, when not the table's current one (a time-travel read
	// uses its snapshot's): residual columns outside the projection are
	// resolved in it, so a column dropped since still filters.
	Schema *iceberg.Schema
}

// RecordIterator yields Arrow records until io.EOF.
type RecordIterator interface {
	// Next returns the next record (the caller releases it) or io.EOF.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// Close releases the open file and buffers.
	Close()
}

// ReadTask reads the task's data file in the projection (bound by field id;
// columns added after the file was written read as null), removes the rows
// deleted by the task's position and equality delete files, and keeps only
// rows matching the task's residual.
//
// Delete files follow the spec's sequence number rules, checked again here:
// a position delete applies when its data sequence number is >= the data
// file's, an equality delete when it is strictly greater. Only the deletes
// of this task are held in memory (with a DeleteCache, also the cached
// equality key sets of the scan). Position delete files need not be sorted.
// Row groups whose footer statistics rule out the residual are skipped.
// A deletion vector (format v3) for the file replaces its position delete
// files, which then do not apply.
func ReadTask(ctx context.Context, fio fileio.FileIO, meta *iceberg.TableMetadata, task scan.FileScanTask, projection *iceberg.Schema, opts ReadOptions) (RecordIterator, error) {
	f := task.File
	if f.FileFormat != iceberg.FormatParquet {
		return nil, &FileError{Op: "read", Path: f.FilePath, Err: fmt.Errorf("%w: %q", ErrUnsupportedFormat, f.FileFormat)}
	}
	table := meta.CurrentSchema()
	if projection == nil {
		projection = table
	}
	mapping := opts.NameMapping
	if mapping == nil {
		m, err := tableNameMapping(meta)
		if err != nil {
			return nil, err
		}
		mapping = m
	}
	var posDeletes, eqDeletes, dvs []iceberg.DataFile
	for _, d := range task.Deletes {
		switch d.File.Content {
		case iceberg.ContentPositionDeletes:
			ref := d.File.ReferencedDataFile
			if d.DataSequenceNumber >= task.DataSequenceNumber && (ref == nil || *ref == f.FilePath) {
				if IsDeletionVector(d.File) {
					dvs = append(dvs, d.File)
					continue
				}
				if d.File.FileFormat != iceberg.FormatParquet {
					return nil, &FileError{Op: "read deletes", Path: d.File.FilePath, Err: fmt.Errorf("%w: %q", ErrUnsupportedFormat, d.File.FileFormat)}
				}
				posDeletes = append(posDeletes, d.File)
			}
		case iceberg.ContentEqualityDeletes:
			if d.DataSequenceNumber > task.DataSequenceNumber {
				eqDeletes = append(eqDeletes, d.File)
			}
		}
	}
	if opts.Stats != nil {
		opts.Stats.addDeletes(paths(dvs), paths(posDeletes), paths(eqDeletes))
	}
	it := &taskIterator{outPositions: opts.WithPositions, path: f.FilePath, constants: identityConstants(meta, task),
		expectedIDs: metricFieldIDs(f), expectedRows: f.RecordCount, fileSize: f.FileSizeInBytes}
	if task.Split() {
		it.rangeStart, it.rangeEnd = task.Start, task.Start+task.Length
	}
	var err error
	if it.deleted, err = loadRowDeletes(ctx, fio, f.FilePath, dvs, posDeletes, opts.DeleteCache); err != nil {
		return nil, err
	}
	if it.eqSets, err = loadEqualityDeletes(ctx, fio, table, mapping, eqDeletes, opts.DeleteCache); err != nil {
		return nil, err
	}
	if task.Residual != nil {
		if _, always := task.Residual.(expr.AlwaysTrue); !always {
			it.residual = expr.NewEvaluator(task.Residual)
			it.residualExpr = task.Residual
			it.residualIDs = predicateIDs(task.Residual)
		}
	}
	read := table
	if opts.Schema != nil {
		read = opts.Schema
	}
	if err := it.open(ctx, fio, table, read, projection, mapping, opts); err != nil {
		it.Close()
		return nil, err
	}
	return it, nil
}

func tableNameMapping(meta *iceberg.TableMetadata) (parquetfile.NameMapping, error) {
	raw, ok := meta.Properties()[iceberg.PropDefaultNameMapping]
	if !ok {
		return nil, nil
	}
	nm, err := iceberg.ParseNameMapping([]byte(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadProperty, iceberg.PropDefaultNameMapping, err)
	}
	return func(path []string) (int, bool) { return nm.FindFieldID(path...) }, nil
}

// identityConstants are the task file's identity partition values by
// source field id: the spec's column projection reads them for columns
// missing from the file (Hive-style files imported with add_files keep
// the partition column only in their directory name).
func identityConstants(meta *iceberg.TableMetadata, task scan.FileScanTask) map[int]any {
	spec := task.Spec
	if spec == nil || spec.ID != task.File.SpecID {
		s, ok := meta.SpecByID(task.File.SpecID)
		if !ok {
			return nil
		}
		spec = s
	}
	var out map[int]any
	for i, pf := range spec.Fields {
		if _, ok := pf.Transform.(iceberg.IdentityTransform); !ok || i >= len(task.File.Partition) {
			continue
		}
		if out == nil {
			out = map[int]any{}
		}
		out[pf.SourceID] = task.File.Partition[i]
	}
	return out
}

func paths(fs []iceberg.DataFile) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.FilePath
	}
	return out
}

func predicateIDs(e expr.BoundExpr) []int {
	var ids []int
	for _, p := range expr.Predicates(e) {
		ids = append(ids, p.FieldID)
	}
	return ids
}

// Ensure the iterator type satisfies the interface.
var _ RecordIterator = (*taskIterator)(nil)

// eof is returned by Next after the last record.
var eof = io.EOF

// metricFieldIDs are the field ids the manifest entry has metrics for:
// columns the file contains, checked against its footer when read.
func metricFieldIDs(f iceberg.DataFile) []int {
	seen := map[int]bool{}
	var ids []int
	add := func(id int) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for id := range f.ColumnSizes {
		add(id)
	}
	for id := range f.ValueCounts {
		add(id)
	}
	for id := range f.NullValueCounts {
		add(id)
	}
	for id := range f.LowerBounds {
		add(id)
	}
	for id := range f.UpperBounds {
		add(id)
	}
	return ids
}
