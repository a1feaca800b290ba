package table_test

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	_ "github.com/mattn/go-sqlite3"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// Field ids of the manifest list's manifest_file record (spec and Java's
// ManifestFile); 504-506 carry the spec's names, as Java since 1.4.
var manifestFileIDs = map[string]int{"manifest_path": 500, "manifest_length": 501, "partition_spec_id": 502,
	"content": 517, "sequence_number": 515, "min_sequence_number": 516, "added_snapshot_id": 503,
	"added_files_count": 504, "existing_files_count": 505, "deleted_files_count": 506,
	"added_rows_count": 512, "existing_rows_count": 513, "deleted_rows_count": 514, "partitions": 507, "key_metadata": 519}

// Field ids of data_file (r2), with the key and value ids of its maps and
// the element ids of its lists.
var dataFileIDs = map[string][3]int{"content": {134}, "file_path": {100}, "file_format": {101}, "partition": {102},
	"record_count": {103}, "file_size_in_bytes": {104}, "column_sizes": {108, 117, 118}, "value_counts": {109, 119, 120},
	"null_value_counts": {110, 121, 122}, "nan_value_counts": {137, 138, 139}, "lower_bounds": {125, 126, 127},
	"upper_bounds": {128, 129, 130}, "key_metadata": {131}, "split_offsets": {132, 133}, "equality_ids": {135, 136},
	"sort_order_id": {140}, "referenced_data_file": {143}}

var requiredDataFileFields = []string{"content", "file_path", "file_format", "partition", "record_count", "file_size_in_bytes"}

func checkManifestLists(t *testing.T, s *scenario, version int) {
	meta := s.last().Metadata()
	for _, snap := range meta.Snapshots() {
		t.Run(strconv.FormatInt(snap.SequenceNumber, 10), func(t *testing.T) {
			af := readAvro(t, s.last().IO(), snap.ManifestList)
			parent := "null" // Java writes the string "null" without a parent
			if snap.ParentSnapshotID != nil {
				parent = strconv.FormatInt(*snap.ParentSnapshotID, 10)
			}
			wantMeta := map[string]string{"snapshot-id": strconv.FormatInt(snap.SnapshotID, 10), "parent-snapshot-id": parent,
				"sequence-number": strconv.FormatInt(snap.SequenceNumber, 10), "format-version": strconv.Itoa(version)}
			if version >= 3 {
				wantMeta["first-row-id"] = strconv.FormatInt(*snap.FirstRowID, 10)
			}
			for k, v := range wantMeta {
				if af.meta[k] != v {
					t.Errorf("header %q = %q, want %q", k, af.meta[k], v)
				}
			}
			if c := af.meta["avro.codec"]; !slices.Contains([]string{"", "null", "deflate", "snappy", "zstandard"}, c) {
				t.Errorf("avro.codec %q", c)
			}
			checkManifestListSchema(t, af.schema, version)
			for _, rec := range af.records {
				checkManifestListEntry(t, s, snap, rec, version)
			}
		})
	}
}

func checkManifestListSchema(t *testing.T, schema map[string]any, version int) {
	if schema["name"] != "manifest_file" {
		t.Errorf("record name %v, want manifest_file", schema["name"])
	}
	ids := manifestFileIDs
	if version >= 3 {
		ids = maps2(ids, map[string]int{"first_row_id": 520})
	}
	for name, id := range ids {
		f := avroField(t, schema, name)
		if fieldID(f) != id {
			t.Errorf("%s: field-id %d, want %d", name, fieldID(f), id)
		}
		if name == "partitions" || name == "key_metadata" || name == "first_row_id" {
			inner := optionalInner(t, f)
			if name == "partitions" {
				arr, _ := inner.(map[string]any)
				if arr["type"] != "array" || arr["element-id"] != float64(508) {
					t.Fatalf("partitions: %v, want an array with element-id 508", inner)
				}
				rec, _ := arr["items"].(map[string]any)
				if rec["name"] != "r508" {
					t.Errorf("field_summary record named %v, want r508", rec["name"])
				}
				for n, id := range map[string]int{"contains_null": 509, "contains_nan": 518, "lower_bound": 510, "upper_bound": 511} {
					sf := avroField(t, rec, n)
					if fieldID(sf) != id {
						t.Errorf("%s: field-id %d, want %d", n, fieldID(sf), id)
					}
					if n != "contains_null" {
						optionalInner(t, sf)
					} else if sf["type"] != "boolean" {
						t.Errorf("contains_null: %v, want required boolean", sf["type"])
					}
				}
			}
		} else if _, isUnion := f["type"].([]any); isUnion {
			t.Errorf("%s is required in v%d but written as a union", name, version)
		}
	}
}

func maps2(a, b map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// checkManifestListEntry checks one manifest_file against the manifest it
// points to.
func checkManifestListEntry(t *testing.T, s *scenario, snap *iceberg.Snapshot, rec map[string]any, version int) {
	path, _ := rec["manifest_path"].(string)
	mf := readAvro(t, s.last().IO(), path)
	if got, _ := asInt64(rec["manifest_length"]); got != mf.size {
		t.Errorf("%s: manifest_length %d, file has %d bytes", filepath.Base(path), got, mf.size)
	}
	added, _ := asInt64(rec["added_snapshot_id"])
	seq, _ := asInt64(rec["sequence_number"])
	if added == snap.SnapshotID && seq != snap.SequenceNumber {
		t.Errorf("%s: new manifest has sequence_number %d, want the snapshot's %d", filepath.Base(path), seq, snap.SequenceNumber)
	}
	content, _ := asInt64(rec["content"])
	wantContent := map[int64]string{0: "data", 1: "deletes"}[content]
	if mf.meta["content"] != wantContent {
		t.Errorf("%s: list content %d, manifest header content %q", filepath.Base(path), content, mf.meta["content"])
	}
	var counts [3]int64
	var rows [3]int64
	minSeq := int64(-1)
	for _, e := range mf.records {
		status, _ := asInt64(e["status"])
		df := e["data_file"].(map[string]any)
		n, _ := asInt64(df["record_count"])
		idx := map[int64]int{1: 0, 0: 1, 2: 2}[status]
		counts[idx]++
		rows[idx] += n
		if status != 2 {
			dseq, ok := asInt64(e["sequence_number"])
			if !ok {
				dseq = seq // inherited
			}
			if minSeq < 0 || dseq < minSeq {
				minSeq = dseq
			}
		}
	}
	names := [3]string{"added", "existing", "deleted"}
	for i := range 3 {
		if got, _ := asInt64(rec[names[i]+"_files_count"]); got != counts[i] {
			t.Errorf("%s: %s_files_count %d, manifest has %d", filepath.Base(path), names[i], got, counts[i])
		}
		if got, _ := asInt64(rec[names[i]+"_rows_count"]); got != rows[i] {
			t.Errorf("%s: %s_rows_count %d, manifest has %d", filepath.Base(path), names[i], got, rows[i])
		}
	}
	if got, _ := asInt64(rec["min_sequence_number"]); minSeq >= 0 && got != minSeq {
		t.Errorf("%s: min_sequence_number %d, want %d (lowest data seq of live entries)", filepath.Base(path), got, minSeq)
	}
	if version >= 3 {
		_, has := asInt64(rec["first_row_id"])
		if has != (content == 0) {
			t.Errorf("%s: first_row_id %v for content %d", filepath.Base(path), rec["first_row_id"], content)
		}
	}
	checkPartitionSummaries(t, s, rec, path)
}

// checkPartitionSummaries recomputes the field summaries from the
// manifest's entries (every status, as Java's writer counts them).
func checkPartitionSummaries(t *testing.T, s *scenario, rec map[string]any, path string) {
	meta := s.last().Metadata()
	ml, err := table.ManifestsOf(context.Background(), s.last().IO(), meta.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	var mf *iceberg.ManifestFile
	for i := range ml {
		if ml[i].Path == path {
			mf = &ml[i]
		}
	}
	if mf == nil {
		return // a manifest no longer in the current snapshot
	}
	spec, _ := meta.SpecByID(mf.SpecID)
	pt, err := spec.PartitionType(meta.CurrentSchema())
	if err != nil {
		t.Fatal(err)
	}
	entries, err := table.EntriesOf(context.Background(), s.last().IO(), meta, *mf)
	if err != nil {
		t.Fatal(err)
	}
	sums, _ := rec["partitions"].([]any)
	if len(sums) != len(pt.FieldList) {
		t.Fatalf("%s: %d partition summaries for %d partition fields", filepath.Base(path), len(sums), len(pt.FieldList))
	}
	for i, f := range pt.FieldList {
		var vals []any
		hasNull := false
		for _, e := range entries {
			if v := e.DataFile.Partition[i]; v == nil {
				hasNull = true
			} else {
				vals = append(vals, v)
			}
		}
		sum := sums[i].(map[string]any)
		if sum["contains_null"] != hasNull {
			t.Errorf("%s: %s contains_null %v, want %v", filepath.Base(path), f.Name, sum["contains_null"], hasNull)
		}
		if sum["contains_nan"] != false {
			t.Errorf("%s: %s contains_nan %v, want false (not a float)", filepath.Base(path), f.Name, sum["contains_nan"])
		}
		slices.SortFunc(vals, comparePartitionValues)
		for j, key := range []string{"lower_bound", "upper_bound"} {
			want, _ := iceberg.SerializeValue(f.Type, vals[j*(len(vals)-1)])
			if got, _ := sum[key].([]byte); !bytes.Equal(got, want) {
				t.Errorf("%s: %s %s %x, want %x (single-value form of %s)", filepath.Base(path), f.Name, key, got, want, f.Type)
			}
		}
	}
}

func comparePartitionValues(a, b any) int {
	switch x := a.(type) {
	case string:
		return cmp.Compare(x, b.(string))
	case iceberg.Date:
		return cmp.Compare(x, b.(iceberg.Date))
	case int32:
		return cmp.Compare(x, b.(int32))
	}
	return 0
}

func checkManifests(t *testing.T, s *scenario, version int) {
	meta := s.last().Metadata()
	seen := map[string]bool{}
	for _, snap := range meta.Snapshots() {
		mfs, err := table.ManifestsOf(context.Background(), s.last().IO(), snap)
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if seen[mf.Path] {
				continue
			}
			seen[mf.Path] = true
			t.Run(filepath.Base(mf.Path), func(t *testing.T) { checkManifest(t, s, mf, version) })
		}
	}
	if len(seen) < 4 {
		t.Fatalf("only %d manifests checked", len(seen))
	}
}

func checkManifest(t *testing.T, s *scenario, mf iceberg.ManifestFile, version int) {
	meta := s.last().Metadata()
	af := readAvro(t, s.last().IO(), mf.Path)
	spec, _ := meta.SpecByID(mf.SpecID)
	specJSON, _ := json.Marshal(spec.Fields)
	var gotSpec, wantSpec any
	json.Unmarshal([]byte(af.meta["partition-spec"]), &gotSpec)
	json.Unmarshal(specJSON, &wantSpec)
	if !jsonEqual(gotSpec, wantSpec) {
		t.Errorf("partition-spec %s, want the spec's fields %s", af.meta["partition-spec"], specJSON)
	}
	var sch map[string]any
	if err := json.Unmarshal([]byte(af.meta["schema"]), &sch); err != nil {
		t.Errorf("schema header: %v", err)
	}
	if sch["type"] != "struct" || strconv.Itoa(int(sch["schema-id"].(float64))) != af.meta["schema-id"] {
		t.Errorf("schema %v with schema-id header %q", sch["schema-id"], af.meta["schema-id"])
	}
	want := map[string]string{"partition-spec-id": strconv.Itoa(mf.SpecID), "format-version": strconv.Itoa(version),
		"content": map[iceberg.ManifestContent]string{iceberg.ManifestContentData: "data", iceberg.ManifestContentDeletes: "deletes"}[mf.Content]}
	for k, v := range want {
		if af.meta[k] != v {
			t.Errorf("header %q = %q, want %q", k, af.meta[k], v)
		}
	}
	checkEntrySchema(t, af.schema, spec, version)

	schemaIDs := map[int]bool{}
	for _, sc := range meta.Schemas() {
		for _, f := range sc.Fields() {
			schemaIDs[f.ID] = true
		}
	}
	for _, e := range af.records {
		status, _ := asInt64(e["status"])
		_, hasSnap := asInt64(e["snapshot_id"])
		_, hasSeq := asInt64(e["sequence_number"])
		_, hasFileSeq := asInt64(e["file_sequence_number"])
		switch {
		case status == 1 && mf.AddedSnapshotID != 0 && (hasSnap || hasSeq || hasFileSeq):
			t.Errorf("ADDED entry carries snapshot_id/sequence numbers; they must be inherited")
		case status != 1 && !(hasSnap && hasSeq && hasFileSeq):
			t.Errorf("status %d entry without explicit snapshot_id and sequence numbers", status)
		}
		if sid, _ := asInt64(e["snapshot_id"]); status == 2 && sid != mf.AddedSnapshotID {
			t.Errorf("DELETED entry snapshot_id %d, want the deleting snapshot %d", sid, mf.AddedSnapshotID)
		}
		checkDataFile(t, s, e["data_file"].(map[string]any), mf.Content, schemaIDs)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func checkEntrySchema(t *testing.T, schema map[string]any, spec *iceberg.PartitionSpec, version int) {
	if schema["name"] != "manifest_entry" {
		t.Errorf("record name %v, want manifest_entry", schema["name"])
	}
	for name, id := range map[string]int{"status": 0, "snapshot_id": 1, "sequence_number": 3, "file_sequence_number": 4, "data_file": 2} {
		f := avroField(t, schema, name)
		if fieldID(f) != id {
			t.Errorf("%s: field-id %d, want %d", name, fieldID(f), id)
		}
		if name == "snapshot_id" || name == "sequence_number" || name == "file_sequence_number" {
			if optionalInner(t, f) != "long" {
				t.Errorf("%s: want optional long", name)
			}
		}
	}
	r2, _ := avroField(t, schema, "data_file")["type"].(map[string]any)
	if r2["name"] != "r2" {
		t.Fatalf("data_file record named %v, want r2", r2["name"])
	}
	ids := dataFileIDs
	if version >= 3 {
		ids = map[string][3]int{}
		for k, v := range dataFileIDs {
			ids[k] = v
		}
		ids["first_row_id"] = [3]int{142}
	}
	for name, want := range ids {
		f := avroField(t, r2, name)
		if fieldID(f) != want[0] {
			t.Errorf("%s: field-id %d, want %d", name, fieldID(f), want[0])
		}
		if slices.Contains(requiredDataFileFields, name) {
			if _, isUnion := f["type"].([]any); isUnion {
				t.Errorf("%s is required but written as a union", name)
			}
			continue
		}
		inner, _ := optionalInner(t, f).(map[string]any)
		switch {
		case want[2] != 0: // int-keyed map: array of k<id>_v<id> records
			items, _ := inner["items"].(map[string]any)
			if inner["type"] != "array" || inner["logicalType"] != "map" || items["name"] != "k"+strconv.Itoa(want[1])+"_v"+strconv.Itoa(want[2]) {
				t.Errorf("%s: %v, want an array of k%d_v%d records with logicalType map", name, inner, want[1], want[2])
				continue
			}
			if fieldID(avroField(t, items, "key")) != want[1] || fieldID(avroField(t, items, "value")) != want[2] {
				t.Errorf("%s: key/value ids, want %d/%d", name, want[1], want[2])
			}
		case want[1] != 0:
			if inner["type"] != "array" || inner["element-id"] != float64(want[1]) {
				t.Errorf("%s: %v, want an array with element-id %d", name, inner, want[1])
			}
		}
	}
	r102, _ := avroField(t, r2, "partition")["type"].(map[string]any)
	if r102["name"] != "r102" {
		t.Errorf("partition record named %v, want r102", r102["name"])
	}
	fields, _ := r102["fields"].([]any)
	if len(fields) != len(spec.Fields) {
		t.Fatalf("partition record has %d fields, spec %d", len(fields), len(spec.Fields))
	}
	for i, pf := range spec.Fields {
		f := fields[i].(map[string]any)
		if f["name"] != pf.Name || fieldID(f) != pf.FieldID {
			t.Errorf("partition field %d: %v/%d, want %s/%d", i, f["name"], fieldID(f), pf.Name, pf.FieldID)
		}
		optionalInner(t, f)
	}
}

const (
	deleteFilePathID = 2147483546
	deletePosID      = 2147483545
)

func checkDataFile(t *testing.T, s *scenario, df map[string]any, content iceberg.ManifestContent, schemaIDs map[int]bool) {
	path, _ := df["file_path"].(string)
	name := filepath.Base(path)
	if df["file_format"] != "PARQUET" {
		t.Errorf("%s: file_format %v, want PARQUET", name, df["file_format"])
	}
	offsets, _ := df["split_offsets"].([]any)
	if len(offsets) == 0 || !slices.IsSortedFunc(offsets, func(a, b any) int { x, _ := asInt64(a); y, _ := asInt64(b); return cmp.Compare(x, y) }) {
		t.Errorf("%s: split_offsets %v, want ascending row group offsets", name, offsets)
	}
	fc, _ := asInt64(df["content"])
	allowed := schemaIDs
	if content == iceberg.ManifestContentDeletes {
		allowed = map[int]bool{deleteFilePathID: true, deletePosID: true}
		if fc != 1 {
			t.Errorf("%s: content %d, want 1 (position deletes)", name, fc)
		}
		if df["referenced_data_file"] != s.deletedFrom.FilePath {
			t.Errorf("%s: referenced_data_file %v, want %s", name, df["referenced_data_file"], s.deletedFrom.FilePath)
		}
		if df["sort_order_id"] != nil {
			t.Errorf("%s: sort_order_id %v on a position delete file", name, df["sort_order_id"])
		}
		lo, hi := metricBytes(df, "lower_bounds", deleteFilePathID), metricBytes(df, "upper_bounds", deleteFilePathID)
		if string(lo) != s.deletedFrom.FilePath || string(hi) != s.deletedFrom.FilePath {
			t.Errorf("%s: file_path bounds %q..%q, want the full referenced path", name, lo, hi)
		}
	} else {
		if fc != 0 {
			t.Errorf("%s: content %d in a data manifest", name, fc)
		}
		if id, _ := asInt64(df["sort_order_id"]); id != 1 {
			t.Errorf("%s: sort_order_id %v, want 1", name, df["sort_order_id"])
		}
		if df["referenced_data_file"] != nil {
			t.Errorf("%s: referenced_data_file on a data file", name)
		}
		for _, id := range []int{2, 5} { // string columns: truncate(16)
			for _, key := range []string{"lower_bounds", "upper_bounds"} {
				if b := metricBytes(df, key, id); b != nil && (!utf8.Valid(b) || utf8.RuneCount(b) > 16) {
					t.Errorf("%s: %s[%d] %q is not a valid string of at most 16 code points", name, key, id, b)
				}
			}
		}
	}
	for _, key := range []string{"column_sizes", "value_counts", "null_value_counts", "nan_value_counts", "lower_bounds", "upper_bounds"} {
		m, _ := df[key].([]any)
		for _, kv := range m {
			id, _ := asInt64(kv.(map[string]any)["key"])
			if !allowed[int(id)] {
				t.Errorf("%s: %s keyed by %d, not a field id of the file's schema", name, key, id)
			}
			if key == "nan_value_counts" && id != 4 {
				t.Errorf("%s: nan_value_counts for non-float field %d", name, id)
			}
		}
	}
	for id := range allowed {
		vc, hasV := metricInt(df, "value_counts", id)
		nc, hasN := metricInt(df, "null_value_counts", id)
		if hasV && hasN && nc > vc {
			t.Errorf("%s: field %d has %d nulls of %d values", name, id, nc, vc)
		}
		lo, hi := metricBytes(df, "lower_bounds", id), metricBytes(df, "upper_bounds", id)
		if (lo == nil) != (hi == nil) {
			t.Errorf("%s: field %d has only one bound", name, id)
		}
	}
}

func metricBytes(df map[string]any, key string, id int) []byte {
	m, _ := df[key].([]any)
	for _, kv := range m {
		e := kv.(map[string]any)
		if k, _ := asInt64(e["key"]); k == int64(id) {
			b, _ := e["value"].([]byte)
			return b
		}
	}
	return nil
}

func metricInt(df map[string]any, key string, id int) (int64, bool) {
	m, _ := df[key].([]any)
	for _, kv := range m {
		e := kv.(map[string]any)
		if k, _ := asInt64(e["key"]); k == int64(id) {
			return asInt64(e["value"])
		}
	}
	return 0, false
}

// checkCatalogRows reads the catalog's row as Java's JdbcCatalog would,
// and checks the previous_metadata_location chain step by step.
func checkCatalogRows(t *testing.T, s *scenario) {
	for i, st := range s.steps {
		wantPrev := ""
		if i > 0 {
			wantPrev = s.steps[i-1].tbl.MetadataLocation()
		}
		if st.row.MetadataLocation != st.tbl.MetadataLocation() || st.row.PreviousMetadataLocation != wantPrev {
			t.Errorf("%s: row %+v, want %s after %q", st.name, st.row, st.tbl.MetadataLocation(), wantPrev)
		}
	}
	db, err := sql.Open("sqlite3", s.catPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var loc, prev, typ sql.NullString
	err = db.QueryRow(`SELECT metadata_location, previous_metadata_location, iceberg_type FROM iceberg_tables
		WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?`, s.cat.Name(), "db", "audit").Scan(&loc, &prev, &typ)
	if err != nil {
		t.Fatal(err)
	}
	if loc.String != s.last().MetadataLocation() {
		t.Errorf("row points at %s, want %s", loc.String, s.last().MetadataLocation())
	}
	if typ.String != "TABLE" {
		t.Errorf("iceberg_type %v, want TABLE", typ)
	}
	var created sql.NullString
	if err := db.QueryRow(`SELECT previous_metadata_location FROM iceberg_tables WHERE table_name = ?`, "audit").Scan(&created); err != nil || !created.Valid {
		t.Errorf("previous_metadata_location %v (%v)", created, err)
	}
}
