package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/restapi"
)

func commitBody(reqs []iceberg.Requirement, updates []iceberg.Update) restapi.CommitTableRequest {
	return restapi.CommitTableRequest{Requirements: reqs, Updates: updates}
}

func loadMeta(t *testing.T, ts *testServer, path string) (*iceberg.TableMetadata, string) {
	t.Helper()
	var res restapi.LoadTableResult
	ts.must(http.StatusOK, "GET", path, nil, &res)
	m, err := iceberg.ParseMetadata(res.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	return m, *res.MetadataLocation
}

// TestCommitRequirements checks each of the spec's eight requirement types
// both ways: a true one lets the commit through, a false one is a 409
// CommitFailedException and changes nothing.
func TestCommitRequirements(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["db"]}`, nil)
	ts.createTable("db", "t")
	const path = "/v1/namespaces/db/tables/t"
	m, _ := loadMeta(t, ts, path)
	snap := int64(42)
	cases := []struct {
		name      string
		good, bad iceberg.Requirement
	}{
		{"assert-table-uuid", iceberg.AssertTableUUID{UUID: m.TableUUID()}, iceberg.AssertTableUUID{UUID: iceberg.NewUUIDString()}},
		{"assert-ref-snapshot-id", iceberg.AssertRefSnapshotID{Ref: "main"}, iceberg.AssertRefSnapshotID{Ref: "main", SnapshotID: &snap}},
		{"assert-last-assigned-field-id", iceberg.AssertLastAssignedFieldID{LastAssignedFieldID: m.LastColumnID()}, iceberg.AssertLastAssignedFieldID{LastAssignedFieldID: 99}},
		{"assert-current-schema-id", iceberg.AssertCurrentSchemaID{SchemaID: m.CurrentSchemaID()}, iceberg.AssertCurrentSchemaID{SchemaID: 7}},
		{"assert-last-assigned-partition-id", iceberg.AssertLastAssignedPartitionID{LastAssignedPartitionID: m.LastPartitionID()}, iceberg.AssertLastAssignedPartitionID{LastAssignedPartitionID: 7}},
		{"assert-default-spec-id", iceberg.AssertDefaultSpecID{SpecID: m.CurrentSpec().ID}, iceberg.AssertDefaultSpecID{SpecID: 7}},
		{"assert-default-sort-order-id", iceberg.AssertDefaultSortOrderID{SortOrderID: m.SortOrder().OrderID}, iceberg.AssertDefaultSortOrderID{SortOrderID: 7}},
		{"assert-create", nil, iceberg.AssertCreate{}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := fmt.Sprintf("k%d", i)
			set := []iceberg.Update{iceberg.SetPropertiesUpdate{Updates: map[string]string{key: "bad"}}}
			e := ts.fails(http.StatusConflict, "CommitFailedException", "POST", path, commitBody([]iceberg.Requirement{c.bad}, set))
			if !strings.Contains(e.Message, "requirement") && !strings.Contains(e.Message, "exists") {
				t.Errorf("message %q", e.Message)
			}
			if got, _ := loadMeta(t, ts, path); got.Property(key, "") != "" {
				t.Fatal("a failed requirement changed the table")
			}
			if c.good == nil {
				return
			}
			set = []iceberg.Update{iceberg.SetPropertiesUpdate{Updates: map[string]string{key: "good"}}}
			var res restapi.CommitTableResponse
			ts.must(http.StatusOK, "POST", path, commitBody([]iceberg.Requirement{c.good}, set), &res)
			got, loc := loadMeta(t, ts, path)
			if got.Property(key, "") != "good" || loc != res.MetadataLocation {
				t.Fatalf("commit not visible: %s at %s", key, loc)
			}
		})
	}
}

func TestCommitUpdatesAndErrors(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["db"]}`, nil)
	ts.createTable("db", "t")
	const path = "/v1/namespaces/db/tables/t"
	m, loc0 := loadMeta(t, ts, path)

	// Schema evolution, a snapshot, a branch and a tag in one commit; the
	// server writes the next metadata.json and records the old in the log.
	s1, err := iceberg.NewSchema(0, append(m.CurrentSchema().Fields(), iceberg.NestedField{ID: 4, Name: "extra", Type: iceberg.IntType{}}))
	if err != nil {
		t.Fatal(err)
	}
	sid := 1
	snap := &iceberg.Snapshot{SnapshotID: 7, SequenceNumber: 1, TimestampMs: m.LastUpdatedMs() + 1, SchemaID: &sid,
		ManifestList: ts.warehouse + "/db.db/t/metadata/snap-7.avro", Summary: map[string]string{"operation": "append"}}
	updates := []iceberg.Update{
		iceberg.AddSchemaUpdate{Schema: s1}, iceberg.SetCurrentSchemaUpdate{SchemaID: iceberg.LastAdded},
		iceberg.AddSnapshotUpdate{Snapshot: snap},
		iceberg.SetSnapshotRefUpdate{Name: "main", Ref: iceberg.NewBranch(7)},
		iceberg.SetSnapshotRefUpdate{Name: "v1", Ref: iceberg.NewTag(7)},
		iceberg.SetPropertiesUpdate{Updates: map[string]string{"owner": "me"}},
	}
	reqs := iceberg.RequirementsFor(m, updates)
	var res restapi.CommitTableResponse
	ts.must(http.StatusOK, "POST", path, commitBody(reqs, updates), &res)
	got, loc := loadMeta(t, ts, path)
	if got.CurrentSchemaID() != 1 || got.CurrentSnapshotID() != 7 || len(got.Refs()) != 2 || loc == loc0 ||
		len(got.MetadataLog()) != 1 || got.MetadataLog()[0].MetadataFile != loc0 || iceberg.ParseMetadataVersion(loc) != 1 {
		t.Fatalf("after commit: %s", res.Metadata)
	}

	// The same requirements again are stale: main moved.
	ts.fails(http.StatusConflict, "CommitFailedException", "POST", path, commitBody(reqs, updates[5:]))

	// snapshots=refs keeps the ref heads only.
	snap2 := *snap
	snap2.SnapshotID, snap2.SequenceNumber, snap2.ParentSnapshotID = 8, 2, &snap.SnapshotID
	more := []iceberg.Update{iceberg.AddSnapshotUpdate{Snapshot: &snap2}, iceberg.SetSnapshotRefUpdate{Name: "main", Ref: iceberg.NewBranch(8)}}
	ts.must(http.StatusOK, "POST", path, commitBody(iceberg.RequirementsFor(got, more), more), nil)
	var refs restapi.LoadTableResult
	ts.must(http.StatusOK, "GET", path+"?snapshots=refs", nil, &refs)
	var raw struct {
		Snapshots []struct {
			ID int64 `json:"snapshot-id"`
		} `json:"snapshots"`
	}
	json.Unmarshal(refs.Metadata, &raw)
	if len(raw.Snapshots) != 2 {
		t.Fatalf("snapshots=refs: %+v", raw.Snapshots)
	}
	m3, _ := loadMeta(t, ts, path+"?snapshots=all")
	if len(m3.Snapshots()) != 2 {
		t.Fatalf("all: %d", len(m3.Snapshots()))
	}

	ts.fails(http.StatusBadRequest, "BadRequestException", "POST", path, `{"requirements":[],"updates":[{"action":"add-encryption-key","encryption-key":{}}]}`)
	ts.fails(http.StatusBadRequest, "BadRequestException", "POST", path, `{"requirements":[{"type":"assert-something"}],"updates":[]}`)
	ts.fails(http.StatusBadRequest, "ValidationException", "POST", path, commitBody(nil, []iceberg.Update{iceberg.SetCurrentSchemaUpdate{SchemaID: 99}}))
	ts.fails(http.StatusNotFound, "NoSuchTableException", "POST", "/v1/namespaces/db/tables/none", commitBody(nil, nil))
	ts.fails(http.StatusBadRequest, "BadRequestException", "POST", path, `{"identifier":{"namespace":["db"],"name":"other"},"requirements":[],"updates":[]}`)
}

// TestStagedCreate creates a table the way REST clients do for CREATE
// TABLE AS SELECT: stage-create returns metadata without a table, and a
// commit with assert-create installs it.
func TestStagedCreate(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["db"]}`, nil)
	var staged restapi.LoadTableResult
	ts.must(http.StatusOK, "POST", "/v1/namespaces/db/tables", `{"name":"s","stage-create":true,"schema":`+testSchema+`}`, &staged)
	if staged.MetadataLocation != nil {
		t.Fatalf("staged create has a location: %s", *staged.MetadataLocation)
	}
	ts.fails(http.StatusNotFound, "NoSuchTableException", "GET", "/v1/namespaces/db/tables/s", nil)
	m, err := iceberg.ParseMetadata(staged.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	updates := []iceberg.Update{
		iceberg.AssignUUIDUpdate{UUID: m.TableUUID()}, iceberg.UpgradeFormatVersionUpdate{FormatVersion: m.FormatVersion()},
		iceberg.AddSchemaUpdate{Schema: m.CurrentSchema()}, iceberg.SetCurrentSchemaUpdate{SchemaID: iceberg.LastAdded},
		iceberg.AddPartitionSpecUpdate{Spec: m.CurrentSpec()}, iceberg.SetDefaultSpecUpdate{SpecID: iceberg.LastAdded},
		iceberg.AddSortOrderUpdate{SortOrder: m.SortOrder()}, iceberg.SetDefaultSortOrderUpdate{SortOrderID: iceberg.LastAdded},
		iceberg.SetLocationUpdate{Location: m.Location()},
	}
	body := commitBody([]iceberg.Requirement{iceberg.AssertCreate{}}, updates)
	var res restapi.CommitTableResponse
	ts.must(http.StatusOK, "POST", "/v1/namespaces/db/tables/s", body, &res)
	got, loc := loadMeta(t, ts, "/v1/namespaces/db/tables/s")
	if got.TableUUID() != m.TableUUID() || loc != res.MetadataLocation {
		t.Fatalf("created %s at %s", got.TableUUID(), loc)
	}
	ts.fails(http.StatusConflict, "CommitFailedException", "POST", "/v1/namespaces/db/tables/s", body)
}

// TestTransaction commits two tables at once; when one requirement fails,
// neither table changes.
func TestTransaction(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["db"]}`, nil)
	ts.createTable("db", "a")
	ts.createTable("db", "b")
	ma, _ := loadMeta(t, ts, "/v1/namespaces/db/tables/a")
	mb, _ := loadMeta(t, ts, "/v1/namespaces/db/tables/b")
	change := func(name string, m *iceberg.TableMetadata, uuid, v string) restapi.CommitTableRequest {
		c := commitBody([]iceberg.Requirement{iceberg.AssertTableUUID{UUID: uuid}},
			[]iceberg.Update{iceberg.SetPropertiesUpdate{Updates: map[string]string{"v": v}}})
		c.Identifier = &restapi.TableIdentifier{Namespace: []string{"db"}, Name: name}
		return c
	}
	bad := restapi.CommitTransactionRequest{TableChanges: []restapi.CommitTableRequest{
		change("a", ma, ma.TableUUID(), "1"), change("b", mb, iceberg.NewUUIDString(), "1")}}
	ts.fails(http.StatusConflict, "CommitFailedException", "POST", "/v1/transactions/commit", bad)
	if a, _ := loadMeta(t, ts, "/v1/namespaces/db/tables/a"); a.Property("v", "") != "" {
		t.Fatal("half a transaction was committed")
	}
	good := restapi.CommitTransactionRequest{TableChanges: []restapi.CommitTableRequest{
		change("a", ma, ma.TableUUID(), "2"), change("b", mb, mb.TableUUID(), "2")}}
	ts.must(http.StatusNoContent, "POST", "/v1/transactions/commit", good, nil)
	for _, n := range []string{"a", "b"} {
		if m, _ := loadMeta(t, ts, "/v1/namespaces/db/tables/"+n); m.Property("v", "") != "2" {
			t.Fatalf("table %s not committed", n)
		}
	}
	ts.fails(http.StatusBadRequest, "BadRequestException", "POST", "/v1/transactions/commit", `{"table-changes":[{"requirements":[],"updates":[]}]}`)
	ts.fails(http.StatusNotFound, "NoSuchTableException", "POST", "/v1/transactions/commit",
		restapi.CommitTransactionRequest{TableChanges: []restapi.CommitTableRequest{change("a", ma, ma.TableUUID(), "3"), change("zz", mb, mb.TableUUID(), "3")}})
}
