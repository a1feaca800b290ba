package iceberg

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"
)

// Writing metadata.json: Java's key order, hand-written encodings of the
// values metadata is mostly made of, and a cache of encoded snapshots.

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
