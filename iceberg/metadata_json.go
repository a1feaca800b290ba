package iceberg

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// MaxMetadataFileBytes bounds a table or view metadata file, and the
// decompressed size of a gzipped one, so a corrupt or hostile file (or a
// catalog row naming a huge one) cannot exhaust memory: readers refuse
// larger files with ErrTooLarge before allocating for them. Tables with
// tens of thousands of snapshots stay well below it.
const MaxMetadataFileBytes = 256 << 20

const maxMetadataBytes = MaxMetadataFileBytes

type metadataJSON struct {
	FormatVersion       *int                      `json:"format-version"`
	TableUUID           *string                   `json:"table-uuid"`
	Location            *string                   `json:"location"`
	LastSequenceNumber  *int64                    `json:"last-sequence-number"`
	LastUpdatedMs       *int64                    `json:"last-updated-ms"`
	LastColumnID        *int                      `json:"last-column-id"`
	Schema              json.RawMessage           `json:"schema"`
	Schemas             []json.RawMessage         `json:"schemas"`
	CurrentSchemaID     *int                      `json:"current-schema-id"`
	PartitionSpec       json.RawMessage           `json:"partition-spec"`
	PartitionSpecs      []json.RawMessage         `json:"partition-specs"`
	DefaultSpecID       *int                      `json:"default-spec-id"`
	LastPartitionID     *int                      `json:"last-partition-id"`
	Properties          map[string]string         `json:"properties"`
	CurrentSnapshotID   *int64                    `json:"current-snapshot-id"`
	Snapshots           []json.RawMessage         `json:"snapshots"`
	SnapshotLog         []logEntryJSON            `json:"snapshot-log"`
	MetadataLog         []logEntryJSON            `json:"metadata-log"`
	SortOrders          []json.RawMessage         `json:"sort-orders"`
	DefaultSortOrderID  *int                      `json:"default-sort-order-id"`
	Refs                map[string]refJSON        `json:"refs"`
	Statistics          []StatisticsFile          `json:"statistics"`
	PartitionStatistics []PartitionStatisticsFile `json:"partition-statistics"`
	NextRowID           *int64                    `json:"next-row-id"`
}

type logEntryJSON struct {
	TimestampMs  *int64  `json:"timestamp-ms"`
	SnapshotID   *int64  `json:"snapshot-id"`
	MetadataFile *string `json:"metadata-file"`
}

type refJSON struct {
	SnapshotID         *int64  `json:"snapshot-id"`
	Type               *string `json:"type"`
	MinSnapshotsToKeep *int    `json:"min-snapshots-to-keep"`
	MaxSnapshotAgeMs   *int64  `json:"max-snapshot-age-ms"`
	MaxRefAgeMs        *int64  `json:"max-ref-age-ms"`
}

var knownMetadataKeys = map[string]bool{
	"format-version": true, "table-uuid": true, "location": true, "last-sequence-number": true,
	"last-updated-ms": true, "last-column-id": true, "schema": true, "schemas": true,
	"current-schema-id": true, "partition-spec": true, "partition-specs": true, "default-spec-id": true,
	"last-partition-id": true, "properties": true, "current-snapshot-id": true, "snapshots": true,
	"snapshot-log": true, "metadata-log": true, "sort-orders": true, "default-sort-order-id": true,
	"refs": true, "statistics": true, "partition-statistics": true, "next-row-id": true,
}

// ParseMetadata parses and validates a metadata.json file's content
// (plain or gzip-compressed). Every error wraps ErrInvalidMetadata (and
// ErrUnsupported for a format version newer than 3).
func ParseMetadata(data []byte) (*TableMetadata, error) {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, metaErrorf(ErrInvalidMetadata, "bad gzip header: %v", err)
		}
		plain, err := io.ReadAll(io.LimitReader(zr, maxMetadataBytes+1))
		if err != nil {
			return nil, metaErrorf(ErrInvalidMetadata, "bad gzip data: %v", err)
		}
		if len(plain) > maxMetadataBytes {
			return nil, fmt.Errorf("%w: %w: decompressed metadata exceeds %d bytes", ErrInvalidMetadata, ErrTooLarge, maxMetadataBytes)
		}
		data = plain
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, metaErrorf(ErrInvalidMetadata, "not a JSON object: %v", err)
	}
	if raw == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "metadata is null")
	}
	var mj metadataJSON
	if err := json.Unmarshal(data, &mj); err != nil {
		return nil, metaErrorf(ErrInvalidMetadata, "%v", err)
	}
	m, err := metadataFromJSON(&mj)
	if err != nil {
		return nil, err
	}
	for k, v := range raw {
		if !knownMetadataKeys[k] {
			if m.unknown == nil {
				m.unknown = map[string][]byte{}
			}
			m.unknown[k] = slices.Clone(v)
		}
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	return m, nil
}

func metadataFromJSON(mj *metadataJSON) (*TableMetadata, error) {
	if mj.FormatVersion == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "missing format-version")
	}
	v := *mj.FormatVersion
	if v < 1 {
		return nil, metaErrorf(ErrInvalidMetadata, "invalid format-version %d", v)
	}
	if v > MaxSupportedFormatVersion {
		return nil, fmt.Errorf("%w: %w: format-version %d is newer than %d", ErrInvalidMetadata, ErrUnsupported, v, MaxSupportedFormatVersion)
	}
	m := &TableMetadata{formatVersion: v, currentSnapshotID: NoSnapshotID, snapJSON: newSnapshotJSONCache()}
	if mj.TableUUID != nil {
		m.uuid = *mj.TableUUID
	} else if v >= 2 {
		return nil, metaErrorf(ErrInvalidMetadata, "missing table-uuid (required in v%d)", v)
	}
	if mj.Location == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "missing location")
	}
	m.location = *mj.Location
	if mj.LastSequenceNumber != nil {
		m.lastSequenceNumber = *mj.LastSequenceNumber
	} else if v >= 2 {
		return nil, metaErrorf(ErrInvalidMetadata, "missing last-sequence-number (required in v%d)", v)
	}
	if mj.LastUpdatedMs == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "missing last-updated-ms")
	}
	m.lastUpdatedMs = *mj.LastUpdatedMs
	if mj.LastColumnID == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "missing last-column-id")
	}
	m.lastColumnID = *mj.LastColumnID
	if err := m.schemasFromJSON(mj); err != nil {
		return nil, err
	}
	if err := m.specsFromJSON(mj); err != nil {
		return nil, err
	}
	if err := m.sortOrdersFromJSON(mj); err != nil {
		return nil, err
	}
	m.properties = mj.Properties
	if m.properties == nil {
		m.properties = map[string]string{}
	}
	if mj.CurrentSnapshotID != nil && *mj.CurrentSnapshotID != -1 {
		m.currentSnapshotID = *mj.CurrentSnapshotID
	}
	for i, raw := range mj.Snapshots {
		s, err := snapshotFromJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: snapshot %d: %w", ErrInvalidMetadata, i, err)
		}
		m.snapshots = append(m.snapshots, s)
	}
	for i, e := range mj.SnapshotLog {
		if e.TimestampMs == nil || e.SnapshotID == nil {
			return nil, metaErrorf(ErrInvalidMetadata, "snapshot-log entry %d needs timestamp-ms and snapshot-id", i)
		}
		m.snapshotLog = append(m.snapshotLog, SnapshotLogEntry{TimestampMs: *e.TimestampMs, SnapshotID: *e.SnapshotID})
	}
	m.snapRun, m.logRun = newSnapshotRun(m.snapshots), newSharedRun(m.snapshotLog)
	for i, e := range mj.MetadataLog {
		if e.TimestampMs == nil || e.MetadataFile == nil {
			return nil, metaErrorf(ErrInvalidMetadata, "metadata-log entry %d needs timestamp-ms and metadata-file", i)
		}
		m.metadataLog = append(m.metadataLog, MetadataLogEntry{TimestampMs: *e.TimestampMs, MetadataFile: *e.MetadataFile})
	}
	if err := m.refsFromJSON(mj); err != nil {
		return nil, err
	}
	m.statistics = mj.Statistics
	m.partitionStats = mj.PartitionStatistics
	if v >= 3 {
		if mj.NextRowID == nil {
			return nil, metaErrorf(ErrInvalidMetadata, "missing next-row-id (required in v3)")
		}
		m.nextRowID = *mj.NextRowID
	}
	return m, nil
}

func (m *TableMetadata) schemasFromJSON(mj *metadataJSON) error {
	if mj.Schemas == nil {
		if m.formatVersion >= 2 || !isJSONValue(mj.Schema) {
			return metaErrorf(ErrInvalidMetadata, "missing schemas")
		}
		s, err := ParseSchemaJSON(mj.Schema)
		if err != nil {
			return fmt.Errorf("%w: schema: %w", ErrInvalidMetadata, err)
		}
		m.schemas = []*Schema{s}
		m.currentSchemaID = s.ID
		return nil
	}
	if mj.CurrentSchemaID == nil {
		return metaErrorf(ErrInvalidMetadata, "missing current-schema-id")
	}
	m.currentSchemaID = *mj.CurrentSchemaID
	for i, raw := range mj.Schemas {
		s, err := ParseSchemaJSON(raw)
		if err != nil {
			return fmt.Errorf("%w: schemas[%d]: %w", ErrInvalidMetadata, i, err)
		}
		m.schemas = append(m.schemas, s)
	}
	return nil
}

func (m *TableMetadata) specsFromJSON(mj *metadataJSON) error {
	if mj.PartitionSpecs == nil {
		if m.formatVersion >= 2 || !isJSONValue(mj.PartitionSpec) {
			return metaErrorf(ErrInvalidMetadata, "missing partition-specs")
		}
		fields, err := v1FieldsWithIDs(mj.PartitionSpec)
		if err != nil {
			return err
		}
		spec, err := parseSpecJSON([]byte(`{"spec-id":0,"fields":` + string(fields) + `}`))
		if err != nil {
			return fmt.Errorf("%w: partition-spec: %w", ErrInvalidMetadata, err)
		}
		m.specs = []*PartitionSpec{spec}
	} else {
		if mj.DefaultSpecID == nil {
			return metaErrorf(ErrInvalidMetadata, "missing default-spec-id")
		}
		m.defaultSpecID = *mj.DefaultSpecID
		for i, raw := range mj.PartitionSpecs {
			if !isJSONValue(raw) {
				return metaErrorf(ErrInvalidMetadata, "partition-specs[%d] is null", i)
			}
			if m.formatVersion == 1 {
				var err error
				if raw, err = v1SpecWithIDs(raw); err != nil {
					return err
				}
			}
			spec, err := parseSpecJSON(raw)
			if err != nil {
				return fmt.Errorf("%w: partition-specs[%d]: %w", ErrInvalidMetadata, i, err)
			}
			m.specs = append(m.specs, spec)
		}
	}
	if mj.LastPartitionID != nil {
		m.lastPartitionID = *mj.LastPartitionID
	} else if m.formatVersion >= 2 {
		return metaErrorf(ErrInvalidMetadata, "missing last-partition-id")
	} else {
		m.lastPartitionID = PartitionFieldIDStart - 1
		for _, s := range m.specs {
			for _, f := range s.Fields {
				m.lastPartitionID = max(m.lastPartitionID, f.FieldID)
			}
		}
	}
	return nil
}

func parseSpecJSON(raw []byte) (*PartitionSpec, error) {
	spec := new(PartitionSpec)
	if err := json.Unmarshal(raw, spec); err != nil {
		return nil, err
	}
	return spec, nil
}

// v1FieldsWithIDs gives v1 partition fields written without "field-id"
// the ids Java assigns: 1000, 1001, ... in order.
func v1FieldsWithIDs(raw json.RawMessage) (json.RawMessage, error) {
	var fields []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, metaErrorf(ErrInvalidMetadata, "partition fields: %v", err)
	}
	for i, f := range fields {
		if f == nil {
			return nil, metaErrorf(ErrInvalidMetadata, "partition field %d is null", i)
		}
		if _, ok := f["field-id"]; !ok {
			f["field-id"] = json.RawMessage(fmt.Sprint(PartitionFieldIDStart + i))
		}
	}
	return json.Marshal(fields)
}

func v1SpecWithIDs(raw json.RawMessage) (json.RawMessage, error) {
	var spec map[string]json.RawMessage
	if err := json.Unmarshal(raw, &spec); err != nil || spec == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "partition spec is not an object")
	}
	if f, ok := spec["fields"]; ok {
		fields, err := v1FieldsWithIDs(f)
		if err != nil {
			return nil, err
		}
		spec["fields"] = fields
	}
	return json.Marshal(spec)
}

func (m *TableMetadata) sortOrdersFromJSON(mj *metadataJSON) error {
	if mj.SortOrders == nil {
		if m.formatVersion >= 2 {
			return metaErrorf(ErrInvalidMetadata, "missing sort-orders")
		}
		m.sortOrders = []*SortOrder{UnsortedOrder}
		m.defaultSortOrderID = UnsortedOrder.OrderID
		return nil
	}
	if mj.DefaultSortOrderID == nil {
		return metaErrorf(ErrInvalidMetadata, "missing default-sort-order-id")
	}
	m.defaultSortOrderID = *mj.DefaultSortOrderID
	for i, raw := range mj.SortOrders {
		if !isJSONValue(raw) {
			return metaErrorf(ErrInvalidMetadata, "sort-orders[%d] is null", i)
		}
		o := new(SortOrder)
		if err := json.Unmarshal(raw, o); err != nil {
			return fmt.Errorf("%w: sort-orders[%d]: %w", ErrInvalidMetadata, i, err)
		}
		m.sortOrders = append(m.sortOrders, o)
	}
	return nil
}

func (m *TableMetadata) refsFromJSON(mj *metadataJSON) error {
	m.refs = map[string]SnapshotRef{}
	if mj.Refs == nil {
		// Java synthesises main from current-snapshot-id when refs is absent.
		if m.currentSnapshotID != NoSnapshotID {
			m.refs[MainBranch] = NewBranch(m.currentSnapshotID)
		}
		return nil
	}
	for name, r := range mj.Refs {
		if r.SnapshotID == nil || r.Type == nil {
			return metaErrorf(ErrInvalidMetadata, "ref %q needs snapshot-id and type", name)
		}
		ref := SnapshotRef{SnapshotID: *r.SnapshotID, Type: RefType(*r.Type),
			MinSnapshotsToKeep: r.MinSnapshotsToKeep, MaxSnapshotAgeMs: r.MaxSnapshotAgeMs, MaxRefAgeMs: r.MaxRefAgeMs}
		m.refs[name] = ref
	}
	if _, ok := m.refs[MainBranch]; !ok && m.currentSnapshotID != NoSnapshotID {
		m.refs[MainBranch] = NewBranch(m.currentSnapshotID)
	}
	return nil
}

type snapshotJSON struct {
	SequenceNumber   *int64            `json:"sequence-number"`
	SnapshotID       *int64            `json:"snapshot-id"`
	ParentSnapshotID *int64            `json:"parent-snapshot-id"`
	TimestampMs      *int64            `json:"timestamp-ms"`
	Summary          map[string]string `json:"summary"`
	ManifestList     *string           `json:"manifest-list"`
	Manifests        []string          `json:"manifests"`
	SchemaID         *int              `json:"schema-id"`
	FirstRowID       *int64            `json:"first-row-id"`
	AddedRows        *int64            `json:"added-rows"`
	KeyID            *string           `json:"key-id"`
}

func snapshotFromJSON(raw json.RawMessage) (*Snapshot, error) {
	var sj snapshotJSON
	if err := json.Unmarshal(raw, &sj); err != nil {
		return nil, err
	}
	if sj.SnapshotID == nil || sj.TimestampMs == nil {
		return nil, fmt.Errorf("needs snapshot-id and timestamp-ms")
	}
	s := &Snapshot{SnapshotID: *sj.SnapshotID, ParentSnapshotID: sj.ParentSnapshotID, TimestampMs: *sj.TimestampMs,
		Summary: sj.Summary, Manifests: sj.Manifests, SchemaID: sj.SchemaID,
		FirstRowID: sj.FirstRowID, AddedRows: sj.AddedRows, KeyID: sj.KeyID}
	if sj.SequenceNumber != nil {
		s.SequenceNumber = *sj.SequenceNumber
	}
	if sj.ManifestList != nil {
		s.ManifestList = *sj.ManifestList
	}
	if s.Summary != nil && s.Summary[SummaryOperation] == "" {
		return nil, fmt.Errorf("snapshot %d: summary has no operation", s.SnapshotID)
	}
	return s, nil
}
