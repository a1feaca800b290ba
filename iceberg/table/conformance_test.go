package table_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg/table"
)

// The conformance audit (checklist in iceberg/CONFORMANCE.md): a table
// built through the public packages is inspected file by file, the way
// a foreign reader sees it, against the spec and Java's writers.
func TestConformance(t *testing.T) {
	for _, version := range []int{2, 3} {
		t.Run(fmt.Sprintf("v%d", version), func(t *testing.T) {
			s := buildScenario(t, version)
			t.Run("metadata.json", func(t *testing.T) { checkMetadataFiles(t, s, version) })
			t.Run("snapshots", func(t *testing.T) { checkSnapshots(t, s, version) })
			t.Run("manifest lists", func(t *testing.T) { checkManifestLists(t, s, version) })
			t.Run("manifests", func(t *testing.T) { checkManifests(t, s, version) })
			t.Run("catalog", func(t *testing.T) { checkCatalogRows(t, s) })
		})
	}
}

var metadataFileName = regexp.MustCompile(`/metadata/(\d{5})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.metadata\.json$`)

// rawMetadata reads a metadata.json as untyped JSON, as other
// implementations parse it.
func rawMetadata(t testing.TB, tbl *table.Table) map[string]any {
	t.Helper()
	f, err := tbl.IO().Open(context.Background(), tbl.MetadataLocation())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func jsonInt(t testing.TB, m map[string]any, key string) int64 {
	t.Helper()
	f, ok := m[key].(float64)
	if !ok || f != float64(int64(f)) {
		t.Errorf("%q = %v (%T), want an integer", key, m[key], m[key])
		return 0
	}
	return int64(f)
}

func jsonList(t testing.TB, m map[string]any, key string) []any {
	t.Helper()
	l, ok := m[key].([]any)
	if !ok {
		t.Errorf("%q = %v (%T), want a list", key, m[key], m[key])
	}
	return l
}

func checkMetadataFiles(t *testing.T, s *scenario, version int) {
	required := []string{"format-version", "table-uuid", "location", "last-sequence-number", "last-updated-ms",
		"last-column-id", "schemas", "current-schema-id", "partition-specs", "default-spec-id", "last-partition-id",
		"sort-orders", "default-sort-order-id", "properties", "refs", "snapshots", "snapshot-log", "metadata-log",
		"statistics", "partition-statistics"}
	if version >= 3 {
		required = append(required, "next-row-id")
	}
	var prevUpdated int64
	for i, st := range s.steps {
		t.Run(st.name, func(t *testing.T) {
			m := rawMetadata(t, st.tbl)
			for _, k := range required {
				if _, ok := m[k]; !ok {
					t.Errorf("missing %q", k)
				}
			}
			for _, k := range []string{"schema", "partition-spec"} { // v1 only
				if _, ok := m[k]; ok {
					t.Errorf("v%d metadata has the v1 field %q", version, k)
				}
			}
			mm := metadataFileName.FindStringSubmatch(st.tbl.MetadataLocation())
			if mm == nil || mm[1] != fmt.Sprintf("%05d", i) {
				t.Errorf("metadata file %s: want <%05d>-<uuid>.metadata.json", st.tbl.MetadataLocation(), i)
			}
			if v := jsonInt(t, m, "format-version"); v != int64(version) {
				t.Errorf("format-version %d", v)
			}
			updated := jsonInt(t, m, "last-updated-ms")
			if updated < prevUpdated {
				t.Errorf("last-updated-ms went back: %d < %d", updated, prevUpdated)
			}
			prevUpdated = updated

			// last-partition-id is the highest partition field id of any spec.
			maxField := int64(999)
			for _, sp := range jsonList(t, m, "partition-specs") {
				for _, f := range jsonList(t, sp.(map[string]any), "fields") {
					maxField = max(maxField, jsonInt(t, f.(map[string]any), "field-id"))
				}
			}
			if got := jsonInt(t, m, "last-partition-id"); got != maxField {
				t.Errorf("last-partition-id %d, want %d", got, maxField)
			}
			var orderIDs []int64
			for _, o := range jsonList(t, m, "sort-orders") {
				orderIDs = append(orderIDs, jsonInt(t, o.(map[string]any), "order-id"))
			}
			if !slices.Contains(orderIDs, jsonInt(t, m, "default-sort-order-id")) || !slices.Contains(orderIDs, 1) {
				t.Errorf("sort-orders %v, default %v", orderIDs, m["default-sort-order-id"])
			}
			for _, sc := range jsonList(t, m, "schemas") {
				ids := jsonList(t, sc.(map[string]any), "identifier-field-ids")
				if len(ids) != 1 || ids[0] != float64(1) {
					t.Errorf("schema %v: identifier-field-ids %v, want [1]", sc.(map[string]any)["schema-id"], ids)
				}
			}

			// The current snapshot is the main branch, -1 (v2) or absent (v3) when none.
			refs, _ := m["refs"].(map[string]any)
			cur, hasCur := m["current-snapshot-id"]
			if mainRef, ok := refs["main"].(map[string]any); ok {
				if mainRef["type"] != "branch" || mainRef["snapshot-id"] != cur {
					t.Errorf("refs.main %v vs current-snapshot-id %v", mainRef, cur)
				}
			} else if version == 2 && (!hasCur || cur != float64(-1)) {
				t.Errorf("no snapshot: current-snapshot-id %v, want -1", cur)
			} else if version >= 3 && hasCur && cur != nil {
				t.Errorf("no snapshot: v3 current-snapshot-id %v, want absent", cur)
			}

			// snapshot-log: one entry per snapshot made current, at its timestamp.
			snaps := map[float64]float64{}
			for _, sn := range jsonList(t, m, "snapshots") {
				sm := sn.(map[string]any)
				snaps[sm["snapshot-id"].(float64)] = sm["timestamp-ms"].(float64)
			}
			log := jsonList(t, m, "snapshot-log")
			if len(log) != len(snaps) {
				t.Errorf("snapshot-log has %d entries for %d snapshots", len(log), len(snaps))
			}
			for _, e := range log {
				em := e.(map[string]any)
				if ts, ok := snaps[em["snapshot-id"].(float64)]; !ok || ts != em["timestamp-ms"] {
					t.Errorf("snapshot-log entry %v does not match its snapshot (timestamp %v)", em, ts)
				}
			}
			if len(log) > 0 && log[len(log)-1].(map[string]any)["snapshot-id"] != cur {
				t.Errorf("last snapshot-log entry is not the current snapshot")
			}

			// metadata-log: every earlier file, stamped with its own last-updated-ms.
			mlog := jsonList(t, m, "metadata-log")
			if len(mlog) != i {
				t.Fatalf("metadata-log has %d entries, want %d", len(mlog), i)
			}
			for j, e := range mlog {
				em := e.(map[string]any)
				prev := s.steps[j].tbl
				if em["metadata-file"] != prev.MetadataLocation() {
					t.Errorf("metadata-log[%d] = %v, want %s", j, em["metadata-file"], prev.MetadataLocation())
				}
				if int64(em["timestamp-ms"].(float64)) != prev.Metadata().LastUpdatedMs() {
					t.Errorf("metadata-log[%d] timestamp %v, want that file's last-updated-ms %d", j, em["timestamp-ms"], prev.Metadata().LastUpdatedMs())
				}
			}
			if version >= 3 {
				var rows int64
				for _, sn := range jsonList(t, m, "snapshots") {
					sm := sn.(map[string]any)
					if jsonInt(t, sm, "first-row-id") != rows {
						t.Errorf("snapshot %v: first-row-id %v, want %d", sm["snapshot-id"], sm["first-row-id"], rows)
					}
					rows += jsonInt(t, sm, "added-rows")
				}
				if got := jsonInt(t, m, "next-row-id"); got != rows {
					t.Errorf("next-row-id %d, want the sum of added-rows %d", got, rows)
				}
			}
		})
	}
}

var manifestListName = regexp.MustCompile(`/metadata/snap-(\d+)-(\d+)-[0-9a-f-]{36}\.avro$`)

// javaSummaryKeys are the keys Java's SnapshotProducer and SnapshotSummary
// write for appends, overwrites and row deltas, plus the engine keys.
var javaSummaryKeys = []string{"operation",
	"added-data-files", "deleted-data-files", "total-data-files",
	"added-delete-files", "removed-delete-files", "total-delete-files",
	"added-equality-delete-files", "removed-equality-delete-files",
	"added-position-delete-files", "removed-position-delete-files",
	"added-records", "deleted-records", "total-records",
	"added-files-size", "removed-files-size", "total-files-size",
	"added-position-deletes", "removed-position-deletes", "total-position-deletes",
	"added-equality-deletes", "removed-equality-deletes", "total-equality-deletes",
	"changed-partition-count", "partition-summaries-included", "engine-name", "engine-version"}

func checkSnapshots(t *testing.T, s *scenario, version int) {
	final := s.last().Metadata()
	var prev map[string]string
	seq := int64(0)
	for _, st := range s.steps {
		meta := st.tbl.Metadata()
		snap := meta.CurrentSnapshot()
		if snap == nil || (prev != nil && snap.SequenceNumber == seq) {
			continue // metadata-only step
		}
		t.Run(st.name, func(t *testing.T) {
			seq++
			if snap.SequenceNumber != seq || meta.LastSequenceNumber() != seq {
				t.Errorf("sequence-number %d (last %d), want %d", snap.SequenceNumber, meta.LastSequenceNumber(), seq)
			}
			if snap.SchemaID == nil || *snap.SchemaID != meta.CurrentSchemaID() {
				t.Errorf("schema-id %v, want %d", snap.SchemaID, meta.CurrentSchemaID())
			}
			mm := manifestListName.FindStringSubmatch(snap.ManifestList)
			if mm == nil || mm[1] != strconv.FormatInt(snap.SnapshotID, 10) || mm[2] != "1" {
				t.Errorf("manifest list %s: want snap-<id>-<attempt>-<uuid>.avro", snap.ManifestList)
			}
			if _, ok := final.SnapshotByID(snap.SnapshotID); !ok {
				t.Errorf("snapshot %d missing from the final metadata", snap.SnapshotID)
			}
			for k := range snap.Summary {
				if !slices.Contains(javaSummaryKeys, k) && k != "partitions" {
					t.Errorf("summary key %q is not one Java writes for %s", k, snap.Summary["operation"])
				}
			}
			want := expectedSummary(t, st.name, s, version)
			for k, v := range want {
				if snap.Summary[k] != v {
					t.Errorf("summary[%q] = %q, want %q", k, snap.Summary[k], v)
				}
			}
			for k, v := range snap.Summary {
				if strings.HasPrefix(k, "added-") || strings.HasPrefix(k, "deleted-") || strings.HasPrefix(k, "removed-") {
					if n, err := strconv.ParseInt(v, 10, 64); err != nil || n <= 0 {
						t.Errorf("summary[%q] = %q: Java writes added/removed keys only when > 0", k, v)
					}
				}
			}
			// Totals follow the parent's totals (Java's updateTotal).
			for _, k := range []string{"total-records", "total-files-size", "total-data-files", "total-delete-files",
				"total-position-deletes", "total-equality-deletes"} {
				base := int64(0)
				if prev != nil {
					base, _ = strconv.ParseInt(prev[k], 10, 64)
				}
				added, removed := totalDelta(snap.Summary, k)
				if got, _ := strconv.ParseInt(snap.Summary[k], 10, 64); got != base+added-removed {
					t.Errorf("%s = %d, want %d + %d - %d", k, got, base, added, removed)
				}
			}
			prev = snap.Summary
		})
	}
}

func totalDelta(sum map[string]string, total string) (added, removed int64) {
	pairs := map[string][2]string{
		"total-records":          {"added-records", "deleted-records"},
		"total-files-size":       {"added-files-size", "removed-files-size"},
		"total-data-files":       {"added-data-files", "deleted-data-files"},
		"total-delete-files":     {"added-delete-files", "removed-delete-files"},
		"total-position-deletes": {"added-position-deletes", "removed-position-deletes"},
		"total-equality-deletes": {"added-equality-deletes", "removed-equality-deletes"},
	}
	p := pairs[total]
	added, _ = strconv.ParseInt(sum[p[0]], 10, 64)
	removed, _ = strconv.ParseInt(sum[p[1]], 10, 64)
	return added, removed
}

// expectedSummary is what Java writes for each step of the scenario
// (values, not just keys); sizes are checked through the totals.
func expectedSummary(t testing.TB, step string, s *scenario, version int) map[string]string {
	common := map[string]string{"partition-summaries-included": "false", "engine-name": "icesql"}
	with := func(m map[string]string) map[string]string {
		for k, v := range common {
			m[k] = v
		}
		return m
	}
	switch step {
	case "append-1":
		return with(map[string]string{"operation": "append", "added-data-files": "3", "added-records": "4",
			"changed-partition-count": "3", "total-data-files": "3", "total-records": "4", "total-delete-files": "0",
			"total-position-deletes": "0", "total-equality-deletes": "0"})
	case "append-2":
		return with(map[string]string{"operation": "append", "added-data-files": "2", "added-records": "4",
			"changed-partition-count": "2", "total-data-files": "5", "total-records": "8"})
	case "overwrite":
		return with(map[string]string{"operation": "overwrite", "added-data-files": "1", "added-records": "2",
			"deleted-data-files": "1", "deleted-records": "1", "changed-partition-count": "1",
			"added-files-size":   strconv.FormatInt(s.replacement.FileSizeInBytes, 10),
			"removed-files-size": strconv.FormatInt(s.overwritten.FileSizeInBytes, 10),
			"total-data-files":   "5", "total-records": "9"})
	case "row-delta":
		return with(map[string]string{"operation": "delete", "added-delete-files": "1", "added-position-delete-files": "1",
			"added-position-deletes": "2", "changed-partition-count": "1", "total-delete-files": "1",
			"total-position-deletes": "2", "total-data-files": "5", "total-records": "9"})
	case "append-3":
		deletes := "1"
		if version >= 3 {
			deletes = "0"
		}
		return with(map[string]string{"operation": "append", "added-data-files": "1", "added-records": "1",
			"changed-partition-count": "1", "total-data-files": "6", "total-records": "10", "total-delete-files": deletes})
	}
	t.Fatalf("no expected summary for step %s", step)
	return nil
}
