package maintenance

import (
	"context"
	"errors"
	"flag"
	"slices"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

var long = flag.Bool("long", false, "run the acceptance tests at full size (1,000 commits)")

var future = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)

func TestExpireRetention(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// setup runs on the history (main s1->s2->s3, audit s2->s4).
		setup   func(t *testing.T, f *fixture, s1, s2, s3, s4 int64)
		opts    func(s1, s2, s3, s4 int64) ExpireOptions
		wantErr error
		// kept lists the snapshots that must remain.
		kept func(s1, s2, s3, s4 int64) []int64
	}{
		{"defaults keep young snapshots", nil,
			func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{} }, nil,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s1, s2, s3, s4} }},
		{"retain last one per branch", nil,
			func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{OlderThan: future, RetainLast: 1} }, nil,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s3, s4} }},
		{"retain last two per branch", nil,
			func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{OlderThan: future, RetainLast: 2} }, nil,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s2, s3, s4} }},
		{"tag keeps its snapshot", func(t *testing.T, f *fixture, s1, s2, s3, s4 int64) {
			if _, err := CreateRef(ctx, f.load(t), "v1", true, RefOptions{SnapshotID: &s1}); err != nil {
				t.Fatal(err)
			}
		}, func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{OlderThan: future} }, nil,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s1, s3, s4} }},
		{"expired tag is dropped", func(t *testing.T, f *fixture, s1, s2, s3, s4 int64) {
			if _, err := CreateRef(ctx, f.load(t), "v1", true, RefOptions{SnapshotID: &s1, RetainMs: 1}); err != nil {
				t.Fatal(err)
			}
		}, func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{OlderThan: future} }, nil,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s3, s4} }},
		{"branch retention overrides the default", func(t *testing.T, f *fixture, s1, s2, s3, s4 int64) {
			if _, err := CreateRef(ctx, f.load(t), "main", false, RefOptions{Replace: true, MinSnapshotsToKeep: 3}); err != nil {
				t.Fatal(err)
			}
		}, func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{OlderThan: future} }, nil,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s1, s2, s3, s4} }},
		{"explicit ids", nil,
			func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{SnapshotIDs: []int64{s1}} }, nil,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s2, s3, s4} }},
		{"explicit ref head", nil,
			func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{SnapshotIDs: []int64{s4}} }, ErrSnapshotReferenced,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s1, s2, s3, s4} }},
		{"dry run", nil,
			func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{OlderThan: future, DryRun: true} }, nil,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s1, s2, s3, s4} }},
		{"gc disabled", func(t *testing.T, f *fixture, s1, s2, s3, s4 int64) {
			if _, err := f.load(t).CommitUpdates(ctx, []iceberg.Update{iceberg.SetPropertiesUpdate{Updates: map[string]string{iceberg.PropGCEnabled: "false"}}}); err != nil {
				t.Fatal(err)
			}
		}, func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{OlderThan: future} }, ErrGCDisabled,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s1, s2, s3, s4} }},
		{"negative retain_last", nil,
			func(s1, s2, s3, s4 int64) ExpireOptions { return ExpireOptions{RetainLast: -1} }, ErrInvalidArgument,
			func(s1, s2, s3, s4 int64) []int64 { return []int64{s1, s2, s3, s4} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, s1, s2, s3, s4 := history(t)
			if tc.setup != nil {
				tc.setup(t, f, s1, s2, s3, s4)
			}
			before := filesOnDisk(t, f.load(t))
			res, err := ExpireSnapshots(ctx, f.load(t), tc.opts(s1, s2, s3, s4))
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			tbl := f.load(t)
			got := snapshotIDs(tbl.Metadata())
			want := tc.kept(s1, s2, s3, s4)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("kept snapshots %v, want %v", got, want)
			}
			if tc.wantErr == nil && !tc.opts(s1, s2, s3, s4).DryRun && len(res.ExpiredSnapshotIDs) != 4-len(want) {
				t.Fatalf("result lists %d expired snapshots, want %d", len(res.ExpiredSnapshotIDs), 4-len(want))
			}
			// Every kept snapshot still reads, and nothing it needs is gone.
			for _, id := range want {
				readIDs(t, tbl, id)
			}
			after := filesOnDisk(t, tbl)
			if tc.wantErr != nil || tc.opts(s1, s2, s3, s4).DryRun {
				if !slices.Equal(before, after) {
					t.Fatalf("files changed on a refused or dry run:\nbefore %v\nafter  %v", before, after)
				}
			}
		})
	}
}

// TestExpireDeletesExactlyUnreachable checks the counts by kind: a data
// file removed by an overwrite and a position delete file replaced by a
// later rewrite become unreachable once the old snapshots expire.
func TestExpireDeletesExactlyUnreachable(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.create(t, false, map[string]string{iceberg.PropMetadataDeleteAfterCommitEnabled: "true", iceberg.PropMetadataPreviousVersionsMax: "1"})
	tbl = appendRows(t, tbl, seq(0, 3))
	tbl = appendRows(t, tbl, seq(3, 6))
	tbl = deleteIDs(t, tbl, 1)
	data, _ := liveFiles(t, tbl)
	// Overwrite: drop the second file entirely (ids 3-5).
	var second iceberg.DataFile
	for _, d := range data {
		if d.RecordCount == 3 && !slices.Contains(readFileIDs(t, tbl, d), 1) {
			second = d
		}
	}
	tbl, err := tbl.NewOverwrite().RemoveFile(second).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantRows := readIDs(t, tbl, 0)
	orphans := orphansNow(t, tbl)
	dry, err := ExpireSnapshots(ctx, tbl, ExpireOptions{OlderThan: future, RetainLast: 1, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ExpireSnapshots(ctx, tbl, ExpireOptions{OlderThan: future, RetainLast: 1})
	if err != nil {
		t.Fatal(err)
	}
	if counts(dry) != counts(res) {
		t.Fatalf("dry run %+v differs from the run %+v", dry, res)
	}
	// 4 snapshots -> 1: three manifest lists go; the removed data file goes;
	// the delete file is still live (it applies to the first file).
	want := ExpireResult{DeletedDataFilesCount: 1, DeletedManifestListsCount: 3, DeletedManifestFilesCount: res.DeletedManifestFilesCount}
	if counts(res) != counts(want) || res.DeletedManifestFilesCount == 0 {
		t.Fatalf("got %+v, want %+v (manifests > 0)", res, want)
	}
	tbl = f.load(t)
	if got := readIDs(t, tbl, 0); !slices.Equal(got, wantRows) {
		t.Fatalf("rows %v, want %v", got, wantRows)
	}
	assertDiskIsReferenced(t, tbl, orphans)
}

// TestExpireManyCommits is the acceptance check: after many one-row
// commits, expiring with retain_last=1 keeps the rows and leaves on disk
// exactly the files the one remaining snapshot reaches.
func TestExpireManyCommits(t *testing.T) {
	n := 200
	if *long {
		n = 1000
	}
	if testing.Short() {
		n = 50
	}
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.create(t, false, map[string]string{
		iceberg.PropMetadataDeleteAfterCommitEnabled: "true", iceberg.PropMetadataPreviousVersionsMax: "3",
	})
	for i := range n {
		tbl = appendRows(t, tbl, []int64{int64(i)})
	}
	if len(tbl.Metadata().Snapshots()) != n {
		t.Fatalf("%d snapshots, want %d", len(tbl.Metadata().Snapshots()), n)
	}
	orphans := orphansNow(t, tbl)
	res, err := ExpireSnapshots(ctx, tbl, ExpireOptions{OlderThan: future, RetainLast: 1})
	if err != nil {
		t.Fatal(err)
	}
	tbl = f.load(t)
	if len(tbl.Metadata().Snapshots()) != 1 || len(res.ExpiredSnapshotIDs) != n-1 {
		t.Fatalf("%d snapshots left, %d expired", len(tbl.Metadata().Snapshots()), len(res.ExpiredSnapshotIDs))
	}
	if res.DeletedDataFilesCount != 0 || res.DeletedManifestListsCount != int64(n-1) {
		t.Fatalf("result %+v: want 0 data files and %d manifest lists", res, n-1)
	}
	if got := readIDs(t, tbl, 0); !slices.Equal(got, seq(0, int64(n))) {
		t.Fatalf("rows changed: %d rows", len(got))
	}
	assertDiskIsReferenced(t, tbl, orphans)
}

// assertDiskIsReferenced checks the files on disk are exactly the files
// the table's metadata reaches through live entries (plus metadata files),
// ignoring the files in ignore.
func assertDiskIsReferenced(t *testing.T, tbl *table.Table, ignore []string) {
	t.Helper()
	want := liveReferenced(t, tbl)
	var disk []string
	for _, p := range filesOnDisk(t, tbl) {
		if !slices.Contains(ignore, p) {
			disk = append(disk, p)
		}
	}
	if extra, missing := diff(disk, want); len(extra)+len(missing) > 0 {
		t.Fatalf("%d files on disk, %d reachable: %d unreachable on disk (first %v), %d reachable missing (first %v)",
			len(disk), len(want), len(extra), first(extra), len(missing), first(missing))
	}
}

// liveReferenced is what the metadata reaches through live manifest
// entries, plus the metadata files.
func liveReferenced(t *testing.T, tbl *table.Table) []string {
	t.Helper()
	r := newReachable()
	if err := r.collect(context.Background(), tbl, tbl.Metadata(), tbl.Metadata().Snapshots(), nil, true); err != nil {
		t.Fatal(err)
	}
	out := []string{tbl.MetadataLocation()}
	for _, e := range tbl.Metadata().MetadataLog() {
		out = append(out, e.MetadataFile)
	}
	for p := range r.lists {
		out = append(out, p)
	}
	for p := range r.manifests {
		out = append(out, p)
	}
	for p := range r.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// diff returns the elements only in a and only in b (both sorted).
func diff(a, b []string) (onlyA, onlyB []string) {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			onlyA = append(onlyA, x)
		}
	}
	for _, x := range b {
		if _, ok := slices.BinarySearch(a, x); !ok {
			onlyB = append(onlyB, x)
		}
	}
	return onlyA, onlyB
}

func first(s []string) []string { return s[:min(len(s), 3)] }

// orphansNow lists files on disk the metadata does not reach at all.
// The table package leaves the new manifests it merged away on disk; they
// are orphans before any expiry, and only RemoveOrphanFiles reclaims them.
func orphansNow(t *testing.T, tbl *table.Table) []string {
	t.Helper()
	ref, err := ReferencedFiles(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	extra, _ := diff(filesOnDisk(t, tbl), ref)
	return extra
}

// readFileIDs reads one data file's ids (no deletes).
func readFileIDs(t *testing.T, tbl *table.Table, df iceberg.DataFile) []int64 {
	t.Helper()
	for _, task := range planAll(t, tbl) {
		if task.File.FilePath == df.FilePath {
			task.Deletes = nil
			return readTask(t, tbl, task)
		}
	}
	t.Fatalf("file %s not in the table", df.FilePath)
	return nil
}

func counts(r ExpireResult) [6]int64 {
	return [6]int64{r.DeletedDataFilesCount, r.DeletedPositionDeleteFilesCount, r.DeletedEqualityDeleteFilesCount,
		r.DeletedManifestFilesCount, r.DeletedManifestListsCount, r.DeletedStatisticsFilesCount}
}
