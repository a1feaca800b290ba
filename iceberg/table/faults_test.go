package table

import (
	"context"
	"errors"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// A fault at each step of the write path leaves the table readable at its
// previous snapshot, or at the new one when the swap went through, with
// only unreferenced files left behind and nothing referenced deleted.
func TestFaultAtEachStep(t *testing.T) {
	errBoom := errors.New("boom")
	for _, step := range []FaultStep{FaultAfterManifests, FaultAfterMetadata, FaultAfterSwap} {
		t.Run(string(step), func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t)
			tbl := f.createEvents(t, nil)
			tbl, err := tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, 0, 1)).Commit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			before := tbl.Metadata().CurrentSnapshotID()
			metaDir := localDir(t, tbl.MetadataDir())
			filesBefore := countFiles(t, metaDir)

			f.env.Faults = &Faults{Hook: func(s FaultStep, _ Identifier) error {
				if s == step {
					return errBoom
				}
				return nil
			}}
			df := f.dayFile(t, tbl, 1, 1)
			_, err = tbl.NewAppend().AddDataFile(df).OwnFiles().Commit(ctx)
			if !errors.Is(err, errBoom) {
				t.Fatalf("got %v, want the injected fault", err)
			}
			if unknown := errors.Is(err, iceberg.ErrCommitStateUnknown); unknown != (step == FaultAfterSwap) {
				t.Fatalf("ErrCommitStateUnknown = %v at step %s", unknown, step)
			}
			f.env.Faults = nil
			final, err := Load(ctx, f.env, f.ident)
			if err != nil {
				t.Fatalf("table unreadable after fault: %v", err)
			}
			live := liveFiles(t, final)
			if step == FaultAfterSwap {
				if final.Metadata().CurrentSnapshotID() == before || !contains(live, df.FilePath) {
					t.Fatalf("swap went through but the table does not show it")
				}
				return
			}
			if final.Metadata().CurrentSnapshotID() != before || contains(live, df.FilePath) {
				t.Fatalf("failed commit is visible")
			}
			if got := countFiles(t, metaDir); got != filesBefore {
				t.Fatalf("%d metadata files after a failed commit, want %d (cleanup)", got, filesBefore)
			}
			if _, err := f.env.IO.Open(ctx, df.FilePath); err == nil {
				t.Fatalf("owned data file of a failed commit was not removed")
			}
		})
	}
}

// After ErrCommitStateUnknown nothing the commit wrote is deleted.
func TestUnknownStateKeepsFiles(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, nil)
	f.env.Faults = &Faults{Hook: func(s FaultStep, _ Identifier) error {
		if s == FaultAfterSwap {
			return errors.New("connection lost")
		}
		return nil
	}}
	df := f.dayFile(t, tbl, 0, 1)
	_, err := tbl.NewAppend().AddDataFile(df).OwnFiles().Commit(ctx)
	if !errors.Is(err, iceberg.ErrCommitStateUnknown) {
		t.Fatalf("got %v, want ErrCommitStateUnknown", err)
	}
	if _, err := f.env.IO.Open(ctx, df.FilePath); err != nil {
		t.Fatalf("data file removed after an unknown outcome: %v", err)
	}
	f.env.Faults = nil
	final, err := Load(ctx, f.env, f.ident)
	if err != nil {
		t.Fatal(err)
	}
	if !contains(liveFiles(t, final), df.FilePath) {
		t.Fatal("the commit landed but its file is not live")
	}
}
