package manifest

import (
	"fmt"
	"io"
	"strconv"

	"github.com/icesql/icesql/iceberg"
)

// UnassignedSequenceNumber marks a manifest's sequence numbers as not yet
// known: WriteManifestList replaces it with the committing snapshot's.
const UnassignedSequenceNumber int64 = -1

// ManifestWriter writes one manifest file. It is not safe for concurrent use.
type ManifestWriter struct {
	enc        *ocfWriter
	out        *countingWriter
	version    int
	specID     int
	pt         *iceberg.StructType
	content    iceberg.ManifestContent
	snapshotID int64
	buf        []byte

	added, existing, deleted             int32
	addedRows, existingRows, deletedRows int64
	minSeq                               int64
	stats                                []fieldStats
	closed                               bool
	err                                  error
}

// fieldStats accumulates one partition field's summary.
type fieldStats struct {
	containsNull, containsNaN bool
	lower, upper              any
}

// NewManifestWriter starts a manifest for a spec over a schema. The
// content says whether it lists data or delete files (v1 has only data).
// snapshotID is the snapshot writing the manifest: it is recorded on
// DELETED entries and as the manifest's added_snapshot_id.
func NewManifestWriter(w io.Writer, version int, spec *iceberg.PartitionSpec, schema *iceberg.Schema,
	content iceberg.ManifestContent, snapshotID int64) (*ManifestWriter, error) {
	if version < 1 || version > 3 {
		return nil, fmt.Errorf("%w: %d", ErrUnsupportedVersion, version)
	}
	if version == 1 && content != iceberg.ManifestContentData {
		return nil, fmt.Errorf("%w: v1 manifests hold only data files", ErrInvalidEntry)
	}
	if spec == nil || schema == nil {
		return nil, fmt.Errorf("%w: NewManifestWriter needs a spec and a schema", ErrMissingArgument)
	}
	pt, err := partitionType(spec, schema)
	if err != nil {
		return nil, err
	}
	avroSchema, err := manifestEntrySchema(version, pt)
	if err != nil {
		return nil, err
	}
	schemaText, err := schema.MarshalJSON() // the spec's Appendix C form
	if err != nil {
		return nil, err
	}
	specText, err := specJSON(spec)
	if err != nil {
		return nil, err
	}
	meta := map[string][]byte{
		"schema":            schemaText,
		"schema-id":         []byte(strconv.Itoa(schema.ID)),
		"partition-spec":    specText,
		"partition-spec-id": []byte(strconv.Itoa(spec.ID)),
		"format-version":    []byte(strconv.Itoa(version)),
	}
	if version > 1 {
		meta["content"] = []byte(contentName(content))
	}
	enc, cw, err := newContainer(w, avroSchema, meta)
	if err != nil {
		return nil, err
	}
	return &ManifestWriter{enc: enc, out: cw, version: version, specID: spec.ID, pt: pt, content: content,
		snapshotID: snapshotID, minSeq: UnassignedSequenceNumber, stats: make([]fieldStats, len(pt.FieldList))}, nil
}

func contentName(c iceberg.ManifestContent) string {
	if c == iceberg.ManifestContentDeletes {
		return "deletes"
	}
	return "data"
}

// PartitionType is the partition struct the manifest was written with.
func (w *ManifestWriter) PartitionType() *iceberg.StructType { return w.pt }

// Add writes a file added by the writing snapshot. Its snapshot id and
// sequence numbers stay null in the file (v2+) and are inherited from the
// manifest list, so the manifest can be reused when a commit is retried.
// Set entry.SequenceNumber only for files that keep an older data
// sequence number (e.g. compaction).
func (w *ManifestWriter) Add(df iceberg.DataFile) error {
	return w.WriteEntry(iceberg.ManifestEntry{Status: iceberg.StatusAdded, DataFile: df})
}

// Existing carries an entry over from an older manifest; it must have its
// snapshot id and data sequence number (v2+).
func (w *ManifestWriter) Existing(e iceberg.ManifestEntry) error {
	e.Status = iceberg.StatusExisting
	return w.WriteEntry(e)
}

// Delete records that the writing snapshot removed the entry's file; the
// entry keeps its sequence numbers (required in v2+).
func (w *ManifestWriter) Delete(e iceberg.ManifestEntry) error {
	e.Status = iceberg.StatusDeleted
	id := w.snapshotID
	e.SnapshotID = &id
	return w.WriteEntry(e)
}

// WriteEntry writes an entry as given, after checking the format's rules.
func (w *ManifestWriter) WriteEntry(e iceberg.ManifestEntry) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrWriterClosed
	}
	if err := w.check(&e); err != nil {
		return err
	}
	if w.version == 1 && e.SnapshotID == nil {
		id := w.snapshotID
		e.SnapshotID = &id
	}
	if w.version > 1 && e.Status == iceberg.StatusAdded && e.SnapshotID != nil && *e.SnapshotID == w.snapshotID {
		e.SnapshotID = nil // inherited from the manifest list
	}
	b, err := appendEntry(w.buf[:0], w.version, &e, w.pt)
	if err != nil {
		return err
	}
	w.buf = b
	if _, err := w.enc.Write(b); err != nil {
		w.err = err
		return err
	}
	w.count(&e)
	return nil
}

func (w *ManifestWriter) check(e *iceberg.ManifestEntry) error {
	df := &e.DataFile
	switch e.Status {
	case iceberg.StatusAdded, iceberg.StatusExisting, iceberg.StatusDeleted:
	default:
		return fmt.Errorf("%w: status %d", ErrInvalidEntry, e.Status)
	}
	if w.version > 1 && e.Status != iceberg.StatusAdded && e.SequenceNumber == nil {
		return fmt.Errorf("%w: %s entry for %s has no data sequence number", ErrInvalidEntry, e.Status, df.FilePath)
	}
	if e.Status != iceberg.StatusAdded && e.SnapshotID == nil && w.version > 1 {
		return fmt.Errorf("%w: %s entry for %s has no snapshot id", ErrInvalidEntry, e.Status, df.FilePath)
	}
	isDelete := df.Content != iceberg.ContentData
	if isDelete != (w.content == iceberg.ManifestContentDeletes) {
		return fmt.Errorf("%w: %s file %s in a %s manifest", ErrInvalidEntry, df.Content, df.FilePath, contentName(w.content))
	}
	if df.Content == iceberg.ContentEqualityDeletes && len(df.EqualityIDs) == 0 {
		return fmt.Errorf("%w: equality delete file %s has no equality ids", ErrInvalidEntry, df.FilePath)
	}
	if df.SpecID != w.specID {
		return fmt.Errorf("%w: file %s has spec %d, the manifest spec %d", ErrInvalidEntry, df.FilePath, df.SpecID, w.specID)
	}
	return nil
}

func (w *ManifestWriter) count(e *iceberg.ManifestEntry) {
	rows := e.DataFile.RecordCount
	switch e.Status {
	case iceberg.StatusAdded:
		w.added++
		w.addedRows += rows
	case iceberg.StatusExisting:
		w.existing++
		w.existingRows += rows
	case iceberg.StatusDeleted:
		w.deleted++
		w.deletedRows += rows
	}
	if e.Status != iceberg.StatusDeleted && e.SequenceNumber != nil &&
		(w.minSeq == UnassignedSequenceNumber || *e.SequenceNumber < w.minSeq) {
		w.minSeq = *e.SequenceNumber
	}
	for i, v := range e.DataFile.Partition {
		s := &w.stats[i]
		switch {
		case v == nil:
			s.containsNull = true
		case iceberg.IsNaN(v):
			s.containsNaN = true
		case s.lower == nil:
			s.lower, s.upper = v, v
		default:
			// Values were type-checked when the entry was encoded, so
			// they are comparable.
			if c, _ := iceberg.CompareValues(v, s.lower); c < 0 {
				s.lower = v
			}
			if c, _ := iceberg.CompareValues(v, s.upper); c > 0 {
				s.upper = v
			}
		}
	}
}

// Close flushes the last block. The writer's io.Writer is not closed.
func (w *ManifestWriter) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if err := w.enc.Close(); err != nil && w.err == nil {
		w.err = err
	}
	return w.err
}

// BytesWritten is the file length so far (the manifest_length after Close).
func (w *ManifestWriter) BytesWritten() int64 { return w.out.n }

// ToManifestFile describes the closed manifest for the manifest list.
// Its sequence numbers are UnassignedSequenceNumber unless entries carried
// explicit data sequence numbers (then MinSequenceNumber is their minimum);
// WriteManifestList assigns the rest.
func (w *ManifestWriter) ToManifestFile(path string, length int64) iceberg.ManifestFile {
	parts := make([]iceberg.FieldSummary, len(w.stats))
	for i, s := range w.stats {
		nan := s.containsNaN
		parts[i] = iceberg.FieldSummary{ContainsNull: s.containsNull, ContainsNaN: &nan}
		if s.lower != nil {
			parts[i].LowerBound = singleValue(s.lower)
			parts[i].UpperBound = singleValue(s.upper)
		}
	}
	return iceberg.ManifestFile{
		Path: path, Length: length, SpecID: w.specID, Content: w.content,
		SequenceNumber: UnassignedSequenceNumber, MinSequenceNumber: w.minSeq,
		AddedSnapshotID: w.snapshotID,
		AddedFilesCount: w.added, ExistingFilesCount: w.existing, DeletedFilesCount: w.deleted,
		AddedRowsCount: w.addedRows, ExistingRowsCount: w.existingRows, DeletedRowsCount: w.deletedRows,
		Partitions: parts,
	}
}
