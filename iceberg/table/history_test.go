package table

import (
	"context"
	"testing"
)

// TestLongHistoryTwoEnvs: two Envs (as two processes) take turns appending
// to a table whose history is longer than a lookup scans. Each commit
// must build on the other's latest version, not on what it committed or
// encoded itself, and every metadata.json written must read back with
// the whole history.
func TestLongHistoryTwoEnvs(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, map[string]string{"commit.retry.min-wait-ms": "1", "commit.retry.max-wait-ms": "5"})
	df := f.dayFile(t, tbl, 0, 1)
	envs := []*Env{f.env, {Catalog: f.env.Catalog, IO: f.env.IO}}
	tables := []*Table{tbl, nil}
	want := 0
	for i := 0; i < 40; i++ {
		w := i % 2
		if i < 24 {
			w = i / 12 // twelve in a row from each, then alternate
		}
		base := tables[w]
		if base == nil {
			var err error
			if base, err = Load(ctx, envs[w], f.ident); err != nil {
				t.Fatal(err)
			}
		}
		committed, err := base.NewAppend().AddDataFile(df).Commit(ctx)
		if err != nil {
			t.Fatalf("commit %d by env %d: %v", i, w, err)
		}
		want++
		tables[w] = committed
		read, err := ReadMetadata(ctx, f.env.IO, committed.MetadataLocation())
		if err != nil {
			t.Fatal(err)
		}
		if n := len(read.Snapshots()); n != want || len(committed.Metadata().Snapshots()) != want {
			t.Fatalf("commit %d by env %d: file has %d snapshots, memory %d, want %d", i, w, n, len(committed.Metadata().Snapshots()), want)
		}
		cur := read.CurrentSnapshot()
		if cur == nil || cur.SnapshotID != committed.Metadata().CurrentSnapshotID() {
			t.Fatalf("commit %d: current snapshot %v, want %d", i, cur, committed.Metadata().CurrentSnapshotID())
		}
		var chain int
		for range read.Ancestors(cur.SnapshotID) {
			chain++
		}
		if chain != want {
			t.Fatalf("commit %d: %d ancestors, want %d (a commit was lost)", i, chain, want)
		}
	}
}
