package table

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// Two writers with their own Env (as two processes have) append 6 one-row
// commits each to a table seeded with one row, through a catalog that
// cannot lock. With default retries every commit lands; with no retries
// the losers fail with ErrCommitFailed and only the winners' rows are
// present.
func TestTwoWritersAppend(t *testing.T) {
	for _, tc := range []struct {
		name    string
		props   map[string]string
		retries bool
	}{
		{"default retries", map[string]string{"commit.retry.min-wait-ms": "5", "commit.retry.max-wait-ms": "50"}, true},
		{"no retries", map[string]string{"commit.retry.num-retries": "0"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t)
			var mu sync.Mutex
			var reports []iceberg.CommitReport
			f.env.Reporter = iceberg.MetricsReporterFunc(func(_ context.Context, r iceberg.CommitReport) {
				mu.Lock()
				reports = append(reports, r)
				mu.Unlock()
			})
			tbl := f.createEvents(t, tc.props)
			seed := f.dayFile(t, tbl, 0, 1)
			tbl, err := tbl.NewAppend().AddDataFile(seed).Commit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// Both writers load the same base before each round, so every
			// round has a real race on the pointer.
			start := make(chan struct{})
			var wg sync.WaitGroup
			landed := make([][]string, 2)
			failed := make([][]string, 2)
			barrier := newBarrier(2)
			for w := 0; w < 2; w++ {
				env := &Env{Catalog: f.env.Catalog, IO: f.env.IO, Reporter: f.env.Reporter}
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					<-start
					for i := 0; i < 6; i++ {
						base, err := Load(ctx, env, f.ident)
						if err != nil {
							t.Error(err)
							return
						}
						df := f.dayFile(t, base, w+1, 1)
						barrier.wait()
						_, err = base.NewAppend().AddDataFile(df).Commit(ctx)
						switch {
						case err == nil:
							landed[w] = append(landed[w], df.FilePath)
						case errors.Is(err, iceberg.ErrCommitFailed):
							failed[w] = append(failed[w], df.FilePath)
						default:
							t.Error(err)
						}
					}
				}(w)
			}
			close(start)
			wg.Wait()
			final, err := Load(ctx, f.env, f.ident)
			if err != nil {
				t.Fatal(err)
			}
			live := map[string]bool{}
			for _, p := range liveFiles(t, final) {
				live[p] = true
			}
			nLanded := len(landed[0]) + len(landed[1])
			if tc.retries {
				if len(failed[0])+len(failed[1]) != 0 || nLanded != 12 {
					t.Fatalf("landed %d, failed %v", nLanded, failed)
				}
				retried := 0
				for _, r := range reports {
					if r.Attempts > 1 {
						retried++
					}
				}
				if retried == 0 {
					t.Fatalf("no commit report shows a retry: %+v", reports)
				}
			} else if len(failed[0])+len(failed[1]) == 0 {
				t.Fatalf("no commit failed without retries")
			}
			for w := range landed {
				for _, p := range landed[w] {
					if !live[p] {
						t.Errorf("committed file %s is missing", basename(p))
					}
				}
				for _, p := range failed[w] {
					if live[p] {
						t.Errorf("failed file %s is in the table", basename(p))
					}
				}
			}
			if len(live) != nLanded+1 {
				t.Fatalf("%d live files, want %d", len(live), nLanded+1)
			}
			snaps := final.Metadata().Snapshots()
			if len(snaps) != nLanded+1 {
				t.Fatalf("%d snapshots, want %d", len(snaps), nLanded+1)
			}
			// Linear history: walking parents from the head reaches every snapshot.
			n := 0
			for range final.Metadata().Ancestors(final.Metadata().CurrentSnapshotID()) {
				n++
			}
			if n != len(snaps) {
				t.Fatalf("history has %d ancestors of %d snapshots", n, len(snaps))
			}
		})
	}
}

// Writers sharing one Env never race each other's swap: 16 goroutines
// append 4 commits each with no retries allowed, from versions loaded
// before the others committed, and every commit lands at its first try.
func TestOneEnvWritersNeverConflict(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	var mu sync.Mutex
	attempts := map[int]int{}
	f.env.Reporter = iceberg.MetricsReporterFunc(func(_ context.Context, r iceberg.CommitReport) {
		mu.Lock()
		attempts[r.Attempts]++
		mu.Unlock()
	})
	f.createEvents(t, map[string]string{"commit.retry.num-retries": "0"})
	const writers, rounds = 16, 4
	barrier := newBarrier(writers)
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				base, err := Load(ctx, f.env, f.ident)
				if err != nil {
					t.Error(err)
					return
				}
				df := f.dayFile(t, base, w%7, 1)
				barrier.wait()
				if _, err := base.NewAppend().AddDataFile(df).Commit(ctx); err != nil {
					t.Errorf("writer %d: %v", w, err)
				}
			}
		}(w)
	}
	wg.Wait()
	final, err := Load(ctx, f.env, f.ident)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(final.Metadata().Snapshots()); n != writers*rounds {
		t.Fatalf("%d snapshots, want %d", n, writers*rounds)
	}
	if attempts[1] != writers*rounds {
		t.Fatalf("attempts per commit: %v", attempts)
	}
}

// barrier releases n goroutines together, round after round.
type barrier struct {
	mu    sync.Mutex
	n     int
	count int
	ch    chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, ch: make(chan struct{})} }

func (b *barrier) wait() {
	b.mu.Lock()
	ch := b.ch
	b.count++
	if b.count == b.n {
		b.count = 0
		b.ch = make(chan struct{})
		close(ch)
	}
	b.mu.Unlock()
	<-ch
}
