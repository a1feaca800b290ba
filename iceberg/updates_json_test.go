package iceberg

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// TestUpdateJSONRoundTrip encodes every update the REST spec defines and
// that the builder applies, checks the wire shape of a few against the
// spec's field names, and parses each back to an equal value.
func TestUpdateJSONRoundTrip(t *testing.T) {
	m := newTestTable(t, nil)
	snap := testSnapshot(11, nil, 1, 1700000000000)
	sid := 0
	snap.SchemaID = &sid
	keep := 3
	cases := []struct {
		u    Update
		want string // exact JSON, when given
	}{
		{AssignUUIDUpdate{UUID: "9c12d441-03fe-4693-9a96-a0705ddf69c1"}, `{"action":"assign-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"}`},
		{UpgradeFormatVersionUpdate{FormatVersion: 3}, `{"action":"upgrade-format-version","format-version":3}`},
		{AddSchemaUpdate{Schema: m.CurrentSchema(), LastColumnID: 5}, ""},
		{SetCurrentSchemaUpdate{SchemaID: LastAdded}, `{"action":"set-current-schema","schema-id":-1}`},
		{AddPartitionSpecUpdate{Spec: m.CurrentSpec()}, ""},
		{SetDefaultSpecUpdate{SpecID: 0}, `{"action":"set-default-spec","spec-id":0}`},
		{AddSortOrderUpdate{SortOrder: m.SortOrder()}, ""},
		{SetDefaultSortOrderUpdate{SortOrderID: 1}, `{"action":"set-default-sort-order","sort-order-id":1}`},
		{AddSnapshotUpdate{Snapshot: snap}, ""},
		{SetSnapshotRefUpdate{Name: "b", Ref: SnapshotRef{SnapshotID: 11, Type: BranchRef, MinSnapshotsToKeep: &keep}},
			`{"action":"set-snapshot-ref","ref-name":"b","type":"branch","snapshot-id":11,"min-snapshots-to-keep":3}`},
		{RemoveSnapshotsUpdate{SnapshotIDs: []int64{1, 2}}, `{"action":"remove-snapshots","snapshot-ids":[1,2]}`},
		{RemoveSnapshotRefUpdate{Name: "b"}, `{"action":"remove-snapshot-ref","ref-name":"b"}`},
		{SetLocationUpdate{Location: "s3://b/t"}, `{"action":"set-location","location":"s3://b/t"}`},
		{SetPropertiesUpdate{Updates: map[string]string{"k": "v"}}, `{"action":"set-properties","updates":{"k":"v"}}`},
		{RemovePropertiesUpdate{Removals: []string{"k"}}, `{"action":"remove-properties","removals":["k"]}`},
		{SetStatisticsUpdate{Statistics: StatisticsFile{SnapshotID: 11, StatisticsPath: "s3://s.puffin", FileSizeInBytes: 10,
			FileFooterSizeInBytes: 4, BlobMetadata: []BlobMetadata{}}}, ""},
		{RemoveStatisticsUpdate{SnapshotID: 11}, `{"action":"remove-statistics","snapshot-id":11}`},
		{SetPartitionStatisticsUpdate{Statistics: PartitionStatisticsFile{SnapshotID: 11, StatisticsPath: "s3://p", FileSizeInBytes: 3}},
			`{"action":"set-partition-statistics","partition-statistics":{"snapshot-id":11,"statistics-path":"s3://p","file-size-in-bytes":3}}`},
		{RemovePartitionStatisticsUpdate{SnapshotID: 11}, `{"action":"remove-partition-statistics","snapshot-id":11}`},
		{RemoveSchemasUpdate{SchemaIDs: []int{1}}, `{"action":"remove-schemas","schema-ids":[1]}`},
		{RemovePartitionSpecsUpdate{SpecIDs: []int{1}}, `{"action":"remove-partition-specs","spec-ids":[1]}`},
	}
	for _, c := range cases {
		t.Run(c.u.Action(), func(t *testing.T) {
			data, err := json.Marshal(c.u)
			if err != nil {
				t.Fatal(err)
			}
			if c.want != "" && string(data) != c.want {
				t.Fatalf("JSON\n got %s\nwant %s", data, c.want)
			}
			back, err := ParseUpdate(data)
			if err != nil {
				t.Fatalf("parse %s: %v", data, err)
			}
			again, err := json.Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != string(data) {
				t.Fatalf("round trip\n got %s\nwant %s", again, data)
			}
			if reflect.TypeOf(back) != reflect.TypeOf(c.u) {
				t.Fatalf("parsed %T, want %T", back, c.u)
			}
		})
	}
}

func TestRequirementJSONRoundTrip(t *testing.T) {
	cases := []struct {
		r    Requirement
		want string
	}{
		{AssertCreate{}, `{"type":"assert-create"}`},
		{AssertTableUUID{UUID: "u"}, `{"type":"assert-table-uuid","uuid":"u"}`},
		{AssertRefSnapshotID{Ref: "main"}, `{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null}`},
		{AssertRefSnapshotID{Ref: "main", SnapshotID: int64p(7)}, `{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":7}`},
		{AssertLastAssignedFieldID{LastAssignedFieldID: 4}, `{"type":"assert-last-assigned-field-id","last-assigned-field-id":4}`},
		{AssertCurrentSchemaID{SchemaID: 1}, `{"type":"assert-current-schema-id","current-schema-id":1}`},
		{AssertLastAssignedPartitionID{LastAssignedPartitionID: 1000}, `{"type":"assert-last-assigned-partition-id","last-assigned-partition-id":1000}`},
		{AssertDefaultSpecID{SpecID: 0}, `{"type":"assert-default-spec-id","default-spec-id":0}`},
		{AssertDefaultSortOrderID{SortOrderID: 0}, `{"type":"assert-default-sort-order-id","default-sort-order-id":0}`},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			data, err := json.Marshal(c.r)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != c.want {
				t.Fatalf("got %s, want %s", data, c.want)
			}
			back, err := ParseRequirement(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, c.r) {
				t.Fatalf("parsed %#v, want %#v", back, c.r)
			}
		})
	}
}

func TestParseUpdateErrors(t *testing.T) {
	cases := []struct {
		in   string
		want error
	}{
		{`{"action":"add-encryption-key","encryption-key":{}}`, ErrUnknownUpdate},
		{`{"action":"frobnicate"}`, ErrUnknownUpdate},
		{`{"uuid":"x"}`, ErrInvalidMetadata},
		{`{"action":"set-current-schema"}`, ErrInvalidMetadata},
		{`{"action":"add-schema","schema":{"type":"struct"}}`, ErrInvalidSchema},
		{`{"action":"set-snapshot-ref","ref-name":"main"}`, ErrInvalidMetadata},
		{`[1]`, ErrInvalidMetadata},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if _, err := ParseUpdate([]byte(c.in)); !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
	if _, err := ParseRequirement([]byte(`{"type":"assert-view-uuid","uuid":"u"}`)); !errors.Is(err, ErrUnknownUpdate) {
		t.Fatalf("unknown requirement: %v", err)
	}
	if _, err := ParseRequirement([]byte(`{"type":"assert-current-schema-id"}`)); !errors.Is(err, ErrInvalidMetadata) {
		t.Fatalf("missing field: %v", err)
	}
}

// TestStagedCreateUpdates applies the changes a REST client sends to
// commit a staged create (Java's and iceberg-go's createChanges) onto no
// table, with spec and order ids omitted as the spec allows.
func TestStagedCreateUpdates(t *testing.T) {
	body := `[
	 {"action":"assign-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
	 {"action":"upgrade-format-version","format-version":2},
	 {"action":"add-schema","schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"d","required":false,"type":"date"}]},"last-column-id":2},
	 {"action":"set-current-schema","schema-id":-1},
	 {"action":"add-spec","spec":{"fields":[{"source-id":2,"field-id":1000,"name":"d_month","transform":"month"}]}},
	 {"action":"set-default-spec","spec-id":-1},
	 {"action":"add-sort-order","sort-order":{"fields":[{"source-id":1,"transform":"identity","direction":"asc","null-order":"nulls-first"}]}},
	 {"action":"set-default-sort-order","sort-order-id":-1},
	 {"action":"set-location","location":"file:///w/db/t"},
	 {"action":"set-properties","updates":{"owner":"me"}}
	]`
	updates, err := ParseUpdates([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ApplyUpdates(nil, "", updates)
	if err != nil {
		t.Fatal(err)
	}
	if m.TableUUID() != "9c12d441-03fe-4693-9a96-a0705ddf69c1" || m.Location() != "file:///w/db/t" ||
		m.Property("owner", "") != "me" || len(m.CurrentSpec().Fields) != 1 || len(m.SortOrder().Fields) != 1 {
		t.Fatalf("unexpected metadata: %s", mustJSON(t, m))
	}
	if err := ValidateRequirements(nil, []Requirement{AssertCreate{}}); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveSchemasAndSpecs(t *testing.T) {
	m := newTestTable(t, nil)
	if _, err := ApplyUpdates(m, "", []Update{RemoveSchemasUpdate{SchemaIDs: []int{m.CurrentSchemaID()}}}); !errors.Is(err, ErrInvalidMetadata) {
		t.Fatalf("removing the current schema: %v", err)
	}
	if _, err := ApplyUpdates(m, "", []Update{RemovePartitionSpecsUpdate{SpecIDs: []int{m.CurrentSpec().ID}}}); !errors.Is(err, ErrInvalidMetadata) {
		t.Fatalf("removing the default spec: %v", err)
	}
	b := NewMetadataBuilder(m)
	if _, err := b.AddPartitionSpec(UnpartitionedSpec); err != nil {
		t.Fatal(err)
	}
	if err := b.SetDefaultSpec(LastAdded); err != nil {
		t.Fatal(err)
	}
	old := m.CurrentSpec().ID
	if err := b.RemovePartitionSpecs(old); err != nil {
		t.Fatal(err)
	}
	n, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := n.SpecByID(old); ok || len(n.Specs()) != 1 {
		t.Fatalf("spec %d still there: %d specs", old, len(n.Specs()))
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func FuzzParseUpdate(f *testing.F) {
	f.Add([]byte(`{"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":1}`))
	f.Add([]byte(`{"action":"add-spec","spec":{"fields":[]}}`))
	f.Add([]byte(`{"action":"add-sort-order","sort-order":{}}`))
	f.Add([]byte(`{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if u, err := ParseUpdate(data); err == nil {
			if _, err := json.Marshal(u); err != nil {
				t.Fatalf("parsed update does not encode: %v", err)
			}
		}
		if r, err := ParseRequirement(data); err == nil {
			if _, err := json.Marshal(r); err != nil {
				t.Fatalf("parsed requirement does not encode: %v", err)
			}
		}
	})
}
