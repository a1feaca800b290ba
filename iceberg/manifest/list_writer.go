package manifest

import (
	"fmt"
	"io"
	"strconv"

	"github.com/icesql/icesql/iceberg"
)

// WriteManifestList writes a snapshot's manifest list. Manifests whose
// sequence numbers are UnassignedSequenceNumber must have been added by
// this snapshot and get sequenceNumber. In v3, when firstRowID is set,
// data manifests without a first_row_id get consecutive row id ranges
// (added + existing rows each) and the returned nextRowID is the table's
// next-row-id after the commit; it is nil otherwise. The manifests slice
// is not modified.
func WriteManifestList(w io.Writer, version int, snapshotID int64, parentID *int64, sequenceNumber int64,
	firstRowID *int64, manifests []iceberg.ManifestFile) (nextRowID *int64, err error) {
	_, nextRowID, err = WriteManifestListEntries(w, version, snapshotID, parentID, sequenceNumber, firstRowID, manifests)
	return nextRowID, err
}

// WriteManifestListEntries is WriteManifestList that also returns the
// entries as written (sequence numbers and row ids assigned), which is
// what a reader of the list will see.
func WriteManifestListEntries(w io.Writer, version int, snapshotID int64, parentID *int64, sequenceNumber int64,
	firstRowID *int64, manifests []iceberg.ManifestFile) (written []iceberg.ManifestFile, nextRowID *int64, err error) {
	if version < 1 || version > 3 {
		return nil, nil, fmt.Errorf("%w: %d", ErrUnsupportedVersion, version)
	}
	parent := "null"
	if parentID != nil {
		parent = strconv.FormatInt(*parentID, 10)
	}
	meta := map[string][]byte{
		"snapshot-id":        []byte(strconv.FormatInt(snapshotID, 10)),
		"parent-snapshot-id": []byte(parent),
		"format-version":     []byte(strconv.Itoa(version)),
	}
	if version > 1 {
		meta["sequence-number"] = []byte(strconv.FormatInt(sequenceNumber, 10))
	}
	var next int64
	if version >= 3 && firstRowID != nil {
		meta["first-row-id"] = []byte(strconv.FormatInt(*firstRowID, 10))
		next = *firstRowID
	}
	enc, _, err := newContainer(w, manifestListSchema(version), meta)
	if err != nil {
		return nil, nil, err
	}
	var buf []byte
	written = make([]iceberg.ManifestFile, 0, len(manifests))
	for _, m := range manifests {
		if version > 1 {
			if m.SequenceNumber == UnassignedSequenceNumber || m.MinSequenceNumber == UnassignedSequenceNumber {
				if m.AddedSnapshotID != snapshotID {
					return nil, nil, fmt.Errorf("%w: %s from snapshot %d", ErrUnassignedSequence, m.Path, m.AddedSnapshotID)
				}
			}
			if m.SequenceNumber == UnassignedSequenceNumber {
				m.SequenceNumber = sequenceNumber
			}
			if m.MinSequenceNumber == UnassignedSequenceNumber {
				m.MinSequenceNumber = sequenceNumber
			}
		}
		if version >= 3 && firstRowID != nil && m.Content == iceberg.ManifestContentData && m.FirstRowID == nil {
			id := next
			m.FirstRowID = &id
			next += m.AddedRowsCount + m.ExistingRowsCount
		}
		buf = appendManifestFile(buf[:0], version, &m)
		written = append(written, asRead(m, version))
		if _, err := enc.Write(buf); err != nil {
			return nil, nil, err
		}
	}
	if err := enc.Close(); err != nil {
		return nil, nil, err
	}
	if version >= 3 && firstRowID != nil {
		return written, &next, nil
	}
	return written, nil, nil
}

// asRead is a written manifest_file as a reader of the version sees it:
// fields the version has no place for read back as zero.
func asRead(m iceberg.ManifestFile, version int) iceberg.ManifestFile {
	if version < 3 {
		m.FirstRowID = nil
	}
	if version == 1 {
		m.Content, m.SequenceNumber, m.MinSequenceNumber = 0, 0, 0
	}
	return m
}
