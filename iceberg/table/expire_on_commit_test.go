package table

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// expireProps keeps the last keep snapshots and expires the rest on commit.
func expireProps(keep string) map[string]string {
	return map[string]string{
		iceberg.PropExpireOnCommitEnabled: "true",
		iceberg.PropMaxSnapshotAgeMs:      "0",
		iceberg.PropMinSnapshotsToKeep:    keep,
		"commit.retry.min-wait-ms":        "1",
	}
}

// An append on a table with history.expire.on-commit.enabled writes its
// three metadata files (manifest, manifest list, metadata.json) and no
// more, removes the snapshots past the policy in that metadata.json, and
// hands them with the base that still had them to Env.RemoveExpired once
// the swap landed.
func TestExpireOnCommitInTheSameCommit(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	type call struct {
		before  int // snapshots of the base
		expired []int64
	}
	var calls []call
	f.env.RemoveExpired = func(_ context.Context, before *iceberg.TableMetadata, after *Table, expired []int64) error {
		for _, id := range expired {
			if _, ok := after.Metadata().SnapshotByID(id); ok {
				t.Errorf("snapshot %d expired but still in the committed metadata", id)
			}
		}
		calls = append(calls, call{len(before.Snapshots()), slices.Clone(expired)})
		return nil
	}
	tbl := f.createEvents(t, expireProps("2"))
	metaDir := localDir(t, tbl.MetadataDir())
	var ids []int64
	for i := 0; i < 5; i++ {
		n := countFiles(t, metaDir)
		var err error
		if tbl, err = tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, i, 1)).Commit(ctx); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tbl.Metadata().CurrentSnapshotID())
		// Nothing removes the expired manifest list here (the test's
		// RemoveExpired only records), so every append adds exactly three.
		if got := countFiles(t, metaDir) - n; got != 3 {
			t.Fatalf("append %d wrote %d metadata files, want 3", i, got)
		}
		if got := len(tbl.Metadata().Snapshots()); got != min(i+1, 2) {
			t.Fatalf("append %d: %d snapshots, want %d", i, got, min(i+1, 2))
		}
	}
	want := []call{{2, []int64{ids[0]}}, {2, []int64{ids[1]}}, {2, []int64{ids[2]}}}
	if len(calls) != len(want) {
		t.Fatalf("RemoveExpired calls %v, want %v", calls, want)
	}
	for i := range want {
		if calls[i].before != want[i].before || !slices.Equal(calls[i].expired, want[i].expired) {
			t.Fatalf("RemoveExpired calls %v, want %v", calls, want)
		}
	}
	if got := len(liveFiles(t, tbl)); got != 5 {
		t.Fatalf("%d live files, want 5", got)
	}
}

// After an unknown outcome nothing expired is removed: the commit may not
// have landed, and its base's snapshots may still be the table's.
func TestExpireOnCommitUnknownStateRemovesNothing(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	called := false
	f.env.RemoveExpired = func(context.Context, *iceberg.TableMetadata, *Table, []int64) error {
		called = true
		return nil
	}
	tbl := f.createEvents(t, expireProps("1"))
	tbl, err := tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, 0, 1)).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f.env.Faults = &Faults{Hook: func(s FaultStep, _ Identifier) error {
		if s == FaultAfterSwap || s == FaultStatusCheck {
			return errors.New("connection lost")
		}
		return nil
	}}
	_, err = tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, 1, 1)).Commit(ctx)
	if !errors.Is(err, iceberg.ErrCommitStateUnknown) {
		t.Fatalf("got %v, want ErrCommitStateUnknown", err)
	}
	if called {
		t.Fatal("files of expired snapshots removed after an unknown outcome")
	}
}

// A commit that loses the swap plans the expiry again on the version it
// is re-applied to: the snapshot another writer added is kept as a
// parent, the older ones go, and the result is min-snapshots-to-keep long.
func TestExpireOnCommitRetriedOnNewBase(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, expireProps("2"))
	tbl, err := tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, 0, 1)).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Another Env (another process) commits on the same pointer.
	other := &Env{Catalog: f.cat, IO: f.env.IO}
	ot, err := Load(ctx, other, f.ident)
	if err != nil {
		t.Fatal(err)
	}
	if ot, err = ot.NewAppend().AddDataFile(f.dayFile(t, ot, 1, 1)).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// tbl is stale: its swap loses, and the retry applies onto ot.
	got, err := tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, 2, 1)).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := got.Metadata()
	if len(m.Snapshots()) != 2 {
		t.Fatalf("%d snapshots, want 2", len(m.Snapshots()))
	}
	if p := m.CurrentSnapshot().ParentSnapshotID; p == nil || *p != ot.Metadata().CurrentSnapshotID() {
		t.Fatalf("parent %v, want the other writer's snapshot %d", p, ot.Metadata().CurrentSnapshotID())
	}
	if got := len(liveFiles(t, got)); got != 3 {
		t.Fatalf("%d live files, want 3", got)
	}
}
