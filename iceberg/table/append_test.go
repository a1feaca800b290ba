package table

import (
	"context"
	"testing"
)

// The commit anatomy: each append of one file writes exactly one
// manifest, one manifest list and one metadata.json, and the new manifest
// list carries the earlier manifests forward.
func TestAppendWritesThreeMetadataFiles(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, nil)
	metaDir, dataDir := localDir(t, tbl.MetadataDir()), localDir(t, tbl.DataDir())
	if got := countFiles(t, metaDir); got != 1 {
		t.Fatalf("after create: %d metadata files, want 1", got)
	}
	for i := 1; i <= 3; i++ {
		df := f.dayFile(t, tbl, 0, 3000)
		var err error
		if tbl, err = tbl.NewAppend().AddDataFile(df).Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if got, want := countFiles(t, metaDir), 1+3*i; got != want {
			t.Fatalf("after append %d: %d metadata files, want %d", i, got, want)
		}
		if got := countFiles(t, dataDir); got != i {
			t.Fatalf("after append %d: %d data files, want %d", i, got, i)
		}
		s := tbl.Metadata().CurrentSnapshot()
		if s.Summary["added-data-files"] != "1" || s.Summary["total-records"] != itoa(3000*i) ||
			s.Summary["operation"] != "append" || s.SequenceNumber != int64(i) {
			t.Fatalf("append %d: snapshot %+v", i, s)
		}
		mfs, err := ManifestsOf(ctx, tbl.IO(), s)
		if err != nil {
			t.Fatal(err)
		}
		if len(mfs) != i {
			t.Fatalf("append %d: %d manifests, want %d", i, len(mfs), i)
		}
		if mfs[0].AddedSnapshotID != s.SnapshotID || mfs[0].SequenceNumber != int64(i) {
			t.Fatalf("newest manifest first: %+v", mfs[0])
		}
	}
	// The catalog and a fresh load agree with what Commit returned.
	again, err := Load(ctx, f.env, f.ident)
	if err != nil {
		t.Fatal(err)
	}
	if again.MetadataLocation() != tbl.MetadataLocation() || len(again.Metadata().Snapshots()) != 3 {
		t.Fatalf("reloaded %s with %d snapshots", again.MetadataLocation(), len(again.Metadata().Snapshots()))
	}
	if got := len(again.Metadata().MetadataLog()); got != 3 {
		t.Fatalf("metadata log has %d entries, want 3", got)
	}
	if got := len(liveFiles(t, again)); got != 3 {
		t.Fatalf("%d live files, want 3", got)
	}
}

func TestManifestMergeAfterMinCount(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, map[string]string{"commit.manifest.min-count-to-merge": "3"})
	var err error
	for i := 0; i < 5; i++ {
		if tbl, err = tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, i, 10)).Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	mfs, err := ManifestsOf(ctx, tbl.IO(), tbl.Metadata().CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if len(mfs) >= 3 {
		t.Fatalf("%d manifests: merge did not happen", len(mfs))
	}
	if got := len(liveFiles(t, tbl)); got != 5 {
		t.Fatalf("%d live files after merge, want 5", got)
	}
	if tbl.Metadata().CurrentSnapshot().Summary["total-data-files"] != "5" {
		t.Fatalf("summary %v", tbl.Metadata().CurrentSnapshot().Summary)
	}
	// Fast append never merges.
	if tbl, err = tbl.NewFastAppend().AddDataFile(f.dayFile(t, tbl, 9, 1)).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if got := len(liveFiles(t, tbl)); got != 6 {
		t.Fatalf("%d live files, want 6", got)
	}
}

// A merge leaves no unreferenced manifest behind: every manifest on disk
// is listed by some snapshot.
func TestMergeLeavesNoOrphanManifests(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, map[string]string{"commit.manifest.min-count-to-merge": "2"})
	var err error
	for i := 0; i < 6; i++ {
		if tbl, err = tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, i, 10)).Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	referenced := map[string]bool{}
	for _, s := range tbl.Metadata().Snapshots() {
		mfs, err := ManifestsOf(ctx, tbl.IO(), s)
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			referenced[basename(mf.Path)] = true
		}
	}
	metaDir := localDir(t, tbl.MetadataDir())
	want := len(referenced) + 1 + 2*6 // manifests + create json + (list + json) per commit
	if got := countFiles(t, metaDir); got != want {
		t.Fatalf("%d files under metadata/, want %d (%d referenced manifests)", got, want, len(referenced))
	}
}

// A compaction can keep the starting snapshot's data sequence number.
func TestKeepDataSequenceNumber(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, nil)
	old := f.dayFile(t, tbl, 0, 10)
	tbl, err := tbl.NewAppend().AddDataFile(old).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err = tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, 1, 10)).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	compacted := f.dayFile(t, tbl, 0, 10)
	tbl, err = tbl.NewRewrite().RemoveFile(old).AddDataFile(compacted).KeepDataSequenceNumber(1).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mfs, err := ManifestsOf(ctx, tbl.IO(), tbl.Metadata().CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, mf := range mfs {
		es, err := EntriesOf(ctx, tbl.IO(), tbl.Metadata(), mf)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.DataFile.FilePath == compacted.FilePath {
				found = true
				if *e.SequenceNumber != 1 || *e.FileSequenceNumber != 3 {
					t.Fatalf("data seq %d, file seq %d; want 1 and 3", *e.SequenceNumber, *e.FileSequenceNumber)
				}
			}
		}
	}
	if !found {
		t.Fatal("compacted file not found")
	}
}
