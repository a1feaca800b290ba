package sqlexec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

// memTable is an in-memory planner table (metadata tables).
type memTable struct {
	name   string
	schema *arrow.Schema
	rows   [][]any
}

var _ planner.Table = (*memTable)(nil)

func (m *memTable) Name() string          { return m.name }
func (m *memTable) Schema() *arrow.Schema { return m.schema }

func (m *memTable) Scan(ctx context.Context, req planner.ScanRequest) (exec.RecordIterator, error) {
	fields := make([]arrow.Field, len(req.Columns))
	rows := make([][]any, len(m.rows))
	for i, c := range req.Columns {
		fields[i] = m.schema.Field(c)
	}
	for r, row := range m.rows {
		out := make([]any, len(req.Columns))
		for i, c := range req.Columns {
			out[i] = row[c]
		}
		rows[r] = out
	}
	sch := arrow.NewSchema(fields, nil)
	if len(fields) == 0 {
		// Only the row count is wanted (COUNT(*)).
		return &batchIterator{schema: sch, batches: []arrow.RecordBatch{array.NewRecordBatch(sch, nil, int64(len(rows)))}}, nil
	}
	return rowsIterator(sch, rows)
}

// metadataTable builds a metadata table of t as of snap.
func (s *Session) metadataTable(ctx context.Context, t *table.Table, snap *iceberg.Snapshot, name string) (planner.Table, error) {
	meta := t.Metadata()
	fio := t.IO()
	mt := &memTable{name: t.Ident().Name + "." + name}
	switch name {
	case "snapshots":
		mt.schema = schemaOf(field("committed_at", tTimestamp, false), field("snapshot_id", tLong, false),
			field("parent_id", tLong, true), field("operation", tString, true), field("manifest_list", tString, true),
			field("summary", tStrMap, true))
		for _, sn := range meta.Snapshots() {
			var summary map[string]string
			if sn.Summary != nil {
				summary = sn.Summary
			}
			mt.rows = append(mt.rows, []any{msTimestamp(sn.TimestampMs), sn.SnapshotID, optLong(sn.ParentSnapshotID),
				optString(string(sn.Operation())), optString(sn.ManifestList), anyOrNil(summary)})
		}
	case "history":
		mt.schema = schemaOf(field("made_current_at", tTimestamp, false), field("snapshot_id", tLong, false),
			field("parent_id", tLong, true), field("is_current_ancestor", tBool, false))
		ancestors := map[int64]bool{}
		if cur := meta.CurrentSnapshot(); cur != nil {
			for a := range meta.Ancestors(cur.SnapshotID) {
				ancestors[a.SnapshotID] = true
			}
		}
		for _, e := range meta.SnapshotLog() {
			var parent any
			if sn, ok := meta.SnapshotByID(e.SnapshotID); ok {
				parent = optLong(sn.ParentSnapshotID)
			}
			mt.rows = append(mt.rows, []any{msTimestamp(e.TimestampMs), e.SnapshotID, parent, ancestors[e.SnapshotID]})
		}
	case "metadata_log_entries":
		mt.schema = schemaOf(field("timestamp", tTimestamp, false), field("file", tString, false),
			field("latest_snapshot_id", tLong, true), field("latest_schema_id", tInt, true),
			field("latest_sequence_number", tLong, true))
		entries := append(append([]iceberg.MetadataLogEntry(nil), meta.MetadataLog()...),
			iceberg.MetadataLogEntry{TimestampMs: meta.LastUpdatedMs(), MetadataFile: t.MetadataLocation()})
		for _, e := range entries {
			// The snapshot current when the file was written: the latest
			// snapshot-log entry at or before its timestamp.
			var snapID, schemaID, seq any
			for _, l := range meta.SnapshotLog() {
				if l.TimestampMs <= e.TimestampMs {
					snapID = l.SnapshotID
				}
			}
			if id, ok := snapID.(int64); ok {
				if sn, ok := meta.SnapshotByID(id); ok {
					seq = sn.SequenceNumber
					if sn.SchemaID != nil {
						schemaID = int32(*sn.SchemaID)
					}
				}
			}
			mt.rows = append(mt.rows, []any{msTimestamp(e.TimestampMs), e.MetadataFile, snapID, schemaID, seq})
		}
	case "refs":
		mt.schema = schemaOf(field("name", tString, false), field("type", tString, false), field("snapshot_id", tLong, false),
			field("max_reference_age_in_ms", tLong, true), field("min_snapshots_to_keep", tInt, true),
			field("max_snapshot_age_in_ms", tLong, true))
		for _, name := range sortedKeys(meta.Refs()) {
			r := meta.Refs()[name]
			var minKeep any
			if r.MinSnapshotsToKeep != nil {
				minKeep = int32(*r.MinSnapshotsToKeep)
			}
			mt.rows = append(mt.rows, []any{name, upper(string(r.Type)), r.SnapshotID, optLong(r.MaxRefAgeMs), minKeep, optLong(r.MaxSnapshotAgeMs)})
		}
	case "manifests", "all_manifests":
		return s.manifestsTable(ctx, t, snap, name)
	case "files", "data_files", "delete_files", "entries":
		return s.filesTable(ctx, t, snap, name)
	case "partitions":
		return s.partitionsTable(ctx, t, snap)
	default:
		return nil, notSupported("metadata table %s", name)
	}
	_ = fio
	return mt, nil
}

func msTimestamp(ms int64) any { return iceberg.Timestamp(ms * 1000) }

func optLong(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func optString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func anyOrNil(m map[string]string) any {
	if m == nil {
		return nil
	}
	return m
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}
