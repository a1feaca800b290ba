package table

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/icesql/icesql/iceberg"
)

// Commit applies the update onto the latest table and swaps the catalog
// pointer, retrying per commit.retry.* when another writer won the swap.
// It returns the committed table. Validation failures are never retried.
func (u *SnapshotUpdate) Commit(ctx context.Context) (*Table, error) {
	started := time.Now()
	env := u.table.env
	base := u.table
	policy := retryPolicyOf(base.meta)
	var lastErr error
	n := 1
	for {
		at, err := u.apply(ctx, base, n)
		if err == nil {
			if err = at.write(ctx); err == nil {
				err = swap(ctx, at)
			}
			if err == nil {
				committed := &Table{env: env, ident: base.ident, meta: at.meta, location: at.location}
				u.report(ctx, at, n, started, nil)
				deleteOldMetadata(ctx, base, at)
				return committed, nil
			}
			if errors.Is(err, iceberg.ErrCommitStateUnknown) {
				u.report(ctx, at, n, started, err)
				return nil, err // never clean up: the commit may have landed
			}
			u.cleanup(context.WithoutCancel(ctx), at.written)
		}
		lastErr = err
		if !errors.Is(err, iceberg.ErrCommitFailed) || !policy.mayRetry(n+1, started) {
			break
		}
		n++
		if err := sleep(ctx, policy.backoff(n)); err != nil {
			lastErr = err
			break
		}
		if base, err = base.Refresh(ctx); err != nil {
			lastErr = err
			break
		}
	}
	u.abandon(context.WithoutCancel(ctx))
	u.report(ctx, &attempt{base: base, summary: newSummaryBuilder()}, n, started, lastErr)
	if errors.Is(lastErr, iceberg.ErrCommitFailed) && n > 1 {
		return nil, fmt.Errorf("%w (after %d attempts)", lastErr, n)
	}
	return nil, lastErr
}

// swap installs an attempt's metadata with the catalog's compare-and-swap.
func swap(ctx context.Context, at *attempt) error {
	base := at.base
	if err := base.env.Catalog.Swap(ctx, base.ident, base.location, at.location); err != nil {
		return err
	}
	if err := base.env.Faults.at(FaultAfterSwap, base.ident); err != nil {
		return fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// cleanup removes files that no commit references. Errors are ignored:
// an orphan file is harmless and remove_orphan_files reclaims it.
func (u *SnapshotUpdate) cleanup(ctx context.Context, files []string) {
	for _, f := range files {
		u.table.env.IO.Remove(ctx, f)
	}
}

// abandon removes what the update wrote for all attempts after it finally
// failed: its new manifests and, when it owns them, its data files.
func (u *SnapshotUpdate) abandon(ctx context.Context) {
	for _, mf := range u.newMfs {
		u.table.env.IO.Remove(ctx, mf.Path)
	}
	u.newMfs = nil
	if u.ownFiles {
		for _, f := range u.addedData {
			u.table.env.IO.Remove(ctx, f.FilePath)
		}
		for _, f := range u.addedDeletes {
			u.table.env.IO.Remove(ctx, f.FilePath)
		}
	}
}

func (u *SnapshotUpdate) report(ctx context.Context, at *attempt, attempts int, started time.Time, err error) {
	s := at.summary
	r := iceberg.CommitReport{
		Table:              u.table.ident.String(),
		SnapshotID:         u.snapshotID,
		Operation:          string(u.operation()),
		Attempts:           attempts,
		Duration:           time.Since(started),
		AddedDataFiles:     int(s.addedDataFiles),
		RemovedDataFiles:   int(s.removedDataFiles),
		AddedDeleteFiles:   int(s.addedPosDeleteFiles + s.addedEqDeleteFiles),
		RemovedDeleteFiles: int(s.removedPosDeleteFiles + s.removedEqDeleteFiles),
		AddedRecords:       s.addedRecords,
		RemovedRecords:     s.deletedRecords,
		AddedFilesSize:     s.addedSize,
		MetadataLocation:   at.location,
		Err:                err,
	}
	if at.snapshot != nil {
		r.SequenceNumber = at.snapshot.SequenceNumber
	}
	iceberg.LogCommit(ctx, r)
	if rep := u.table.env.Reporter; rep != nil {
		rep.ReportCommit(ctx, r)
	}
}
