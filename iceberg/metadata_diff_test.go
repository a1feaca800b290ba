package iceberg

import (
	"encoding/json"
	"testing"
)

// TestDiffMetadata: the diff of a change, applied to the base, gives the
// same table as the change itself (logs aside).
func TestDiffMetadata(t *testing.T) {
	base := newTestTable(t, map[string]string{"a": "1", "gone": "x"})
	b := NewMetadataBuilder(base)
	s1, err := NewSchema(0, append(base.CurrentSchema().Fields(), NestedField{ID: 50, Name: "extra", Type: IntType{}}))
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = b.AddSchema(s1)
	must(err)
	must(b.SetCurrentSchema(LastAdded))
	_, err = b.AddPartitionSpec(UnpartitionedSpec)
	must(err)
	must(b.SetDefaultSpec(LastAdded))
	must(b.SetProperties(map[string]string{"a": "2", "b": "3"}))
	must(b.RemoveProperties("gone"))
	snap := testSnapshot(5, nil, 1, base.LastUpdatedMs()+1)
	must(b.AddSnapshot(snap))
	must(b.SetSnapshotRef(MainBranch, NewBranch(5)))
	must(b.SetSnapshotRef("t1", NewTag(5)))
	next, err := b.Build()
	must(err)

	updates := DiffMetadata(base, next)
	again, err := ApplyUpdates(base, "", updates)
	must(err)
	if again.CurrentSchemaID() != next.CurrentSchemaID() || again.DefaultSpecID() != next.DefaultSpecID() ||
		again.CurrentSnapshotID() != 5 || len(again.Refs()) != 2 || again.Property("a", "") != "2" ||
		again.Property("b", "") != "3" || again.Property("gone", "") != "" || len(again.Schemas()) != 2 {
		data, _ := json.Marshal(updates)
		t.Fatalf("diff %s did not reproduce the change", data)
	}
	reqs := RequirementsFor(base, updates)
	if err := ValidateRequirements(base, reqs); err != nil {
		t.Fatal(err)
	}
	if err := ValidateRequirements(again, reqs); err == nil {
		t.Fatal("requirements of the diff still hold after it was applied (main moved)")
	}
	if d := DiffMetadata(next, next); len(d) != 0 {
		t.Fatalf("no change diffs to %v", d)
	}

	// Removing the snapshot again removes both refs.
	b = NewMetadataBuilder(next)
	must(b.RemoveSnapshotRef("t1"))
	must(b.RemoveSnapshots(5))
	later, err := b.Build()
	must(err)
	back, err := ApplyUpdates(next, "", DiffMetadata(next, later))
	must(err)
	if len(back.Snapshots()) != 0 || len(back.Refs()) != 0 {
		t.Fatalf("snapshots %d refs %v", len(back.Snapshots()), back.Refs())
	}
}
