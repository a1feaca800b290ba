package iceberg

import (
	"errors"
	"fmt"
	"testing"
)

func int64p(v int64) *int64 { return &v }

func newTestTable(t testing.TB, props map[string]string) *TableMetadata {
	t.Helper()
	// Deliberately odd ids: NewTableMetadata must renumber them.
	s, err := NewSchema(7, []NestedField{
		{ID: 10, Name: "id", Type: LongType{}, Required: true},
		{ID: 20, Name: "point", Type: &StructType{FieldList: []NestedField{
			{ID: 21, Name: "x", Type: DoubleType{}}, {ID: 22, Name: "y", Type: DoubleType{}},
		}}},
		{ID: 30, Name: "tags", Type: &ListType{ElementID: 31, Element: StringType{}}},
		{ID: 40, Name: "ts", Type: TimestampTzType{}},
	}, 10)
	if err != nil {
		t.Fatal(err)
	}
	spec := &PartitionSpec{ID: 5, Fields: []PartitionField{{SourceID: 40, FieldID: 77, Name: "ts_day", Transform: DayTransform{}}}}
	order := &SortOrder{OrderID: 9, Fields: []SortField{{SourceID: 10, Transform: IdentityTransform{}, Direction: SortAsc, NullOrder: NullsFirst}}}
	m, err := NewTableMetadata(s, spec, order, "s3://w/db/t", props)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func testSnapshot(id int64, parent *int64, seq int64, ts int64) *Snapshot {
	return &Snapshot{SnapshotID: id, ParentSnapshotID: parent, SequenceNumber: seq, TimestampMs: ts,
		ManifestList: fmt.Sprintf("s3://w/db/t/metadata/snap-%d.avro", id), Summary: map[string]string{"operation": "append"}}
}

func TestNewTableMetadata(t *testing.T) {
	m := newTestTable(t, map[string]string{"owner": "bob"})
	s := m.CurrentSchema()
	want := map[string]int{"id": 1, "point": 2, "tags": 3, "ts": 4, "point.x": 5, "point.y": 6, "tags.element": 7}
	for name, id := range want {
		if f, ok := s.FindFieldByName(name); !ok || f.ID != id {
			t.Errorf("%s: id %d, want %d", name, f.ID, id)
		}
	}
	if s.ID != 0 || m.LastColumnID() != 7 || s.IdentifierFieldIDs[0] != 1 {
		t.Fatalf("schema id %d last %d ident %v", s.ID, m.LastColumnID(), s.IdentifierFieldIDs)
	}
	spec := m.CurrentSpec()
	if spec.ID != 0 || spec.Fields[0].FieldID != 1000 || spec.Fields[0].SourceID != 4 || m.LastPartitionID() != 1000 {
		t.Fatalf("spec %+v last %d", spec, m.LastPartitionID())
	}
	if o := m.SortOrder(); o.OrderID != 1 || o.Fields[0].SourceID != 1 {
		t.Fatalf("order %+v", o)
	}
	if m.FormatVersion() != 2 || !isUUIDText(m.TableUUID()) || m.CurrentSnapshot() != nil || m.CurrentSnapshotID() != NoSnapshotID {
		t.Fatal("header")
	}
	if m.Property(PropParquetCompression, "") != "zstd" || m.Property("owner", "") != "bob" {
		t.Fatalf("props %v", m.Properties())
	}
	// The result must survive a write/read cycle.
	b, err := EncodeMetadata(m, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseMetadata(b); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
}

func TestNewTableOptions(t *testing.T) {
	m := newTestTable(t, map[string]string{"format-version": "1", PropParquetCompression: "snappy"})
	if m.FormatVersion() != 1 || m.Property(PropParquetCompression, "") != "snappy" {
		t.Fatal("format-version or codec property not honoured")
	}
	if _, ok := m.Properties()["format-version"]; ok {
		t.Fatal("format-version stored as a property")
	}
	s := MustSchema(0, NestedField{ID: 1, Name: "a", Type: StringType{}})
	if _, err := NewTableMetadata(s, nil, nil, "loc", map[string]string{"format-version": "4"}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("format 4: %v", err)
	}
	bad := &PartitionSpec{Fields: []PartitionField{{SourceID: 1, Name: "a_hour", Transform: HourTransform{}}}}
	if _, err := NewTableMetadata(s, bad, nil, "loc", nil); !errors.Is(err, ErrInvalidPartitionSpec) {
		t.Fatalf("hour on string: %v", err)
	}
	if _, err := NewTableMetadata(s, nil, nil, "", nil); !errors.Is(err, ErrInvalidMetadata) {
		t.Fatalf("empty location: %v", err)
	}
	u, err := NewTableMetadata(s, nil, nil, "loc", nil)
	if err != nil || u.LastPartitionID() != 999 || u.SortOrder().OrderID != 0 {
		t.Fatalf("unpartitioned: %v %d", err, u.LastPartitionID())
	}
}

func TestBuilderSnapshots(t *testing.T) {
	base := newTestTable(t, map[string]string{PropMetadataPreviousVersionsMax: "2"})
	b := NewMetadataBuilder(base)
	b.nowMs = func() int64 { return 5000 }
	b.SetPreviousMetadataFile("s3://w/db/t/metadata/00000-a.metadata.json")
	s1 := testSnapshot(11, nil, 1, 1000)
	if err := b.AddSnapshot(s1); err != nil {
		t.Fatal(err)
	}
	if err := b.SetSnapshotRef(MainBranch, NewBranch(11)); err != nil {
		t.Fatal(err)
	}
	m1, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if m1.CurrentSnapshotID() != 11 || m1.LastSequenceNumber() != 1 || m1.LastUpdatedMs() != 1000 {
		t.Fatalf("after append: cur %d seq %d upd %d", m1.CurrentSnapshotID(), m1.LastSequenceNumber(), m1.LastUpdatedMs())
	}
	if len(m1.SnapshotLog()) != 1 || m1.SnapshotLog()[0] != (SnapshotLogEntry{TimestampMs: 1000, SnapshotID: 11}) {
		t.Fatalf("snapshot log %v", m1.SnapshotLog())
	}
	if len(m1.MetadataLog()) != 1 || m1.MetadataLog()[0].TimestampMs != base.LastUpdatedMs() {
		t.Fatalf("metadata log %v", m1.MetadataLog())
	}
	if base.CurrentSnapshot() != nil || len(base.Snapshots()) != 0 {
		t.Fatal("base was modified")
	}
	if got := b.Updates(); len(got) != 2 || got[0].Action() != "add-snapshot" || got[1].Action() != "set-snapshot-ref" {
		t.Fatalf("updates %v", got)
	}

	// Two more commits: the metadata log is trimmed to 2 entries.
	m := m1
	for i, id := range []int64{12, 13} {
		b := NewMetadataBuilder(m)
		b.SetPreviousMetadataFile(fmt.Sprintf("s3://w/db/t/metadata/%05d-a.metadata.json", i+1))
		if err := b.AddSnapshot(testSnapshot(id, int64p(id-1), m.NextSequenceNumber(), 2000+int64(i))); err != nil {
			t.Fatal(err)
		}
		if err := b.SetSnapshotRef(MainBranch, NewBranch(id)); err != nil {
			t.Fatal(err)
		}
		if m, err = b.Build(); err != nil {
			t.Fatal(err)
		}
	}
	if len(m.MetadataLog()) != 2 || m.MetadataLog()[1].MetadataFile != "s3://w/db/t/metadata/00002-a.metadata.json" {
		t.Fatalf("trimmed metadata log %v", m.MetadataLog())
	}

	// Expire the oldest: refs and log entries that pointed to it go.
	b = NewMetadataBuilder(m)
	if err := b.SetSnapshotRef("old", NewTag(11)); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveSnapshots(11); err != nil {
		t.Fatal(err)
	}
	m, err = b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Ref("old"); ok || len(m.Snapshots()) != 2 || len(m.SnapshotLog()) != 2 {
		t.Fatalf("after expiry: refs %v snapshots %d log %v", m.Refs(), len(m.Snapshots()), m.SnapshotLog())
	}
	b = NewMetadataBuilder(m)
	if err := b.RemoveSnapshotRef(MainBranch); err != nil {
		t.Fatal(err)
	}
	if m, err = b.Build(); err != nil || m.CurrentSnapshot() != nil {
		t.Fatalf("remove main: %v", err)
	}
}

func TestBuilderRejects(t *testing.T) {
	base := newTestTable(t, nil)
	cases := []struct {
		name string
		op   func(b *MetadataBuilder) error
		want error
	}{
		{"snapshot without manifest list", func(b *MetadataBuilder) error {
			s := testSnapshot(1, nil, 1, 1)
			s.ManifestList = ""
			return b.AddSnapshot(s)
		}, ErrInvalidMetadata},
		{"snapshot without operation", func(b *MetadataBuilder) error {
			s := testSnapshot(1, nil, 1, 1)
			s.Summary = nil
			return b.AddSnapshot(s)
		}, ErrInvalidMetadata},
		{"stale sequence number", func(b *MetadataBuilder) error {
			if err := b.AddSnapshot(testSnapshot(1, nil, 1, 1)); err != nil {
				return err
			}
			return b.AddSnapshot(testSnapshot(2, int64p(1), 1, 2))
		}, ErrInvalidMetadata},
		{"duplicate snapshot", func(b *MetadataBuilder) error {
			_ = b.AddSnapshot(testSnapshot(1, nil, 1, 1))
			return b.AddSnapshot(testSnapshot(1, nil, 2, 1))
		}, ErrInvalidMetadata},
		{"ref to missing snapshot", func(b *MetadataBuilder) error { return b.SetSnapshotRef("x", NewTag(42)) }, ErrNoSuchSnapshot},
		{"main as tag", func(b *MetadataBuilder) error {
			_ = b.AddSnapshot(testSnapshot(1, nil, 1, 1))
			return b.SetSnapshotRef(MainBranch, NewTag(1))
		}, ErrInvalidMetadata},
		{"downgrade", func(b *MetadataBuilder) error { return b.UpgradeFormatVersion(1) }, ErrInvalidMetadata},
		{"reassign uuid", func(b *MetadataBuilder) error { return b.AssignUUID(NewUUIDString()) }, ErrInvalidMetadata},
		{"reserved property", func(b *MetadataBuilder) error {
			return b.SetProperties(map[string]string{"current-snapshot-id": "1"})
		}, ErrInvalidMetadata},
		{"unknown current schema", func(b *MetadataBuilder) error { return b.SetCurrentSchema(9) }, ErrInvalidMetadata},
		{"last added without add", func(b *MetadataBuilder) error { return b.SetDefaultSpec(LastAdded) }, ErrInvalidMetadata},
		{"spec on missing column", func(b *MetadataBuilder) error {
			_, err := b.AddPartitionSpec(&PartitionSpec{Fields: []PartitionField{{SourceID: 99, FieldID: 1001, Name: "z", Transform: IdentityTransform{}}}})
			return err
		}, ErrNoSuchField},
		{"sort order bad direction", func(b *MetadataBuilder) error {
			_, err := b.AddSortOrder(&SortOrder{Fields: []SortField{{SourceID: 1, Transform: IdentityTransform{}, Direction: "up", NullOrder: NullsLast}}})
			return err
		}, ErrInvalidMetadata},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.op(NewMetadataBuilder(base)); !errors.Is(err, c.want) {
				t.Fatalf("want %v, got %v", c.want, err)
			}
		})
	}
}

// TestApplyUpdatesRetry replays one writer's updates onto metadata another
// writer changed meanwhile, as a commit retry does.
func TestApplyUpdatesRetry(t *testing.T) {
	base := newTestTable(t, nil)

	mine := NewMetadataBuilder(base)
	if err := mine.AddSnapshot(testSnapshot(100, nil, 1, 10)); err != nil {
		t.Fatal(err)
	}
	if err := mine.SetSnapshotRef(MainBranch, NewBranch(100)); err != nil {
		t.Fatal(err)
	}
	evolved, _, err := NewSchemaUpdate(base.CurrentSchema(), base.LastColumnID()).AddColumn("", "note", StringType{}, "").Apply()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mine.AddSchema(evolved); err != nil {
		t.Fatal(err)
	}
	if err := mine.SetCurrentSchema(LastAdded); err != nil {
		t.Fatal(err)
	}
	if err := mine.SetProperties(map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	updates := mine.Updates()

	// Meanwhile another writer appended snapshot 200 and set a property.
	theirs := NewMetadataBuilder(base)
	_ = theirs.AddSnapshot(testSnapshot(200, nil, 1, 5))
	_ = theirs.SetSnapshotRef(MainBranch, NewBranch(200))
	_ = theirs.SetProperties(map[string]string{"other": "x"})
	newer, err := theirs.Build()
	if err != nil {
		t.Fatal(err)
	}

	reqs := RequirementsFor(base, updates)
	if err := ValidateRequirements(newer, reqs); !errors.Is(err, ErrRequirementFailed) {
		t.Fatalf("requirements should fail on the moved main branch: %v", err)
	}
	if err := ValidateRequirements(base, reqs); err != nil {
		t.Fatalf("requirements fail on their own base: %v", err)
	}

	// The snapshot producer re-creates its snapshot on the new parent; the
	// schema and property updates re-apply as recorded.
	var replay []Update
	for _, u := range updates {
		switch u.(type) {
		case AddSnapshotUpdate, SetSnapshotRefUpdate:
			continue
		}
		replay = append(replay, u)
	}
	replay = append(replay, AddSnapshotUpdate{Snapshot: testSnapshot(100, int64p(200), newer.NextSequenceNumber(), 20)},
		SetSnapshotRefUpdate{Name: MainBranch, Ref: NewBranch(100)})
	got, err := ApplyUpdates(newer, "s3://w/db/t/metadata/00001-b.metadata.json", replay)
	if err != nil {
		t.Fatal(err)
	}
	if got.CurrentSnapshotID() != 100 || got.LastSequenceNumber() != 2 || got.CurrentSchemaID() != 1 {
		t.Fatalf("replayed: cur %d seq %d schema %d", got.CurrentSnapshotID(), got.LastSequenceNumber(), got.CurrentSchemaID())
	}
	if got.Property("k", "") != "v" || got.Property("other", "") != "x" || len(got.MetadataLog()) != 1 {
		t.Fatal("properties or metadata log lost on replay")
	}
	if f, ok := got.CurrentSchema().FindFieldByName("note"); !ok || f.ID != 8 || got.LastColumnID() != 8 {
		t.Fatalf("note column %v last %d", f, got.LastColumnID())
	}
}

func TestRequirements(t *testing.T) {
	m := newTestTable(t, nil)
	cases := []struct {
		name string
		req  Requirement
		base *TableMetadata
		ok   bool
	}{
		{"create on missing", AssertCreate{}, nil, true},
		{"create on existing", AssertCreate{}, m, false},
		{"uuid", AssertTableUUID{UUID: m.TableUUID()}, m, true},
		{"uuid changed", AssertTableUUID{UUID: NewUUIDString()}, m, false},
		{"uuid on missing table", AssertTableUUID{UUID: m.TableUUID()}, nil, false},
		{"ref absent", AssertRefSnapshotID{Ref: MainBranch}, m, true},
		{"ref expected", AssertRefSnapshotID{Ref: MainBranch, SnapshotID: int64p(1)}, m, false},
		{"schema", AssertCurrentSchemaID{SchemaID: 0}, m, true},
		{"schema changed", AssertCurrentSchemaID{SchemaID: 1}, m, false},
		{"field id", AssertLastAssignedFieldID{LastAssignedFieldID: 7}, m, true},
		{"field id changed", AssertLastAssignedFieldID{LastAssignedFieldID: 6}, m, false},
		{"partition id", AssertLastAssignedPartitionID{LastAssignedPartitionID: 1000}, m, true},
		{"spec", AssertDefaultSpecID{SpecID: 1}, m, false},
		{"sort order", AssertDefaultSortOrderID{SortOrderID: 1}, m, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.req.Validate(c.base)
			if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrRequirementFailed)) {
				t.Fatalf("ok=%v err=%v", c.ok, err)
			}
		})
	}
}

func TestBuilderV3RowLineage(t *testing.T) {
	m := newTestTable(t, map[string]string{"format-version": "3"})
	b := NewMetadataBuilder(m)
	s := testSnapshot(1, nil, 1, 10)
	if err := b.AddSnapshot(s); !errors.Is(err, ErrInvalidMetadata) {
		t.Fatalf("v3 snapshot without row ids: %v", err)
	}
	s.FirstRowID, s.AddedRows = int64p(0), int64p(40)
	if err := b.AddSnapshot(s); err != nil {
		t.Fatal(err)
	}
	s2 := testSnapshot(2, int64p(1), 2, 11)
	s2.FirstRowID, s2.AddedRows = int64p(39), int64p(1)
	if err := b.AddSnapshot(s2); !errors.Is(err, ErrInvalidMetadata) {
		t.Fatalf("overlapping row ids: %v", err)
	}
	got, err := b.Build()
	if err != nil || got.NextRowID() != 40 {
		t.Fatalf("next-row-id %d, %v", got.NextRowID(), err)
	}
	// Upgrading v2 -> v3 keeps next-row-id at 0.
	up := NewMetadataBuilder(newTestTable(t, nil))
	if err := up.UpgradeFormatVersion(3); err != nil {
		t.Fatal(err)
	}
	if v3, err := up.Build(); err != nil || v3.FormatVersion() != 3 || v3.NextRowID() != 0 {
		t.Fatalf("upgrade: %v", err)
	}
}
