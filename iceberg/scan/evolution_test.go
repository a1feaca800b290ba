package scan

import (
	"context"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
)

// evolve makes schema current: s dropped and re-added (a new field id),
// so a filter on s names a column old files never had.
func evolve(t *testing.T, meta *iceberg.TableMetadata) *iceberg.TableMetadata {
	t.Helper()
	cur := meta.CurrentSchema()
	dropped, last, err := iceberg.NewSchemaUpdate(cur, meta.LastColumnID()).DeleteColumn("s").Apply()
	if err != nil {
		t.Fatal(err)
	}
	readded, last, err := iceberg.NewSchemaUpdate(dropped, last).AddColumn("", "s", iceberg.StringType{}, "").Apply()
	if err != nil {
		t.Fatal(err)
	}
	out, err := iceberg.ApplyUpdates(meta, "m2", []iceberg.Update{
		iceberg.AddSchemaUpdate{Schema: readded, LastColumnID: last}, iceberg.SetCurrentSchemaUpdate{SchemaID: iceberg.LastAdded},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPlanBindsCurrentReadToCurrentSchema(t *testing.T) {
	tb := newTable(t, nil)
	f := dataFile(t, "old.parquet", []any{}, 0, 10, base, base)
	f.ValueCounts[3], f.NullValueCounts[3] = 100, 0 // the old s had no nulls
	f.LowerBounds[3], f.UpperBounds[3] = ser(t, iceberg.StringType{}, "x"), ser(t, iceberg.StringType{}, "x")
	first := tb.commit(tb.manifestOf("m.avro", iceberg.ManifestContentData, 1, f))
	// snapshot 2 records the schema it was written with, as commits do
	prev, _ := tb.meta.SnapshotByID(first)
	zero := 0
	withSchema, err := iceberg.ApplyUpdates(tb.meta, "m1", []iceberg.Update{
		iceberg.AddSnapshotUpdate{Snapshot: &iceberg.Snapshot{SnapshotID: 2, ParentSnapshotID: &prev.SnapshotID, SequenceNumber: 11,
			TimestampMs: 2, ManifestList: prev.ManifestList, Summary: map[string]string{"operation": "append"}, SchemaID: &zero}},
		iceberg.SetSnapshotRefUpdate{Name: iceberg.MainBranch, Ref: iceberg.NewBranch(2)},
	})
	if err != nil {
		t.Fatal(err)
	}
	snap := int64(2)
	meta := evolve(t, withSchema)
	snapSchema, _ := meta.SchemaByID(0)

	tests := []struct {
		name   string
		filter expr.Expr
		opts   Options
		want   int
	}{
		// The re-added s is NULL in the old file: IS NULL keeps it, = 'x'
		// (the dropped column's value) does not match it.
		{"is null keeps old file", expr.IsNull("s"), Options{}, 1},
		{"dropped value does not resurface", expr.Eq("s", "x"), Options{}, 1},
		{"not null on the new column", expr.NotNull("s"), Options{}, 1},
		// An explicit schema wins: bound to the snapshot's schema, s is
		// the old column (no nulls, value x).
		{"explicit snapshot schema", expr.IsNull("s"), Options{Schema: snapSchema}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tasks, _, err := Plan(context.Background(), tb.open, meta, snap, tc.filter, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(tasks) != tc.want {
				t.Fatalf("planned %d files, want %d", len(tasks), tc.want)
			}
		})
	}
}

func TestReadSchema(t *testing.T) {
	tb := newTable(t, nil)
	snap := tb.commit(tb.manifestOf("m.avro", iceberg.ManifestContentData, 1))
	meta := evolve(t, tb.meta)
	older, _ := meta.SnapshotByID(snap)
	// A second snapshot on main written with the evolved schema; snapshot
	// 1 stays reachable through a tag.
	schemaID := meta.CurrentSchemaID()
	meta, err := iceberg.ApplyUpdates(meta, "m3", []iceberg.Update{
		iceberg.AddSnapshotUpdate{Snapshot: &iceberg.Snapshot{SnapshotID: 2, ParentSnapshotID: &older.SnapshotID, SequenceNumber: 11,
			TimestampMs: 2, ManifestList: older.ManifestList, Summary: map[string]string{"operation": "append"}, SchemaID: &schemaID}},
		iceberg.SetSnapshotRefUpdate{Name: iceberg.MainBranch, Ref: iceberg.NewBranch(2)},
		iceberg.SetSnapshotRefUpdate{Name: "b", Ref: iceberg.NewBranch(1)},
	})
	if err != nil {
		t.Fatal(err)
	}
	older, _ = meta.SnapshotByID(1)
	head := meta.CurrentSnapshot()
	if got := ReadSchema(meta, head).ID; got != meta.CurrentSchemaID() {
		t.Errorf("head of main reads schema %d", got)
	}
	// snapshot 1 is the head of branch b: a branch reads the current schema
	if got := ReadSchema(meta, older).ID; got != meta.CurrentSchemaID() {
		t.Errorf("head of branch b reads schema %d", got)
	}
	// snapshot 3, written with schema 0, is no branch's head: time travel
	// to it reads the schema it was written with
	zero := 0
	meta, err = iceberg.ApplyUpdates(meta, "m4", []iceberg.Update{
		iceberg.AddSnapshotUpdate{Snapshot: &iceberg.Snapshot{SnapshotID: 3, ParentSnapshotID: &older.SnapshotID, SequenceNumber: 12,
			TimestampMs: 3, ManifestList: older.ManifestList, Summary: map[string]string{"operation": "append"}, SchemaID: &zero}},
	})
	if err != nil {
		t.Fatal(err)
	}
	third, _ := meta.SnapshotByID(3)
	if got := ReadSchema(meta, third).ID; got != 0 {
		t.Errorf("time travel to snapshot 3 reads schema %d, want its own 0", got)
	}
	if got := ReadSchema(meta, nil).ID; got != meta.CurrentSchemaID() {
		t.Errorf("empty table reads schema %d", got)
	}
}

// A name only the snapshot's schema knows (the caller reads a branch head
// with the schema it was written with) falls back to that schema; a name
// neither knows is still an error.
func TestPlanFallsBackToSnapshotSchemaForUnknownNames(t *testing.T) {
	tb := newTable(t, nil)
	f := dataFile(t, "old.parquet", []any{}, 0, 10, base, base)
	f.LowerBounds[3], f.UpperBounds[3] = ser(t, iceberg.StringType{}, "x"), ser(t, iceberg.StringType{}, "x")
	tb.commit(tb.manifestOf("m.avro", iceberg.ManifestContentData, 1, f))
	prev := tb.meta.CurrentSnapshot()
	zero := 0
	renamed, last, err := iceberg.NewSchemaUpdate(tb.meta.CurrentSchema(), tb.meta.LastColumnID()).RenameColumn("s", "label").Apply()
	if err != nil {
		t.Fatal(err)
	}
	meta, err := iceberg.ApplyUpdates(tb.meta, "m1", []iceberg.Update{
		iceberg.AddSnapshotUpdate{Snapshot: &iceberg.Snapshot{SnapshotID: 2, ParentSnapshotID: &prev.SnapshotID, SequenceNumber: 11,
			TimestampMs: 2, ManifestList: prev.ManifestList, Summary: map[string]string{"operation": "append"}, SchemaID: &zero}},
		iceberg.SetSnapshotRefUpdate{Name: iceberg.MainBranch, Ref: iceberg.NewBranch(2)},
		iceberg.AddSchemaUpdate{Schema: renamed, LastColumnID: last}, iceberg.SetCurrentSchemaUpdate{SchemaID: iceberg.LastAdded},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		filter  expr.Expr
		want    int
		wantErr bool
	}{
		{"current name", expr.Eq("label", "y"), 0, false},
		{"snapshot name", expr.Eq("s", "x"), 1, false},
		{"snapshot name pruned", expr.Eq("s", "y"), 0, false},
		{"unknown name", expr.Eq("nope", "x"), 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tasks, _, err := Plan(context.Background(), tb.open, meta, 2, tc.filter, Options{})
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if len(tasks) != tc.want {
				t.Fatalf("planned %d files, want %d", len(tasks), tc.want)
			}
		})
	}
}
