package sqlexec

import (
	"context"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
)

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var partitionSummaryType = arrow.ListOf(arrow.StructOf(
	arrow.Field{Name: "contains_null", Type: tBool},
	arrow.Field{Name: "contains_nan", Type: tBool, Nullable: true},
	arrow.Field{Name: "lower_bound", Type: tString, Nullable: true},
	arrow.Field{Name: "upper_bound", Type: tString, Nullable: true},
))

func (s *Session) manifestsTable(ctx context.Context, t *table.Table, snap *iceberg.Snapshot, name string) (planner.Table, error) {
	meta := t.Metadata()
	fields := []arrow.Field{field("content", tInt, false), field("path", tString, false), field("length", tLong, false),
		field("partition_spec_id", tInt, false), field("added_snapshot_id", tLong, false),
		field("added_data_files_count", tInt, false), field("existing_data_files_count", tInt, false),
		field("deleted_data_files_count", tInt, false), field("added_delete_files_count", tInt, false),
		field("existing_delete_files_count", tInt, false), field("deleted_delete_files_count", tInt, false),
		field("partition_summaries", partitionSummaryType, false)}
	snaps := []*iceberg.Snapshot{snap}
	if name == "all_manifests" {
		fields = append(fields, field("reference_snapshot_id", tLong, false))
		snaps = meta.Snapshots()
	}
	mt := &memTable{name: t.Ident().Name + "." + name, schema: schemaOf(fields...)}
	for _, sn := range snaps {
		mfs, err := table.ManifestsOf(ctx, t.IO(), sn)
		if err != nil {
			return nil, err
		}
		for _, mf := range mfs {
			var ad, ed, dd, adel, edel, ddel int32
			if mf.Content == iceberg.ManifestContentData {
				ad, ed, dd = mf.AddedFilesCount, mf.ExistingFilesCount, mf.DeletedFilesCount
			} else {
				adel, edel, ddel = mf.AddedFilesCount, mf.ExistingFilesCount, mf.DeletedFilesCount
			}
			row := []any{int32(mf.Content), mf.Path, mf.Length, int32(mf.SpecID), mf.AddedSnapshotID,
				ad, ed, dd, adel, edel, ddel, partitionSummaries(meta, mf)}
			if name == "all_manifests" {
				row = append(row, sn.SnapshotID)
			}
			mt.rows = append(mt.rows, row)
		}
	}
	return mt, nil
}

// partitionSummaries renders a manifest's partition field summaries with
// bounds as human strings, as Spark does.
func partitionSummaries(meta *iceberg.TableMetadata, mf iceberg.ManifestFile) []any {
	out := make([]any, 0, len(mf.Partitions))
	spec, _ := meta.SpecByID(mf.SpecID)
	var pt *iceberg.StructType
	if spec != nil {
		pt, _ = spec.PartitionType(meta.CurrentSchema())
	}
	for i, fs := range mf.Partitions {
		var nan any
		if fs.ContainsNaN != nil {
			nan = *fs.ContainsNaN
		}
		var lo, hi any
		if pt != nil && i < len(pt.FieldList) && i < len(spec.Fields) {
			ft := pt.FieldList[i].Type
			src, _ := meta.CurrentSchema().FindFieldByID(spec.Fields[i].SourceID)
			human := func(b []byte) any {
				if b == nil {
					return nil
				}
				v, err := iceberg.DeserializeValue(ft, b)
				if err != nil {
					return nil
				}
				return iceberg.HumanString(spec.Fields[i].Transform, src.Type, v)
			}
			lo, hi = human(fs.LowerBound), human(fs.UpperBound)
		}
		out = append(out, []any{fs.ContainsNull, nan, lo, hi})
	}
	return out
}

// fileColumns are the columns of the files tables, without partition.
func fileFields(partType arrow.DataType) []arrow.Field {
	intLong := arrow.MapOf(tInt, tLong)
	intBin := arrow.MapOf(tInt, arrow.BinaryTypes.Binary)
	fs := []arrow.Field{field("content", tInt, false), field("file_path", tString, false),
		field("file_format", tString, false), field("spec_id", tInt, false)}
	if partType != nil {
		fs = append(fs, field("partition", partType, false))
	}
	return append(fs, field("record_count", tLong, false), field("file_size_in_bytes", tLong, false),
		field("column_sizes", intLong, true), field("value_counts", intLong, true),
		field("null_value_counts", intLong, true), field("nan_value_counts", intLong, true),
		field("lower_bounds", intBin, true), field("upper_bounds", intBin, true),
		field("key_metadata", arrow.BinaryTypes.Binary, true), field("split_offsets", arrow.ListOf(tLong), true),
		field("equality_ids", arrow.ListOf(tInt), true), field("sort_order_id", tInt, true))
}

// partitionColumn is the partition struct type over all specs and a
// function giving a file's partition value in it (nil when the table was
// never partitioned).
func partitionColumn(meta *iceberg.TableMetadata) (arrow.DataType, func(iceberg.DataFile) any, error) {
	if meta.CurrentSpec().IsUnpartitioned() && len(meta.Specs()) <= 1 {
		return nil, nil, nil
	}
	u, err := newUnifiedPartition(meta)
	if err != nil {
		return nil, nil, err
	}
	at, err := u.arrowType()
	if err != nil {
		return nil, nil, err
	}
	return at, func(f iceberg.DataFile) any { return u.tuple(f) }, nil
}

func fileRow(f iceberg.DataFile, part func(iceberg.DataFile) any) []any {
	row := []any{int32(f.Content), f.FilePath, string(f.FileFormat), int32(f.SpecID)}
	if part != nil {
		row = append(row, part(f))
	}
	var sortID any
	if f.SortOrderID != nil {
		sortID = int32(*f.SortOrderID)
	}
	var split, eq any
	if f.SplitOffsets != nil {
		l := make([]any, len(f.SplitOffsets))
		for i, o := range f.SplitOffsets {
			l[i] = o
		}
		split = l
	}
	if f.EqualityIDs != nil {
		l := make([]any, len(f.EqualityIDs))
		for i, o := range f.EqualityIDs {
			l[i] = int32(o)
		}
		eq = l
	}
	var key any
	if f.KeyMetadata != nil {
		key = f.KeyMetadata
	}
	return append(row, f.RecordCount, f.FileSizeInBytes, idLongMap(f.ColumnSizes), idLongMap(f.ValueCounts),
		idLongMap(f.NullValueCounts), idLongMap(f.NaNValueCounts), idBinMap(f.LowerBounds), idBinMap(f.UpperBounds),
		key, split, eq, sortID)
}

func sortedIDs[V any](m map[int]V) []int {
	ids := make([]int, 0, len(m))
	for k := range m {
		ids = append(ids, k)
	}
	sort.Ints(ids)
	return ids
}

func idLongMap(m map[int]int64) any {
	if m == nil {
		return nil
	}
	out := [][2]any{}
	for _, k := range sortedIDs(m) {
		out = append(out, [2]any{int32(k), m[k]})
	}
	return out
}

func idBinMap(m map[int][]byte) any {
	if m == nil {
		return nil
	}
	out := [][2]any{}
	for _, k := range sortedIDs(m) {
		out = append(out, [2]any{int32(k), m[k]})
	}
	return out
}

// liveEntries reads every entry of the snapshot's manifests.
func liveEntries(ctx context.Context, t *table.Table, snap *iceberg.Snapshot) ([]iceberg.ManifestEntry, error) {
	mfs, err := table.ManifestsOf(ctx, t.IO(), snap)
	if err != nil {
		return nil, err
	}
	var out []iceberg.ManifestEntry
	for _, mf := range mfs {
		es, err := table.EntriesOf(ctx, t.IO(), t.Metadata(), mf)
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	return out, nil
}

func (s *Session) filesTable(ctx context.Context, t *table.Table, snap *iceberg.Snapshot, name string) (planner.Table, error) {
	meta := t.Metadata()
	partType, part, err := partitionColumn(meta)
	if err != nil {
		return nil, err
	}
	entries, err := liveEntries(ctx, t, snap)
	if err != nil {
		return nil, err
	}
	fields := fileFields(partType)
	mt := &memTable{name: t.Ident().Name + "." + name}
	if name == "entries" {
		mt.schema = schemaOf(field("status", tInt, false), field("snapshot_id", tLong, true),
			field("sequence_number", tLong, true), field("file_sequence_number", tLong, true),
			field("data_file", arrow.StructOf(fields...), false))
		for _, e := range entries {
			mt.rows = append(mt.rows, []any{int32(e.Status), optLong(e.SnapshotID), optLong(e.SequenceNumber),
				optLong(e.FileSequenceNumber), fileRow(e.DataFile, part)})
		}
		return mt, nil
	}
	mt.schema = schemaOf(fields...)
	for _, e := range entries {
		if e.Status == iceberg.StatusDeleted {
			continue
		}
		isData := e.DataFile.Content == iceberg.ContentData
		if (name == "data_files" && !isData) || (name == "delete_files" && isData) {
			continue
		}
		mt.rows = append(mt.rows, fileRow(e.DataFile, part))
	}
	return mt, nil
}

func (s *Session) partitionsTable(ctx context.Context, t *table.Table, snap *iceberg.Snapshot) (planner.Table, error) {
	meta := t.Metadata()
	partType, part, err := partitionColumn(meta)
	if err != nil {
		return nil, err
	}
	entries, err := liveEntries(ctx, t, snap)
	if err != nil {
		return nil, err
	}
	type agg struct {
		partition                      any
		specID                         int32
		records, size, posRecs, eqRecs int64
		files, posFiles, eqFiles       int32
		lastUpdatedMs                  int64
		lastSnapshot                   any
	}
	var order []string
	groups := map[string]*agg{}
	for _, e := range entries {
		if e.Status == iceberg.StatusDeleted {
			continue
		}
		f := e.DataFile
		var pv any
		key := ""
		if part != nil {
			// Java groups by the unified tuple and the file's spec.
			pv = part(f)
			key = iceberg.PartitionKey(f.SpecID, pv.([]any))
		}
		g := groups[key]
		if g == nil {
			g = &agg{partition: pv, specID: int32(f.SpecID)}
			groups[key] = g
			order = append(order, key)
		}
		switch f.Content {
		case iceberg.ContentData:
			g.records += f.RecordCount
			g.files++
			g.size += f.FileSizeInBytes
		case iceberg.ContentPositionDeletes:
			g.posRecs += f.RecordCount
			g.posFiles++
		default:
			g.eqRecs += f.RecordCount
			g.eqFiles++
		}
		if e.SnapshotID != nil {
			if sn, ok := meta.SnapshotByID(*e.SnapshotID); ok && sn.TimestampMs >= g.lastUpdatedMs {
				g.lastUpdatedMs = sn.TimestampMs
				g.lastSnapshot = sn.SnapshotID
			}
		}
	}
	var fields []arrow.Field
	if partType != nil {
		fields = append(fields, field("partition", partType, false), field("spec_id", tInt, false))
	}
	fields = append(fields, field("record_count", tLong, false), field("file_count", tInt, false),
		field("total_data_file_size_in_bytes", tLong, false), field("position_delete_record_count", tLong, false),
		field("position_delete_file_count", tInt, false), field("equality_delete_record_count", tLong, false),
		field("equality_delete_file_count", tInt, false), field("last_updated_at", tTimestamp, true),
		field("last_updated_snapshot_id", tLong, true))
	mt := &memTable{name: t.Ident().Name + ".partitions", schema: schemaOf(fields...)}
	sort.Strings(order)
	for _, k := range order {
		g := groups[k]
		var row []any
		if partType != nil {
			row = append(row, g.partition, g.specID)
		}
		var last any
		if g.lastSnapshot != nil {
			last = msTimestamp(g.lastUpdatedMs)
		}
		row = append(row, g.records, g.files, g.size, g.posRecs, g.posFiles, g.eqRecs, g.eqFiles, last, g.lastSnapshot)
		mt.rows = append(mt.rows, row)
	}
	return mt, nil
}
