package manifest

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"

	"github.com/hamba/avro/v2"
	"github.com/icesql/icesql/iceberg"
)

// ReadOption configures manifest and manifest list reading.
type ReadOption func(*readConfig)

type readConfig struct {
	path          string
	partitionType *iceberg.StructType
}

// WithPath names the file being read, so errors are *iceberg.CorruptFileError.
func WithPath(path string) ReadOption { return func(c *readConfig) { c.path = path } }

// WithPartitionType orders each entry's partition values like the given
// partition struct (matched by partition field id; absent ids read as
// null). Without it values follow the file's partition record.
func WithPartitionType(pt *iceberg.StructType) ReadOption {
	return func(c *readConfig) { c.partitionType = pt }
}

// openContainer applies the read options and parses the Avro container
// header that manifests and manifest lists share.
func openContainer(r io.Reader, opts []ReadOption) (readConfig, *container, error) {
	var cfg readConfig
	for _, o := range opts {
		o(&cfg)
	}
	data, err := readAll(r)
	if errors.Is(err, iceberg.ErrTooLarge) {
		return cfg, nil, corrupt(cfg.path, err)
	}
	if err != nil {
		return cfg, nil, err
	}
	c, err := readContainer(data)
	if err != nil {
		return cfg, nil, corrupt(cfg.path, err)
	}
	return cfg, c, nil
}

// ManifestReader reads a manifest file held in memory.
type ManifestReader struct {
	cfg       readConfig
	c         *container
	version   int
	content   iceberg.ManifestContent
	fileType  *iceberg.StructType
	readEntry func(*dec, *iceberg.ManifestEntry)
}

// NewManifestReader reads a manifest's header and compiles a decoding
// plan from its Avro schema, binding fields by field id.
func NewManifestReader(r io.Reader, opts ...ReadOption) (*ManifestReader, error) {
	cfg, c, err := openContainer(r, opts)
	if err != nil {
		return nil, err
	}
	mr := &ManifestReader{cfg: cfg, c: c, version: 1}
	if v, ok := c.meta["format-version"]; ok {
		n, err := strconv.Atoi(string(v))
		if err != nil || n < 1 || n > 3 {
			return nil, corrupt(cfg.path, fmt.Errorf("%w: format-version %q", ErrUnsupportedVersion, v))
		}
		mr.version = n
	}
	if string(c.meta["content"]) == "deletes" {
		mr.content = iceberg.ManifestContentDeletes
	}
	var dataFileType *iceberg.StructType
	mr.readEntry, dataFileType, err = entryPlan(c.schema, cfg.partitionType)
	if err != nil {
		return nil, corrupt(cfg.path, err)
	}
	mr.fileType = dataFileType
	return mr, nil
}

// FormatVersion is the manifest's format-version metadata (1 when absent).
func (r *ManifestReader) FormatVersion() int { return r.version }

// Content says whether the manifest lists data or delete files.
func (r *ManifestReader) Content() iceberg.ManifestContent { return r.content }

// Metadata returns the file's key-value metadata (schema, partition-spec,
// partition-spec-id, ...), including avro.schema and avro.codec.
func (r *ManifestReader) Metadata() map[string][]byte { return r.c.meta }

// PartitionType is the partition struct as the file's Avro schema declares
// it (partition field ids, names and result types).
func (r *ManifestReader) PartitionType() *iceberg.StructType { return r.fileType }

// Entries decodes entries lazily, applying sequence number inheritance
// from the manifest list entry mf: null snapshot ids take
// mf.AddedSnapshotID; null sequence numbers of ADDED entries (and of every
// entry of a v1 manifest, read as sequence 0) take mf.SequenceNumber; v3
// data files without first_row_id get mf.FirstRowID plus the record counts
// of the earlier such files. Every entry's DataFile.SpecID is mf.SpecID.
func (r *ManifestReader) Entries(mf iceberg.ManifestFile) iter.Seq2[iceberg.ManifestEntry, error] {
	return func(yield func(iceberg.ManifestEntry, error) bool) {
		d := newDec()
		nextRowID := mf.FirstRowID
		if nextRowID != nil {
			n := *nextRowID
			nextRowID = &n
		}
		for blk, err := range r.c.blocks {
			if err != nil {
				yield(iceberg.ManifestEntry{}, corrupt(r.cfg.path, err))
				return
			}
			d.reset(blk.data)
			for i := int64(0); i < blk.count; i++ {
				var e iceberg.ManifestEntry
				r.readEntry(d, &e)
				if d.r.Error != nil {
					yield(iceberg.ManifestEntry{}, corrupt(r.cfg.path, fmt.Errorf("entry %d of block: %w", i, d.r.Error)))
					return
				}
				inherit(&e, &mf, nextRowID)
				if !yield(e, nil) {
					return
				}
			}
		}
	}
}

func inherit(e *iceberg.ManifestEntry, mf *iceberg.ManifestFile, nextRowID *int64) {
	e.DataFile.SpecID = mf.SpecID
	if e.SnapshotID == nil {
		id := mf.AddedSnapshotID
		e.SnapshotID = &id
	}
	if mf.SequenceNumber == 0 || e.Status == iceberg.StatusAdded {
		if e.SequenceNumber == nil {
			seq := mf.SequenceNumber
			e.SequenceNumber = &seq
		}
		if e.FileSequenceNumber == nil {
			seq := mf.SequenceNumber
			e.FileSequenceNumber = &seq
		}
	}
	df := &e.DataFile
	if nextRowID != nil && df.Content == iceberg.ContentData && df.FirstRowID == nil && e.Status != iceberg.StatusDeleted {
		id := *nextRowID
		df.FirstRowID = &id
		*nextRowID += df.RecordCount
	}
}

// ReadManifest reads a manifest's entries lazily; see ManifestReader.Entries.
func ReadManifest(r io.Reader, mf iceberg.ManifestFile, opts ...ReadOption) iter.Seq2[iceberg.ManifestEntry, error] {
	mr, err := NewManifestReader(r, opts...)
	if err != nil {
		return func(yield func(iceberg.ManifestEntry, error) bool) { yield(iceberg.ManifestEntry{}, err) }
	}
	return mr.Entries(mf)
}

// ReadManifestEntries reads every entry of a manifest into a slice.
func ReadManifestEntries(r io.Reader, mf iceberg.ManifestFile, opts ...ReadOption) ([]iceberg.ManifestEntry, error) {
	var out []iceberg.ManifestEntry
	for e, err := range ReadManifest(r, mf, opts...) {
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// entryPlan compiles the manifest_entry record of a writer schema.
func entryPlan(s avro.Schema, want *iceberg.StructType) (func(*dec, *iceberg.ManifestEntry), *iceberg.StructType, error) {
	var partType *iceberg.StructType
	readEntry, err := recordPlan(s, func(id int, fs avro.Schema) (step[iceberg.ManifestEntry], bool, error) {
		switch id {
		case idStatus:
			return bindOpt(fs, intBase, func(e *iceberg.ManifestEntry, v int32) { e.Status = iceberg.EntryStatus(v) })
		case idEntrySnapshotID:
			return bindOpt(fs, longBase, func(e *iceberg.ManifestEntry, v int64) { e.SnapshotID = &v })
		case idEntrySequence:
			return bindOpt(fs, longBase, func(e *iceberg.ManifestEntry, v int64) { e.SequenceNumber = &v })
		case idFileSequence:
			return bindOpt(fs, longBase, func(e *iceberg.ManifestEntry, v int64) { e.FileSequenceNumber = &v })
		case idDataFile:
			readFile, pt, err := dataFilePlan(fs, want)
			if err != nil {
				return nil, true, err
			}
			partType = pt
			return func(d *dec, e *iceberg.ManifestEntry) { readFile(d, &e.DataFile) }, true, nil
		}
		return nil, false, nil
	}, idStatus, idDataFile)
	if err != nil {
		return nil, nil, err
	}
	return readEntry, partType, nil
}

func dataFilePlan(s avro.Schema, want *iceberg.StructType) (func(*dec, *iceberg.DataFile), *iceberg.StructType, error) {
	var partType *iceberg.StructType
	type df = iceberg.DataFile
	read, err := recordPlan(s, func(id int, fs avro.Schema) (step[df], bool, error) {
		switch id {
		case idContent:
			return bindOpt(fs, intBase, func(f *df, v int32) { f.Content = iceberg.FileContent(v) })
		case idFilePath:
			return bindOpt(fs, stringBase, func(f *df, v string) { f.FilePath = v })
		case idFileFormat:
			return bindOpt(fs, stringBase, func(f *df, v string) { f.FileFormat = iceberg.FileFormat(strings.ToUpper(v)) })
		case idPartition:
			readPart, pt, err := partitionPlan(fs, want)
			if err != nil {
				return nil, true, err
			}
			partType = pt
			return func(d *dec, f *df) { f.Partition = readPart(d) }, true, nil
		case idRecordCount:
			return bindOpt(fs, longBase, func(f *df, v int64) { f.RecordCount = v })
		case idFileSize:
			return bindOpt(fs, longBase, func(f *df, v int64) { f.FileSizeInBytes = v })
		case idColumnSizes, idValueCounts, idNullValueCounts, idNaNValueCounts:
			ids := mapIDs[id]
			set := countSetter(id)
			return bindOpt(fs, mapBase(ids[0], ids[1], longBase), func(f *df, v []pair[int64]) { set(f, toMap(v)) })
		case idLowerBounds, idUpperBounds:
			ids := mapIDs[id]
			return bindOpt(fs, mapBase(ids[0], ids[1], bytesBase), func(f *df, v []pair[[]byte]) {
				if id == idLowerBounds {
					f.LowerBounds = toMap(v)
				} else {
					f.UpperBounds = toMap(v)
				}
			})
		case idKeyMetadata:
			return bindOpt(fs, bytesBase, func(f *df, v []byte) { f.KeyMetadata = v })
		case idSplitOffsets:
			return bindOpt(fs, arrayBase(longBase), func(f *df, v []int64) { f.SplitOffsets = v })
		case idEqualityIDs:
			return bindOpt(fs, arrayBase(intBase), func(f *df, v []int32) {
				f.EqualityIDs = make([]int, len(v))
				for i, x := range v {
					f.EqualityIDs[i] = int(x)
				}
			})
		case idSortOrderID:
			return bindOpt(fs, intBase, func(f *df, v int32) { n := int(v); f.SortOrderID = &n })
		case idFirstRowID:
			return bindOpt(fs, longBase, func(f *df, v int64) { f.FirstRowID = &v })
		case idReferencedDataFile:
			return bindOpt(fs, stringBase, func(f *df, v string) { f.ReferencedDataFile = &v })
		case idContentOffset:
			return bindOpt(fs, longBase, func(f *df, v int64) { f.ContentOffset = &v })
		case idContentSize:
			return bindOpt(fs, longBase, func(f *df, v int64) { f.ContentSizeInBytes = &v })
		}
		return nil, false, nil
	}, idFilePath, idFileFormat, idPartition, idRecordCount, idFileSize)
	if err != nil {
		return nil, nil, err
	}
	return read, partType, nil
}

func countSetter(id int) func(*iceberg.DataFile, map[int]int64) {
	switch id {
	case idColumnSizes:
		return func(f *iceberg.DataFile, m map[int]int64) { f.ColumnSizes = m }
	case idValueCounts:
		return func(f *iceberg.DataFile, m map[int]int64) { f.ValueCounts = m }
	case idNullValueCounts:
		return func(f *iceberg.DataFile, m map[int]int64) { f.NullValueCounts = m }
	}
	return func(f *iceberg.DataFile, m map[int]int64) { f.NaNValueCounts = m }
}

func toMap[V any](pairs []pair[V]) map[int]V {
	m := make(map[int]V, len(pairs))
	for _, p := range pairs {
		m[int(p.k)] = p.v
	}
	return m
}
