package maintenance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
)

// ExpireOptions are expire_snapshots' arguments. Zero values take the
// table's history.expire.* properties.
type ExpireOptions struct {
	// OlderThan: snapshots committed before it may expire (default now
	// minus history.expire.max-snapshot-age-ms, 5 days).
	OlderThan time.Time
	// RetainLast is how many ancestors of each branch head are kept
	// regardless of age (default history.expire.min-snapshots-to-keep, 1).
	RetainLast int
	// SnapshotIDs expire in addition to the age-based ones; naming a
	// branch or tag head is an error.
	SnapshotIDs []int64
	// DryRun computes the result without committing or deleting anything.
	DryRun bool
	// MaxConcurrentDeletes bounds parallel file deletions (default 8).
	MaxConcurrentDeletes int
}

// ExpireSnapshots removes the snapshots the retention policy no longer
// needs, then deletes the manifest lists, manifests, data and delete files
// (and statistics files) that only those snapshots reached. The metadata
// change is committed first, so a failure never leaves metadata pointing
// at deleted files; reachability is computed over the snapshots left in
// the committed metadata. A table with gc.enabled=false is refused.
//
// If some files cannot be deleted, the result counts the deleted ones and
// the error lists the failures (the snapshots are expired regardless, and
// RemoveOrphanFiles reclaims the leftovers).
func ExpireSnapshots(ctx context.Context, tbl *table.Table, opts ExpireOptions) (ExpireResult, error) {
	const proc = "expire_snapshots"
	if opts.RetainLast < 0 {
		return ExpireResult{}, &ArgumentError{Procedure: proc, Argument: "retain_last", Reason: "must be at least 1"}
	}
	if opts.MaxConcurrentDeletes < 0 {
		return ExpireResult{}, &ArgumentError{Procedure: proc, Argument: "max_concurrent_deletes", Reason: "must be positive"}
	}
	if !gcEnabled(tbl.Metadata()) {
		return ExpireResult{}, fmt.Errorf("%w: cannot expire snapshots", ErrGCDisabled)
	}
	explicit := map[int64]bool{}
	for _, id := range opts.SnapshotIDs {
		explicit[id] = true
	}

	var before *iceberg.TableMetadata
	var plan table.RetentionPlan
	build := func(t *table.Table) ([]iceberg.Update, error) {
		m := t.Metadata()
		if !gcEnabled(m) {
			return nil, fmt.Errorf("%w: cannot expire snapshots", ErrGCDisabled)
		}
		before = m
		plan = table.PlanRetention(m, policyFor(t, m, opts, explicit))
		for id := range explicit {
			if names := plan.RefsByHead[id]; len(names) > 0 {
				return nil, &SnapshotError{Op: "expire", SnapshotID: id,
					Err: fmt.Errorf("%w: %v", ErrSnapshotReferenced, names)}
			}
		}
		if opts.DryRun || (len(plan.Expire) == 0 && len(plan.DroppedRefs) == 0) {
			return nil, nil
		}
		var ups []iceberg.Update
		// Re-asserting every kept ref makes a concurrent move of any of
		// them fail this commit, which is then recomputed.
		for name, ref := range m.Refs() {
			if !slices.Contains(plan.DroppedRefs, name) {
				ups = append(ups, iceberg.SetSnapshotRefUpdate{Name: name, Ref: ref})
			}
		}
		for _, name := range plan.DroppedRefs {
			ref, _ := m.Ref(name)
			ups = append(ups, iceberg.SetSnapshotRefUpdate{Name: name, Ref: ref}, iceberg.RemoveSnapshotRefUpdate{Name: name})
		}
		if len(plan.Expire) > 0 {
			ups = append(ups, iceberg.RemoveSnapshotsUpdate{SnapshotIDs: plan.Expire})
		}
		return ups, nil
	}
	committed, err := commitMetadata(ctx, tbl, build)
	if err != nil {
		return ExpireResult{}, err
	}
	res := ExpireResult{ExpiredSnapshotIDs: plan.Expire}
	if len(plan.Expire) == 0 {
		return res, nil
	}
	after := committed.Metadata()
	if opts.DryRun {
		after = nil
	}
	doomed, err := expiredFiles(ctx, tbl, before, after, plan)
	if err != nil {
		return res, err
	}
	return deleteExpired(ctx, tbl, doomed, opts, res)
}

// RemoveExpiredFiles deletes the files that only the expired snapshots of
// before reached and no snapshot of after does: what expire_snapshots
// deletes after its commit. It is table.Env's RemoveExpired, for commits
// that expire history themselves (history.expire.on-commit.enabled), and
// must only be called once after is installed.
func RemoveExpiredFiles(ctx context.Context, before *iceberg.TableMetadata, after *table.Table, expired []int64) error {
	if len(expired) == 0 || !gcEnabled(after.Metadata()) {
		return nil
	}
	doomed, err := expiredFiles(ctx, after, before, after.Metadata(), table.RetentionPlan{Expire: expired})
	if err != nil {
		return err
	}
	_, err = deleteExpired(ctx, after, doomed, ExpireOptions{}, ExpireResult{ExpiredSnapshotIDs: expired})
	return err
}

// policyFor resolves the retention defaults from the options and the
// table properties.
func policyFor(t *table.Table, m *iceberg.TableMetadata, opts ExpireOptions, explicit map[int64]bool) table.RetentionPolicy {
	p := table.PolicyOf(m, now(t).UnixMilli())
	p.ExplicitExpire = explicit
	if !opts.OlderThan.IsZero() {
		p.ExpireOlderMs = opts.OlderThan.UnixMilli()
	}
	if opts.RetainLast > 0 {
		p.MinSnapshots = opts.RetainLast
	}
	return p
}

// doomedFiles are the files only expired snapshots reached, by kind.
type doomedFiles struct {
	content   map[string]iceberg.FileContent
	manifests []string
	lists     []string
	stats     []string
}

// expiredFiles computes what the expired snapshots reach and the kept
// snapshots do not. after is the committed metadata (nil on a dry run:
// the kept snapshots of before are used).
func expiredFiles(ctx context.Context, tbl *table.Table, before, after *iceberg.TableMetadata, plan table.RetentionPlan) (*doomedFiles, error) {
	var keptSnaps, expiredSnaps []*iceberg.Snapshot
	expired := map[int64]bool{}
	for _, id := range plan.Expire {
		expired[id] = true
	}
	for _, s := range before.Snapshots() {
		if expired[s.SnapshotID] {
			expiredSnaps = append(expiredSnaps, s)
		} else if after == nil {
			keptSnaps = append(keptSnaps, s)
		}
	}
	keptMeta := before
	if after != nil {
		keptMeta = after
		keptSnaps = after.Snapshots()
	}
	// Manifest lists first: the manifests' entries need reading only when
	// some manifest is reached by expired snapshots alone (a history of
	// appends shares every manifest with a later snapshot).
	kept, gone := newReachable(), newReachable()
	keptMfs, err := kept.addSnapshots(ctx, tbl, keptSnaps)
	if err != nil {
		return nil, err
	}
	goneMfs, err := gone.addSnapshots(ctx, tbl, expiredSnaps)
	if err != nil {
		return nil, err
	}
	var goneOnly []iceberg.ManifestFile
	for _, mf := range goneMfs {
		if _, live := kept.manifests[mf.Path]; !live {
			goneOnly = append(goneOnly, mf)
		}
	}
	if len(goneOnly) > 0 {
		if err := kept.readEntries(ctx, tbl, keptMeta, keptMfs, true); err != nil {
			return nil, err
		}
		if err := gone.readEntries(ctx, tbl, before, goneOnly, false); err != nil {
			return nil, err
		}
	}
	d := &doomedFiles{content: map[string]iceberg.FileContent{}}
	for p, c := range gone.files {
		if _, live := kept.files[p]; !live {
			d.content[p] = c
		}
	}
	for p := range gone.manifests {
		if _, live := kept.manifests[p]; !live {
			d.manifests = append(d.manifests, p)
		}
	}
	for p := range gone.lists {
		if !kept.lists[p] {
			d.lists = append(d.lists, p)
		}
	}
	keptStats := map[string]bool{}
	for _, st := range keptMeta.Statistics() {
		if !expired[st.SnapshotID] {
			keptStats[st.StatisticsPath] = true
		}
	}
	for _, st := range keptMeta.PartitionStatistics() {
		if !expired[st.SnapshotID] {
			keptStats[st.StatisticsPath] = true
		}
	}
	for _, st := range before.Statistics() {
		if expired[st.SnapshotID] && !keptStats[st.StatisticsPath] {
			d.stats = append(d.stats, st.StatisticsPath)
		}
	}
	for _, st := range before.PartitionStatistics() {
		if expired[st.SnapshotID] && !keptStats[st.StatisticsPath] {
			d.stats = append(d.stats, st.StatisticsPath)
		}
	}
	slices.Sort(d.manifests)
	slices.Sort(d.lists)
	slices.Sort(d.stats)
	return d, nil
}

// deleteExpired removes the doomed files (content files first, then
// manifests, manifest lists and statistics, so an interrupted run leaves
// only unreferenced files) and counts them; a dry run only counts.
func deleteExpired(ctx context.Context, tbl *table.Table, d *doomedFiles, opts ExpireOptions, res ExpireResult) (ExpireResult, error) {
	var errs []error
	del := func(paths []string) int64 {
		if opts.DryRun {
			return int64(len(paths))
		}
		n, err := removeAll(ctx, tbl, paths, opts.MaxConcurrentDeletes)
		if err != nil {
			errs = append(errs, err)
		}
		return n
	}
	byKind := map[iceberg.FileContent][]string{}
	for p, c := range d.content {
		byKind[c] = append(byKind[c], p)
	}
	for _, ps := range byKind {
		slices.Sort(ps)
	}
	res.DeletedDataFilesCount = del(byKind[iceberg.ContentData])
	res.DeletedPositionDeleteFilesCount = del(byKind[iceberg.ContentPositionDeletes])
	res.DeletedEqualityDeleteFilesCount = del(byKind[iceberg.ContentEqualityDeletes])
	res.DeletedManifestFilesCount = del(d.manifests)
	res.DeletedManifestListsCount = del(d.lists)
	res.DeletedStatisticsFilesCount = del(d.stats)
	return res, errors.Join(errs...)
}

// defaultDeleteWorkers is max_concurrent_deletes' default.
const defaultDeleteWorkers = 8

// deleteBatch bounds the files handed to one bulk delete call, so that
// progress and cancellation are seen between batches.
const deleteBatch = 1000

// removeAll deletes files, in batches where the store deletes many at
// once (S3's DeleteObjects), in parallel one by one otherwise; it returns
// how many were removed and the failures.
func removeAll(ctx context.Context, tbl *table.Table, paths []string, workers int) (int64, error) {
	if workers <= 0 {
		workers = defaultDeleteWorkers
	}
	var (
		mu   sync.Mutex
		n    int64
		errs []error
		wg   sync.WaitGroup
		next = make(chan string)
	)
	bulk := map[fileio.BulkRemover][]string{}
	single := paths[:0:0]
	for _, p := range paths {
		if br, ok := fileio.Bulk(tbl.IO(), p); ok {
			bulk[br] = append(bulk[br], p)
		} else {
			single = append(single, p)
		}
	}
	for br, ps := range bulk {
		for len(ps) > 0 && ctx.Err() == nil {
			k := min(len(ps), deleteBatch)
			if err := br.RemoveAll(ctx, ps[:k]); err != nil {
				errs = append(errs, err)
			} else {
				n += int64(k)
			}
			ps = ps[k:]
		}
	}
	paths = single
	for range min(workers, len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				err := tbl.IO().Remove(ctx, p)
				mu.Lock()
				if err != nil {
					errs = append(errs, fmt.Errorf("delete %s: %w", p, err))
				} else {
					n++
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range paths {
		if ctx.Err() != nil {
			break
		}
		next <- p
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		errs = append(errs, err)
	}
	return n, errors.Join(errs...)
}
