package iceberg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// Writing metadata.json: Java's key order, hand-written encodings of the
// values metadata is mostly made of, and a cache of encoded snapshots.

// MarshalJSON writes the metadata in Java's key order, in the metadata's own
// format version (v1 also gets the legacy "schema" and "partition-spec").
func (m *TableMetadata) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := m.writeJSON(&buf, false); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeJSON writes what MarshalJSON returns to out, gzip-compressed when
// gz is set, in five pieces: the keys before "snapshots", the snapshots,
// the keys between them and "snapshot-log", the snapshot log, and the
// keys after. The snapshots and the log are encoded once per entry and
// kept (fragCache), so a commit encodes only its new entries and copies
// the history straight from the cache; compressed, the history is copied
// as deflate runs compressed once (see spliceGzip).
func (m *TableMetadata) writeJSON(out io.Writer, gz bool) error {
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
	w.key("snapshots")
	w.buf.WriteByte('[')
	if w.err != nil {
		return w.err
	}
	head := w.buf.Bytes()

	w = &orderedObject{started: true}
	w.buf.WriteByte(']')
	w.add("statistics", nonNilSlice(m.statistics))
	w.add("partition-statistics", nonNilSlice(m.partitionStats))
	w.key("snapshot-log")
	w.buf.WriteByte('[')
	if w.err != nil {
		return w.err
	}
	mid := w.buf.Bytes()

	w = &orderedObject{started: true}
	w.buf.Grow(120*len(m.metadataLog) + 1<<10)
	w.buf.WriteByte(']')
	w.add("metadata-log", nonNilSlice(m.metadataLog))
	keys := make([]string, 0, len(m.unknown))
	for k := range m.unknown {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w.add(k, json.RawMessage(m.unknown[k]))
	}
	tail, err := w.bytes()
	if err != nil {
		return err
	}

	var snapCache *fragCache[*Snapshot]
	var logCache *fragCache[SnapshotLogEntry]
	if m.snapJSON != nil {
		snapCache, logCache = &m.snapJSON.snaps, &m.snapJSON.log
	}
	if !gz {
		snaps, err := snapCache.encode(m.snapshots, (*Snapshot).marshal)
		if err != nil {
			return err
		}
		log, err := logCache.encode(m.snapshotLog, marshalSnapshotLogEntry)
		if err != nil {
			return err
		}
		for _, b := range [][]byte{head, snaps, mid, log, tail} {
			if _, err := out.Write(b); err != nil {
				return err
			}
		}
		return nil
	}
	snapPre, snapRuns, snapRest, err := snapCache.encodeRuns(m.snapshots, (*Snapshot).marshal)
	if err != nil {
		return err
	}
	logPre, logRuns, logRest, err := logCache.encodeRuns(m.snapshotLog, marshalSnapshotLogEntry)
	if err != nil {
		return err
	}
	z := newSpliceGzip(out)
	z.plain(head)
	z.plain(snapPre)
	z.runs(snapRuns)
	z.plain(snapRest)
	z.plain(mid)
	z.plain(logPre)
	z.runs(logRuns)
	z.plain(logRest)
	z.plain(tail)
	return z.close()
}

func marshalSnapshotLogEntry(e SnapshotLogEntry) ([]byte, error) {
	b := make([]byte, 0, 64)
	b = append(b, `{"timestamp-ms":`...)
	b = strconv.AppendInt(b, e.TimestampMs, 10)
	b = append(b, `,"snapshot-id":`...)
	b = strconv.AppendInt(b, e.SnapshotID, 10)
	return append(b, '}'), nil
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
	var buf bytes.Buffer
	if err := WriteMetadata(&buf, m, gzipped); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteMetadata writes what EncodeMetadata returns to w, without holding
// the whole file in memory: most of a long history is copied to w from
// the encoded snapshots kept between commits.
func WriteMetadata(w io.Writer, m *TableMetadata, gzipped bool) error {
	// Compact, as PyIceberg and iceberg-go write it: indenting a long
	// history costs more than the rest of a commit's metadata work.
	return m.writeJSON(w, gzipped)
}

// orderedObject builds a JSON object with keys in insertion order.
type orderedObject struct {
	buf     bytes.Buffer
	num     [24]byte // scratch for numbers
	err     error
	started bool // '{' is written (here or, for a continued object, before)
}

// key starts the next member.
func (o *orderedObject) key(key string) {
	if !o.started {
		o.buf.WriteByte('{')
		o.started = true
	} else {
		o.buf.WriteByte(',')
	}
	o.appendString(key)
	o.buf.WriteByte(':')
}

func (o *orderedObject) add(key string, v any) {
	if o.err != nil {
		return
	}
	o.key(key)
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

func (o *orderedObject) bytes() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	if !o.started {
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
