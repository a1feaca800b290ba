package table

import (
	"context"
	"errors"
	"strings"
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
			if step == FaultAfterSwap {
				// The outcome was lost, but reading the pointer back shows
				// the swap happened: the commit succeeds.
				if err != nil {
					t.Fatalf("got %v, want the status check to resolve the commit", err)
				}
			} else if !errors.Is(err, errBoom) || errors.Is(err, iceberg.ErrCommitStateUnknown) {
				t.Fatalf("got %v, want the injected fault", err)
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

// When neither the swap nor the status check can tell the outcome, the
// error is ErrCommitStateUnknown and nothing the commit wrote is deleted.
func TestUnknownStateKeepsFiles(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, nil)
	f.env.Faults = &Faults{Hook: func(s FaultStep, _ Identifier) error {
		if s == FaultAfterSwap || s == FaultStatusCheck {
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

// An unknown outcome whose status check shows the swap did not happen is
// an ordinary commit failure, retried like any other.
func TestLostSwapIsRetried(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, map[string]string{"commit.retry.min-wait-ms": "1"})
	f.cat.lostSwaps = 1
	var attempts int
	f.env.Reporter = iceberg.MetricsReporterFunc(func(_ context.Context, r iceberg.CommitReport) { attempts = r.Attempts })
	tbl, err := tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, 0, 1)).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if attempts != 2 || len(liveFiles(t, tbl)) != 1 {
		t.Fatalf("attempts = %d, live files %d", attempts, len(liveFiles(t, tbl)))
	}
}

// A commit never references a file that is not there: adding a missing
// data file fails with ErrNotFound naming it, and the table is unchanged.
func TestAddMissingFileFails(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, nil)
	df := f.dayFile(t, tbl, 0, 1)
	if err := f.env.IO.Remove(ctx, df.FilePath); err != nil {
		t.Fatal(err)
	}
	_, err := tbl.NewAppend().AddDataFile(df).Commit(ctx)
	if !errors.Is(err, iceberg.ErrNotFound) || !strings.Contains(err.Error(), basename(df.FilePath)) {
		t.Fatalf("got %v, want ErrNotFound naming the file", err)
	}
	final, err := Load(ctx, f.env, f.ident)
	if err != nil {
		t.Fatal(err)
	}
	if final.Metadata().CurrentSnapshot() != nil {
		t.Fatal("a commit referencing a missing file landed")
	}
}
