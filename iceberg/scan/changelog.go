package scan

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/icesql/icesql/iceberg"
)

// ErrNotAncestor: a changelog's start snapshot is not an ancestor of its
// end snapshot, so no linear history joins them.
var ErrNotAncestor = errors.New("scan: start snapshot is not an ancestor of the end snapshot")

// ChangeKind says whether a changelog task's rows were inserted or deleted.
type ChangeKind int

const (
	// ChangeInsert: the task's rows were added by the commit.
	ChangeInsert ChangeKind = iota
	// ChangeDelete: the task's rows were removed by the commit.
	ChangeDelete
)

func (k ChangeKind) String() string {
	if k == ChangeDelete {
		return "DELETE"
	}
	return "INSERT"
}

// ChangelogTask is one data file's part in one commit of a changelog.
//
//   - An added data file (Kind ChangeInsert, Before nil): the rows Task
//     reads (the file with the commit's deletes applied) were inserted.
//   - A removed data file (ChangeDelete, Before nil): the rows Task reads
//     (the file with the deletes live before the commit) were deleted.
//   - A data file that stayed but gained deletes (ChangeDelete, Before set):
//     the rows Before reads and Task does not were deleted; match them by
//     position (datafile.ReadOptions.WithPositions).
type ChangelogTask struct {
	Kind ChangeKind
	// Ordinal is the commit's position in the changelog (0 for the first
	// snapshot after the start), Spark's _change_ordinal.
	Ordinal int
	// SnapshotID is the commit's snapshot, Spark's _commit_snapshot_id.
	SnapshotID int64
	Task       FileScanTask
	Before     *FileScanTask
}

// ChangelogSnapshots returns the snapshots after fromExclusive (nil: from
// the root, inclusive) up to toInclusive along toInclusive's ancestry,
// oldest first. Replace snapshots (compactions) are included; they change
// no rows and PlanChangelog skips them.
func ChangelogSnapshots(meta *iceberg.TableMetadata, fromExclusive *int64, toInclusive int64) ([]*iceberg.Snapshot, error) {
	if _, ok := meta.SnapshotByID(toInclusive); !ok {
		return nil, fmt.Errorf("%w: end snapshot %d", iceberg.ErrNoSuchSnapshot, toInclusive)
	}
	if fromExclusive != nil {
		if _, ok := meta.SnapshotByID(*fromExclusive); !ok {
			return nil, fmt.Errorf("%w: start snapshot %d", iceberg.ErrNoSuchSnapshot, *fromExclusive)
		}
	}
	var out []*iceberg.Snapshot
	found := fromExclusive == nil
	for s := range meta.Ancestors(toInclusive) {
		if fromExclusive != nil && s.SnapshotID == *fromExclusive {
			found = true
			break
		}
		out = append(out, s)
	}
	if !found {
		return nil, fmt.Errorf("%w: %d is not an ancestor of %d", ErrNotAncestor, *fromExclusive, toInclusive)
	}
	slices.Reverse(out)
	return out, nil
}

// PlanChangelog plans the row changes of the snapshots ChangelogSnapshots
// lists. Each commit is planned as the difference between its snapshot and
// its parent: data files added, data files removed, and data files whose
// applicable deletes changed (position deletes, deletion vectors and
// equality deletes alike); when the parent was expired, its state is
// rebuilt from the commit's own manifests. Replace snapshots are skipped, as in Java, since
// they rewrite rows without changing them. Copy-on-write commits yield
// carry-over rows (a removed file's surviving rows inserted again); the
// caller removes them when it wants Spark's create_changelog_view output.
// Tasks come in commit order, then by file path.
func PlanChangelog(ctx context.Context, open Opener, meta *iceberg.TableMetadata, fromExclusive *int64, toInclusive int64, opts Options) ([]ChangelogTask, error) {
	snaps, err := ChangelogSnapshots(meta, fromExclusive, toInclusive)
	if err != nil {
		return nil, err
	}
	if opts.Cache == nil {
		// Consecutive commits share most manifests.
		opts.Cache = NewManifestCache(0)
	}
	opts.Schema = meta.CurrentSchema()
	// A commit's plan is usually the next one's parent plan.
	var lastID int64
	var last map[string]FileScanTask
	plan := func(id *int64) (map[string]FileScanTask, error) {
		out := map[string]FileScanTask{}
		if id == nil {
			return out, nil
		}
		if last != nil && lastID == *id {
			return last, nil
		}
		tasks, _, err := Plan(ctx, open, meta, *id, nil, opts)
		if err != nil {
			return nil, err
		}
		for _, t := range tasks {
			out[t.File.FilePath] = t
		}
		lastID, last = *id, out
		return out, nil
	}
	var out []ChangelogTask
	ordinal := 0
	for _, s := range snaps {
		if s.Operation() == iceberg.OpReplace {
			continue
		}
		var before map[string]FileScanTask
		if _, kept := parentOf(meta, s); kept || s.ParentSnapshotID == nil {
			before, err = plan(s.ParentSnapshotID)
		} else {
			before, err = parentState(ctx, open, meta, s, opts.Cache)
		}
		if err != nil {
			return nil, err
		}
		after, err := plan(&s.SnapshotID)
		if err != nil {
			return nil, err
		}
		out = append(out, diffSnapshots(before, after, ordinal, s.SnapshotID)...)
		ordinal++
	}
	return out, nil
}

// diffSnapshots turns two plans of consecutive snapshots into changelog
// tasks, sorted by path with deletions first.
func diffSnapshots(before, after map[string]FileScanTask, ordinal int, snapshotID int64) []ChangelogTask {
	var out []ChangelogTask
	for path, a := range after {
		b, existed := before[path]
		switch {
		case !existed:
			out = append(out, ChangelogTask{Kind: ChangeInsert, Ordinal: ordinal, SnapshotID: snapshotID, Task: a})
		case !sameDeletes(b.Deletes, a.Deletes):
			bt := b
			out = append(out, ChangelogTask{Kind: ChangeDelete, Ordinal: ordinal, SnapshotID: snapshotID, Task: a, Before: &bt})
		}
	}
	for path, b := range before {
		if _, stays := after[path]; !stays {
			out = append(out, ChangelogTask{Kind: ChangeDelete, Ordinal: ordinal, SnapshotID: snapshotID, Task: b})
		}
	}
	slices.SortFunc(out, func(x, y ChangelogTask) int {
		if x.Kind != y.Kind {
			return int(y.Kind) - int(x.Kind) // deletes first
		}
		switch {
		case x.Task.File.FilePath < y.Task.File.FilePath:
			return -1
		case x.Task.File.FilePath > y.Task.File.FilePath:
			return 1
		}
		return 0
	})
	return out
}

// sameDeletes compares two delete lists as sets of files (a deletion
// vector is identified by its offset in its Puffin file too).
func sameDeletes(a, b []DeleteFile) bool {
	if len(a) != len(b) {
		return false
	}
	keys := func(ds []DeleteFile) []string {
		out := make([]string, len(ds))
		for i, d := range ds {
			out[i] = deleteKey(d.File)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(keys(a), keys(b))
}

func deleteKey(f iceberg.DataFile) string {
	if f.ContentOffset != nil {
		return fmt.Sprintf("%s@%d", f.FilePath, *f.ContentOffset)
	}
	return f.FilePath
}

// parentOf returns s's parent when the metadata still holds it.
func parentOf(meta *iceberg.TableMetadata, s *iceberg.Snapshot) (*iceberg.Snapshot, bool) {
	if s.ParentSnapshotID == nil {
		return nil, false
	}
	return meta.SnapshotByID(*s.ParentSnapshotID)
}
