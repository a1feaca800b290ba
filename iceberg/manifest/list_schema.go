package manifest

import (
	"github.com/icesql/icesql/iceberg"
)

// Field ids of the manifest list's manifest_file record.
const (
	idManifestPath      = 500
	idManifestLength    = 501
	idSpecID            = 502
	idAddedSnapshotID   = 503
	idAddedFilesCount   = 504
	idExistingFiles     = 505
	idDeletedFiles      = 506
	idPartitions        = 507
	idFieldSummary      = 508
	idContainsNull      = 509
	idLowerBound        = 510
	idUpperBound        = 511
	idAddedRows         = 512
	idExistingRows      = 513
	idDeletedRows       = 514
	idSequenceNumber    = 515
	idMinSequenceNumber = 516
	idListContent       = 517
	idContainsNaN       = 518
	idListKeyMetadata   = 519
	idListFirstRowID    = 520
)

// listField is one manifest_file field: its schema and how to write it.
// value returns false when the field is null.
type listField struct {
	id       int
	name     string
	typ      func() any
	optional func(version int) bool
	write    func(b []byte, m *iceberg.ManifestFile) ([]byte, bool)
}

func always(int) bool            { return true }
func never(int) bool             { return false }
func onlyV1(v int) bool          { return v == 1 }
func constType(t any) func() any { return func() any { return t } }

var listFields = map[int]listField{
	idManifestPath: {idManifestPath, "manifest_path", constType("string"), never,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendString(b, m.Path), true }},
	idManifestLength: {idManifestLength, "manifest_length", constType("long"), never,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendLong(b, m.Length), true }},
	idSpecID: {idSpecID, "partition_spec_id", constType("int"), never,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendInt(b, int32(m.SpecID)), true }},
	idListContent: {idListContent, "content", constType("int"), never,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendInt(b, int32(m.Content)), true }},
	idSequenceNumber: {idSequenceNumber, "sequence_number", constType("long"), never,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendLong(b, m.SequenceNumber), true }},
	idMinSequenceNumber: {idMinSequenceNumber, "min_sequence_number", constType("long"), never,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) {
			return appendLong(b, m.MinSequenceNumber), true
		}},
	idAddedSnapshotID: {idAddedSnapshotID, "added_snapshot_id", constType("long"), never,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendLong(b, m.AddedSnapshotID), true }},
	// The spec's names for 504-506, as Java writes them since 1.4; readers
	// bind by id, so the older added_data_files_count and friends read too.
	idAddedFilesCount: {idAddedFilesCount, "added_files_count", constType("int"), onlyV1,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendInt(b, m.AddedFilesCount), true }},
	idExistingFiles: {idExistingFiles, "existing_files_count", constType("int"), onlyV1,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) {
			return appendInt(b, m.ExistingFilesCount), true
		}},
	idDeletedFiles: {idDeletedFiles, "deleted_files_count", constType("int"), onlyV1,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendInt(b, m.DeletedFilesCount), true }},
	idAddedRows: {idAddedRows, "added_rows_count", constType("long"), onlyV1,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendLong(b, m.AddedRowsCount), true }},
	idExistingRows: {idExistingRows, "existing_rows_count", constType("long"), onlyV1,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) {
			return appendLong(b, m.ExistingRowsCount), true
		}},
	idDeletedRows: {idDeletedRows, "deleted_rows_count", constType("long"), onlyV1,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) { return appendLong(b, m.DeletedRowsCount), true }},
	idPartitions: {idPartitions, "partitions", fieldSummaryType, always, writeSummaries},
	idListKeyMetadata: {idListKeyMetadata, "key_metadata", constType("bytes"), always,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) {
			if m.KeyMetadata == nil {
				return b, false
			}
			return appendBytes(b, m.KeyMetadata), true
		}},
	idListFirstRowID: {idListFirstRowID, "first_row_id", constType("long"), always,
		func(b []byte, m *iceberg.ManifestFile) ([]byte, bool) {
			if m.FirstRowID == nil {
				return b, false
			}
			return appendLong(b, *m.FirstRowID), true
		}},
}

// listFieldOrder is the field order Java writes for each format version.
func listFieldOrder(version int) []int {
	switch version {
	case 1:
		return []int{idManifestPath, idManifestLength, idSpecID, idAddedSnapshotID,
			idAddedFilesCount, idExistingFiles, idDeletedFiles, idPartitions,
			idAddedRows, idExistingRows, idDeletedRows, idListKeyMetadata}
	case 2:
		return []int{idManifestPath, idManifestLength, idSpecID, idListContent, idSequenceNumber,
			idMinSequenceNumber, idAddedSnapshotID, idAddedFilesCount, idExistingFiles, idDeletedFiles,
			idAddedRows, idExistingRows, idDeletedRows, idPartitions, idListKeyMetadata}
	default:
		return append(listFieldOrder(2), idListFirstRowID)
	}
}

func fieldSummaryType() any {
	return avroList(idFieldSummary, avroRecord("r508", []obj{
		avroField(idContainsNull, "contains_null", "boolean", false),
		avroField(idContainsNaN, "contains_nan", "boolean", true),
		avroField(idLowerBound, "lower_bound", "bytes", true),
		avroField(idUpperBound, "upper_bound", "bytes", true),
	}))
}

func writeSummaries(b []byte, m *iceberg.ManifestFile) ([]byte, bool) {
	if m.Partitions == nil {
		return b, false
	}
	if len(m.Partitions) > 0 {
		b = appendLong(b, int64(len(m.Partitions)))
		for _, s := range m.Partitions {
			b = appendBool(b, s.ContainsNull)
			if s.ContainsNaN == nil {
				b = appendNull(b)
			} else {
				b = appendBool(appendSome(b), *s.ContainsNaN)
			}
			b = appendOptBytes(b, s.LowerBound)
			b = appendOptBytes(b, s.UpperBound)
		}
	}
	return appendLong(b, 0), true
}

func appendOptBytes(b []byte, p []byte) []byte {
	if p == nil {
		return appendNull(b)
	}
	return appendBytes(appendSome(b), p)
}

// manifestListSchema is the Avro schema of a manifest list.
func manifestListSchema(version int) obj {
	order := listFieldOrder(version)
	fields := make([]obj, 0, len(order))
	for _, id := range order {
		f := listFields[id]
		fields = append(fields, avroField(f.id, f.name, f.typ(), f.optional(version)))
	}
	return avroRecord("manifest_file", fields)
}

// appendManifestFile encodes one manifest_file record.
func appendManifestFile(b []byte, version int, m *iceberg.ManifestFile) []byte {
	for _, id := range listFieldOrder(version) {
		f := listFields[id]
		if !f.optional(version) {
			b, _ = f.write(b, m)
			continue
		}
		mark := len(b)
		b = appendSome(b)
		var ok bool
		b, ok = f.write(b, m)
		if !ok {
			b = appendNull(b[:mark])
		}
	}
	return b
}
