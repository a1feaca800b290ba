package maintenance

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
)

// age sets a file's modification time back by d.
func age(t *testing.T, loc string, d time.Duration) {
	t.Helper()
	p, err := fileio.LocalPath(loc)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-d)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
}

// deadWriter writes data files and a manifest-like file that no commit
// ever references, as a writer that died before its commit would.
func deadWriter(t *testing.T, tbl *table.Table, ids []int64) []string {
	t.Helper()
	var out []string
	for _, df := range writeFiles(t, tbl, ids, "a") {
		out = append(out, df.FilePath)
	}
	w, err := tbl.IO().Create(context.Background(), tbl.MetadataDir()+"/"+iceberg.NewUUIDString()+"-m0.avro")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("half a manifest"))
	w.Close()
	return append(out, w.Location())
}

func TestRemoveOrphanFiles(t *testing.T) {
	ctx := context.Background()
	const old = 10 * 24 * time.Hour
	tests := []struct {
		name    string
		opts    OrphanOptions
		ageDead bool
		gcOff   bool
		// wantDead: the dead writer's files are reported; removed unless dry.
		wantDead bool
		wantErr  error
	}{
		{"old orphans go", OrphanOptions{}, true, false, true, nil},
		{"young orphans stay", OrphanOptions{}, false, false, false, nil},
		{"dry run lists only", OrphanOptions{DryRun: true}, true, false, true, nil},
		{"explicit cut-off", OrphanOptions{OlderThan: time.Now().Add(time.Hour)}, false, false, true, nil},
		{"gc disabled", OrphanOptions{}, true, true, false, ErrGCDisabled},
		{"bad concurrency", OrphanOptions{MaxConcurrentDeletes: -1}, true, false, false, ErrInvalidArgument},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.env.Now = time.Now // the default cut-off is relative to real file times
			tbl := f.create(t, false, nil)
			tbl = appendRows(t, tbl, seq(0, 3))
			tbl = appendRows(t, tbl, seq(3, 6))
			tbl = deleteIDs(t, tbl, 4)
			if tc.gcOff {
				var err error
				if tbl, err = tbl.CommitUpdates(ctx, []iceberg.Update{iceberg.SetPropertiesUpdate{Updates: map[string]string{iceberg.PropGCEnabled: "false"}}}); err != nil {
					t.Fatal(err)
				}
			}
			dead := deadWriter(t, tbl, seq(50, 53))
			// Every committed file is old too: only reachability protects it.
			for _, p := range filesOnDisk(t, tbl) {
				if tc.ageDead || !slices.Contains(dead, p) {
					age(t, p, old)
				}
			}
			before := filesOnDisk(t, tbl)
			res, err := RemoveOrphanFiles(ctx, tbl, tc.opts)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			var want []string
			if tc.wantDead {
				want = slices.Sorted(slices.Values(dead))
			}
			if !slices.Equal(res.OrphanFileLocations, want) {
				t.Fatalf("orphans %v, want %v", res.OrphanFileLocations, want)
			}
			if len(res.Rows()) != len(want) {
				t.Fatalf("%d result rows for %d orphans", len(res.Rows()), len(want))
			}
			after := filesOnDisk(t, tbl)
			removed, added := diff(before, after)
			if len(added) != 0 {
				t.Fatalf("files appeared: %v", added)
			}
			wantRemoved := want
			if tc.opts.DryRun {
				wantRemoved = nil
			}
			if !slices.Equal(removed, wantRemoved) {
				t.Fatalf("removed %v, want %v", removed, wantRemoved)
			}
			if got := readIDs(t, f.load(t), 0); !slices.Equal(got, []int64{0, 1, 2, 3, 5}) {
				t.Fatalf("rows after cleanup: %v", got)
			}
		})
	}
}

// TestRemoveOrphanFilesConcurrentCommit runs the cleanup between a
// writer's data files and its catalog swap: the commit still succeeds and
// its rows stay readable, while the old orphans are gone.
func TestRemoveOrphanFilesConcurrentCommit(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.env.Now = time.Now
	tbl := appendRows(t, f.create(t, false, nil), seq(0, 2))
	dead := deadWriter(t, tbl, seq(90, 92))
	for _, p := range filesOnDisk(t, tbl) {
		age(t, p, 10*24*time.Hour)
	}
	var cleanup OrphanResult
	var cleanupErr error
	f.cat.beforeSwap = func() {
		cleanup, cleanupErr = RemoveOrphanFiles(ctx, f.load(t), OrphanOptions{OlderThan: time.Now().Add(-time.Hour)})
	}
	appendRows(t, tbl, seq(2, 4))
	if cleanupErr != nil {
		t.Fatal(cleanupErr)
	}
	if !slices.Equal(cleanup.OrphanFileLocations, slices.Sorted(slices.Values(dead))) {
		t.Fatalf("orphans %v, want %v", cleanup.OrphanFileLocations, dead)
	}
	tbl = f.load(t)
	if got := readIDs(t, tbl, 0); !slices.Equal(got, seq(0, 4)) {
		t.Fatalf("rows %v", got)
	}
	if orphans := orphansNow(t, tbl); len(orphans) != 0 {
		t.Fatalf("orphans left: %v", orphans)
	}
}

func TestNormalizeLocation(t *testing.T) {
	tests := []struct{ a, b string }{
		{"file:///x/y/z.parquet", "/x/y/z.parquet"},
		{"file:/x/y/z.parquet", "file:///x/y/z.parquet"},
		{"/x//y/./z.parquet", "/x/y/z.parquet"},
	}
	for _, tc := range tests {
		t.Run(tc.a, func(t *testing.T) {
			if normalizeLocation(tc.a) != normalizeLocation(tc.b) {
				t.Fatalf("%q and %q normalize to %q and %q", tc.a, tc.b, normalizeLocation(tc.a), normalizeLocation(tc.b))
			}
		})
	}
	if normalizeLocation("/x/a") == normalizeLocation("/x/b") {
		t.Fatal("different paths compare equal")
	}
}
