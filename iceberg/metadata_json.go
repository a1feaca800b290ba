package iceberg

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"sync"
)

// maxMetadataBytes bounds the decompressed size of a gzip metadata file so
// a corrupt or hostile file cannot exhaust memory.
const maxMetadataBytes = 1 << 30

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
			return nil, metaErrorf(ErrInvalidMetadata, "decompressed metadata exceeds %d bytes", maxMetadataBytes)
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

// MarshalJSON writes the metadata in Java's key order, in the metadata's own
// format version (v1 also gets the legacy "schema" and "partition-spec").
func (m *TableMetadata) MarshalJSON() ([]byte, error) {
	w := &orderedObject{}
	v := m.formatVersion
	w.add("format-version", v)
	w.add("table-uuid", m.uuid)
	w.add("location", m.location)
	if v >= 2 {
		w.add("last-sequence-number", m.lastSequenceNumber)
	}
	w.add("last-updated-ms", m.lastUpdatedMs)
	w.add("last-column-id", m.lastColumnID)
	if v >= 3 {
		w.add("next-row-id", m.nextRowID)
	}
	if v == 1 {
		w.add("schema", m.CurrentSchema())
	}
	w.add("current-schema-id", m.currentSchemaID)
	w.add("schemas", m.schemas)
	if v == 1 {
		if spec := m.CurrentSpec(); spec != nil {
			w.add("partition-spec", nonNilFields(spec.Fields))
		}
	}
	w.add("default-spec-id", m.defaultSpecID)
	w.add("partition-specs", m.specs)
	w.add("last-partition-id", m.lastPartitionID)
	w.add("default-sort-order-id", m.defaultSortOrderID)
	w.add("sort-orders", m.sortOrders)
	w.add("properties", nonNilMap(m.properties))
	if m.currentSnapshotID != NoSnapshotID || v < 3 {
		w.add("current-snapshot-id", m.currentSnapshotID)
	}
	if v >= 2 || len(m.refs) > 0 {
		w.add("refs", nonNilRefs(m.refs))
	}
	snaps, err := m.snapJSON.encode(m.snapshots)
	if err != nil {
		return nil, err
	}
	size := 0
	for _, s := range snaps {
		size += len(s) + 1
	}
	w.buf.Grow(size + 100*(len(m.snapshotLog)+len(m.metadataLog)) + 8<<10)
	w.add("snapshots", snaps)
	w.add("statistics", nonNilSlice(m.statistics))
	w.add("partition-statistics", nonNilSlice(m.partitionStats))
	w.add("snapshot-log", nonNilSlice(m.snapshotLog))
	w.add("metadata-log", nonNilSlice(m.metadataLog))
	keys := make([]string, 0, len(m.unknown))
	for k := range m.unknown {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w.add(k, json.RawMessage(m.unknown[k]))
	}
	return w.bytes()
}

func (s *Snapshot) marshal() ([]byte, error) {
	w := &orderedObject{}
	if s.SequenceNumber > 0 {
		w.add("sequence-number", s.SequenceNumber)
	}
	w.add("snapshot-id", s.SnapshotID)
	if s.ParentSnapshotID != nil {
		w.add("parent-snapshot-id", *s.ParentSnapshotID)
	}
	w.add("timestamp-ms", s.TimestampMs)
	if s.Summary != nil {
		sw := &orderedObject{}
		sw.add(SummaryOperation, s.Summary[SummaryOperation])
		keys := make([]string, 0, len(s.Summary))
		for k := range s.Summary {
			if k != SummaryOperation {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			sw.add(k, s.Summary[k])
		}
		b, err := sw.bytes()
		if err != nil {
			return nil, err
		}
		w.add("summary", json.RawMessage(b))
	}
	if s.ManifestList != "" {
		w.add("manifest-list", s.ManifestList)
	} else if len(s.Manifests) > 0 {
		w.add("manifests", s.Manifests)
	}
	if s.SchemaID != nil {
		w.add("schema-id", *s.SchemaID)
	}
	if s.FirstRowID != nil {
		w.add("first-row-id", *s.FirstRowID)
	}
	if s.AddedRows != nil {
		w.add("added-rows", *s.AddedRows)
	}
	if s.KeyID != nil {
		w.add("key-id", *s.KeyID)
	}
	return w.bytes()
}

// EncodeMetadata renders metadata as a metadata.json file: compact JSON,
// gzip-compressed when gzipped is true (for ".gz.metadata.json" names).
func EncodeMetadata(m *TableMetadata, gzipped bool) ([]byte, error) {
	// Compact, as PyIceberg and iceberg-go write it: indenting a long
	// history costs more than the rest of a commit's metadata work.
	b, err := m.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if !gzipped {
		return b, nil
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// orderedObject builds a JSON object with keys in insertion order.
type orderedObject struct {
	buf bytes.Buffer
	num [24]byte // scratch for numbers
	err error
}

func (o *orderedObject) add(key string, v any) {
	if o.err != nil {
		return
	}
	if o.buf.Len() == 0 {
		o.buf.WriteByte('{')
	} else {
		o.buf.WriteByte(',')
	}
	o.appendString(key)
	o.buf.WriteByte(':')
	// Fast paths, written straight into the buffer, for what metadata is
	// mostly made of; json.Marshal would reflect, and re-validate
	// RawMessages we produced ourselves.
	switch x := v.(type) {
	case string:
		o.appendString(x)
	case int64:
		o.buf.Write(strconv.AppendInt(o.num[:0], x, 10))
	case int:
		o.buf.Write(strconv.AppendInt(o.num[:0], int64(x), 10))
	case json.RawMessage:
		o.buf.Write(x)
	case []json.RawMessage:
		writeArray(o, x, func(r json.RawMessage) { o.buf.Write(r) })
	case []SnapshotLogEntry:
		writeArray(o, x, func(e SnapshotLogEntry) {
			o.buf.WriteString(`{"timestamp-ms":`)
			o.buf.Write(strconv.AppendInt(o.num[:0], e.TimestampMs, 10))
			o.buf.WriteString(`,"snapshot-id":`)
			o.buf.Write(strconv.AppendInt(o.num[:0], e.SnapshotID, 10))
			o.buf.WriteByte('}')
		})
	case []MetadataLogEntry:
		writeArray(o, x, func(e MetadataLogEntry) {
			o.buf.WriteString(`{"timestamp-ms":`)
			o.buf.Write(strconv.AppendInt(o.num[:0], e.TimestampMs, 10))
			o.buf.WriteString(`,"metadata-file":`)
			o.appendString(e.MetadataFile)
			o.buf.WriteByte('}')
		})
	default:
		vb, err := json.Marshal(v)
		if err != nil {
			o.err = fmt.Errorf("marshal %q: %w", key, err)
			return
		}
		o.buf.Write(vb)
	}
}

// writeArray writes xs as a JSON array, each element by write.
func writeArray[T any](o *orderedObject, xs []T, write func(T)) {
	o.buf.WriteByte('[')
	for i, e := range xs {
		if i > 0 {
			o.buf.WriteByte(',')
		}
		write(e)
	}
	o.buf.WriteByte(']')
}

// appendString writes s as a JSON string, escaped as encoding/json does.
func (o *orderedObject) appendString(s string) {
	if isPlainASCII(s) {
		o.buf.WriteByte('"')
		o.buf.WriteString(s)
		o.buf.WriteByte('"')
		return
	}
	b, _ := json.Marshal(s) // JSON escapes differ from Go's for non-ASCII and control bytes
	o.buf.Write(b)
}

// isPlainASCII reports whether s quotes the same in Go and JSON: printable
// ASCII without the characters JSON or Go escape differently.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '&' || c == '\\' || c == '"' {
			return false
		}
	}
	return true
}

// snapshotJSONCache holds the encoded form of snapshots. Snapshots never
// change once they are in metadata, so a commit encodes only its new
// snapshot instead of the whole history. The cache is shared between a
// metadata value and the versions built from it, and keeps only the
// snapshots of the version encoded last.
type snapshotJSONCache struct {
	mu sync.Mutex
	m  map[*Snapshot]json.RawMessage
}

func newSnapshotJSONCache() *snapshotJSONCache {
	return &snapshotJSONCache{m: map[*Snapshot]json.RawMessage{}}
}

func (c *snapshotJSONCache) encode(snaps []*Snapshot) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(snaps))
	if c == nil {
		for i, s := range snaps {
			b, err := s.marshal()
			if err != nil {
				return nil, err
			}
			out[i] = b
		}
		return out, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	next := make(map[*Snapshot]json.RawMessage, len(snaps))
	for i, s := range snaps {
		b, ok := c.m[s]
		if !ok {
			var err error
			if b, err = s.marshal(); err != nil {
				return nil, err
			}
		}
		out[i], next[s] = b, b
	}
	c.m = next
	return out, nil
}

func (o *orderedObject) bytes() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	if o.buf.Len() == 0 {
		return []byte("{}"), nil
	}
	o.buf.WriteByte('}')
	return o.buf.Bytes(), nil
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func nonNilFields(s []PartitionField) []PartitionField { return nonNilSlice(s) }

func nonNilMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func nonNilRefs(m map[string]SnapshotRef) map[string]SnapshotRef {
	if m == nil {
		return map[string]SnapshotRef{}
	}
	return m
}
