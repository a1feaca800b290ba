package maintenance

import (
	"context"
	"errors"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// maxRecomputes bounds how often a metadata change is recomputed after a
// concurrent commit moved a ref it depends on.
const maxRecomputes = 10

// commitMetadata computes metadata updates from the latest table and
// commits them. The updates' requirements (refs they set must not have
// moved) make a concurrent commit fail the attempt; it is then recomputed
// from the refreshed table, as Java re-runs its apply() per attempt. A
// build returning no updates commits nothing and returns the table as is.
func commitMetadata(ctx context.Context, tbl *table.Table, build func(*table.Table) ([]iceberg.Update, error)) (*table.Table, error) {
	cur := tbl
	for n := 0; ; n++ {
		updates, err := build(cur)
		if err != nil || len(updates) == 0 {
			return cur, err
		}
		committed, err := cur.CommitUpdates(ctx, updates)
		if err == nil {
			return committed, nil
		}
		if !errors.Is(err, iceberg.ErrRequirementFailed) {
			return nil, err
		}
		if n+1 >= maxRecomputes {
			return nil, errors.Join(ErrTooManyConflicts, err)
		}
		if cur, err = tbl.Refresh(ctx); err != nil {
			return nil, err
		}
	}
}

// now is the table environment's clock.
func now(tbl *table.Table) time.Time {
	if env := tbl.Env(); env != nil && env.Now != nil {
		return env.Now()
	}
	return time.Now()
}

// gcEnabled reports the gc.enabled property.
func gcEnabled(m *iceberg.TableMetadata) bool {
	return m.PropertyBool(iceberg.PropGCEnabled, iceberg.DefaultGCEnabled)
}

// refHead returns the snapshot id a ref points to, or nil when the ref does
// not exist.
func refHead(m *iceberg.TableMetadata, name string) *int64 {
	if r, ok := m.Ref(name); ok {
		id := r.SnapshotID
		return &id
	}
	return nil
}

// isAncestor reports whether ancestor is head or one of its ancestors.
func isAncestor(m *iceberg.TableMetadata, head, ancestor int64) bool {
	for s := range m.Ancestors(head) {
		if s.SnapshotID == ancestor {
			return true
		}
	}
	return false
}

// withSnapshot returns ref moved to snapshotID, keeping its retention.
func withSnapshot(ref iceberg.SnapshotRef, snapshotID int64) iceberg.SnapshotRef {
	ref.SnapshotID = snapshotID
	return ref
}

// mainRef returns main's ref, or a fresh branch when main has no snapshot.
func mainRef(m *iceberg.TableMetadata) iceberg.SnapshotRef {
	if r, ok := m.Ref(iceberg.MainBranch); ok {
		return r
	}
	return iceberg.NewBranch(0)
}
