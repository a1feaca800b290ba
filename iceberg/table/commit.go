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
	if u.table.creating != nil {
		return u.commitCreate(ctx)
	}
	started := time.Now()
	env := u.table.env
	// Data files become durable before the table's commit lock is taken,
	// so writers queued on it wait only for metadata work.
	if err := u.syncAddedFiles(ctx); err != nil {
		u.abandon(context.WithoutCancel(ctx))
		return nil, err
	}
	unlock := env.lockTables(u.table.ident)
	defer unlock()
	base := env.newest(u.table)
	policy := retryPolicyOf(base.meta)
	var lastErr error
	n := 1
	for {
		at, err := u.apply(ctx, base, n)
		if err == nil {
			if err = at.expireHistory(); err == nil {
				err = at.write(ctx)
			}
			if err == nil {
				err = u.syncFiles(ctx, at)
			}
			if err == nil {
				at, n, err = u.install(ctx, at, n, policy, started)
			}
			if err == nil {
				committed := &Table{env: env, ident: base.ident, meta: at.meta, location: at.location, list: at.list}
				env.remember(committed)
				u.report(ctx, at, n, started, nil)
				deleteOldMetadata(ctx, at.base, at)
				u.removeReplacedManifests(ctx, at)
				removeExpired(ctx, at, committed)
				return committed, nil
			}
			if errors.Is(err, iceberg.ErrCommitStateUnknown) {
				u.report(ctx, at, n, started, err)
				return nil, err // never clean up: the commit may have landed
			}
			if at != nil {
				u.cleanup(context.WithoutCancel(ctx), at.written)
			}
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
		if base, err = env.current(ctx, base.ident); err != nil {
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

// install swaps an attempt in and returns the attempt that landed and its
// number. The first swap is optimistic: the catalog's conditional UPDATE
// alone, with no lock and no read before it, so an uncontended commit
// costs one catalog round trip. When it loses the race and the policy
// allows another attempt, a catalog that locks (CommitLocker) deals with
// the moved pointer under the lock: the update is applied again onto the
// version found, which nobody can replace before the swap, so an append
// does not lose to another process twice. Without a lock, or with
// commit.retry.num-retries=0, the lost race is ErrCommitFailed.
func (u *SnapshotUpdate) install(ctx context.Context, at *attempt, n int, policy retryPolicy, started time.Time) (*attempt, int, error) {
	env := at.base.env
	err := swap(ctx, at, nil)
	locker, ok := env.Catalog.(CommitLocker)
	if !ok || !errors.Is(err, iceberg.ErrCommitFailed) || !policy.mayRetry(n+1, started) {
		return at, n, err
	}
	lk, err := locker.LockPointers(ctx, []Identifier{at.base.ident})
	if err != nil {
		return at, n, err
	}
	defer lk.Release()
	if loc := lk.Locations()[0]; loc != at.base.location {
		base, err := env.loadAtCached(ctx, at.base.ident, loc)
		if err != nil {
			return at, n, err
		}
		u.cleanup(context.WithoutCancel(ctx), at.written)
		n++
		if at, err = u.apply(ctx, base, n); err != nil {
			return nil, n, err // apply removed what it wrote
		}
		if err = at.expireHistory(); err == nil {
			err = at.write(ctx)
		}
		if err == nil {
			err = u.syncFiles(ctx, at)
		}
		if err != nil {
			return at, n, err
		}
	}
	return at, n, swap(ctx, at, lk)
}

// current reads the table's pointer and returns that version, without
// reading metadata.json again when this Env committed it.
func (e *Env) current(ctx context.Context, ident Identifier) (*Table, error) {
	loc, err := e.Catalog.CurrentMetadataLocation(ctx, ident)
	if err != nil {
		return nil, err
	}
	return e.loadAtCached(ctx, ident, loc)
}

// syncFiles makes the update's new manifests and the attempt's files
// durable, all together, before the swap may reference them.
func (u *SnapshotUpdate) syncFiles(ctx context.Context, at *attempt) error {
	if err := at.base.env.syncFiles(ctx, u.pendingSync(at.written)); err != nil {
		return err
	}
	u.unsynced, u.filesSynced = nil, true
	return nil
}

// syncAddedFiles makes the added data and delete files durable.
func (u *SnapshotUpdate) syncAddedFiles(ctx context.Context) error {
	if u.filesSynced {
		return nil
	}
	var paths []string
	for _, f := range u.addedData {
		paths = append(paths, f.FilePath)
	}
	for _, f := range u.addedDeletes {
		paths = append(paths, f.FilePath)
	}
	if err := u.table.env.syncFiles(ctx, paths); err != nil {
		return err
	}
	u.filesSynced = true
	return nil
}

// pendingSync lists what must be durable before the swap: the attempt's
// files, the new manifests, and (once) the added data and delete files,
// which writers may create lazily (fileio.CreateForCommit).
func (u *SnapshotUpdate) pendingSync(attemptFiles []string) []string {
	out := append(append([]string(nil), u.unsynced...), attemptFiles...)
	if !u.filesSynced {
		for _, f := range u.addedData {
			out = append(out, f.FilePath)
		}
		for _, f := range u.addedDeletes {
			out = append(out, f.FilePath)
		}
	}
	return out
}

// swap installs an attempt's metadata with the catalog's compare-and-swap
// (through lk when the pointer is locked).
// When the catalog cannot tell whether the swap happened, the pointer is
// read back (as Java's checkCommitStatus does): only if that fails too is
// the outcome reported as unknown.
func swap(ctx context.Context, at *attempt, lk PointerLock) error {
	base := at.base
	if m, ok := base.env.Catalog.(MetadataCommitter); ok && lk == nil {
		// The catalog checked the outcome itself when it could not know it.
		res, err := m.CommitChanges(ctx, []TableChange{at.change()})
		if err != nil {
			return err
		}
		at.installed(res[0])
		if err := base.env.Faults.at(FaultAfterSwap, base.ident); err != nil {
			return fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
		}
		return nil
	}
	var err error
	if lk != nil {
		err = lk.Swap(ctx, []Swap{{Ident: base.ident, Expected: base.location, Next: at.location}})
	} else {
		err = base.env.Catalog.Swap(ctx, base.ident, base.location, at.location)
	}
	if err == nil {
		err = base.env.Faults.at(FaultAfterSwap, base.ident)
		if err != nil {
			err = fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
		}
	}
	if !errors.Is(err, iceberg.ErrCommitStateUnknown) {
		return err
	}
	landed, known := checkCommitStatus(ctx, at)
	switch {
	case !known:
		return err
	case landed:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		return fmt.Errorf("%w: the swap did not happen (%v)", iceberg.ErrCommitFailed, err)
	}
}

// checkCommitStatus reads the table pointer back after an unknown
// outcome. The commit landed if the pointer is the new metadata file or a
// later version lists it in its metadata log.
func checkCommitStatus(ctx context.Context, at *attempt) (landed, known bool) {
	env := at.base.env
	if err := env.Faults.at(FaultStatusCheck, at.base.ident); err != nil {
		return false, false
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		if i > 0 {
			if sleep(ctx, time.Duration(i)*200*time.Millisecond) != nil {
				return false, false
			}
		}
		loc, err := env.Catalog.CurrentMetadataLocation(ctx, at.base.ident)
		if err != nil {
			continue
		}
		if loc == at.location {
			return true, true
		}
		if loc == at.base.location {
			return false, true
		}
		cur, err := ReadMetadata(ctx, env.IO, loc)
		if err != nil {
			continue
		}
		for _, e := range cur.MetadataLog() {
			if e.MetadataFile == at.location {
				return true, true
			}
		}
		return false, true
	}
	return false, false
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

// removeReplacedManifests deletes this update's new manifests that a
// manifest merge folded into another one: no snapshot references them.
func (u *SnapshotUpdate) removeReplacedManifests(ctx context.Context, at *attempt) {
	listed := make(map[string]bool, len(at.manifests))
	for _, mf := range at.manifests {
		listed[mf.Path] = true
	}
	for _, mf := range u.newMfs {
		if !listed[mf.Path] {
			u.table.env.IO.Remove(ctx, mf.Path)
		}
	}
}

// Abandon gives up an update that will not be committed: its new
// manifests and, when it owns them, its data and delete files are removed.
func (u *SnapshotUpdate) Abandon(ctx context.Context) { u.abandon(ctx) }

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
