package maintenance

import (
	"context"
	"fmt"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// RollbackToSnapshot moves main back to snapshotID, which must be an
// ancestor of main's current snapshot.
func RollbackToSnapshot(ctx context.Context, tbl *table.Table, snapshotID int64) (SnapshotChangeResult, error) {
	return moveMain(ctx, tbl, "rollback to", func(m *iceberg.TableMetadata) (int64, error) {
		if _, ok := m.SnapshotByID(snapshotID); !ok {
			return 0, &SnapshotError{Op: "rollback to", SnapshotID: snapshotID, Err: iceberg.ErrNoSuchSnapshot}
		}
		cur := m.CurrentSnapshot()
		if cur == nil || !isAncestor(m, cur.SnapshotID, snapshotID) {
			return 0, &SnapshotError{Op: "rollback to", SnapshotID: snapshotID,
				Err: fmt.Errorf("%w of the current snapshot (use SetCurrentSnapshot to move to any snapshot)", ErrNotAncestor)}
		}
		return snapshotID, nil
	})
}

// RollbackToTimestamp moves main back to the latest ancestor of its
// current snapshot committed strictly before ts.
func RollbackToTimestamp(ctx context.Context, tbl *table.Table, ts time.Time) (SnapshotChangeResult, error) {
	ms := ts.UnixMilli()
	return moveMain(ctx, tbl, "rollback to timestamp", func(m *iceberg.TableMetadata) (int64, error) {
		if cur := m.CurrentSnapshot(); cur != nil {
			for s := range m.Ancestors(cur.SnapshotID) {
				if s.TimestampMs < ms {
					return s.SnapshotID, nil
				}
			}
		}
		return 0, fmt.Errorf("maintenance: rollback to timestamp: %w: no ancestor of the current snapshot is older than %s",
			iceberg.ErrNoSuchSnapshot, ts.UTC().Format(time.RFC3339Nano))
	})
}

// SetCurrentSnapshot makes a snapshot main's head: either snapshotID (any
// snapshot, ancestor or not) or the head of the branch or tag ref. Exactly
// one of them must be given, as in Spark.
func SetCurrentSnapshot(ctx context.Context, tbl *table.Table, snapshotID *int64, ref string) (SnapshotChangeResult, error) {
	if (snapshotID == nil) == (ref == "") {
		return SnapshotChangeResult{}, &ArgumentError{Procedure: "set_current_snapshot", Argument: "snapshot_id",
			Reason: "give exactly one of snapshot_id and ref"}
	}
	return moveMain(ctx, tbl, "set current", func(m *iceberg.TableMetadata) (int64, error) {
		if ref != "" {
			s, err := m.SnapshotByName(ref)
			if err != nil {
				return 0, &RefError{Op: "set current snapshot to", Name: ref, Err: err}
			}
			return s.SnapshotID, nil
		}
		if _, ok := m.SnapshotByID(*snapshotID); !ok {
			return 0, &SnapshotError{Op: "set current", SnapshotID: *snapshotID, Err: iceberg.ErrNoSuchSnapshot}
		}
		return *snapshotID, nil
	})
}

// moveMain points main at the snapshot target chooses on the latest table.
func moveMain(ctx context.Context, tbl *table.Table, op string, target func(*iceberg.TableMetadata) (int64, error)) (SnapshotChangeResult, error) {
	var res SnapshotChangeResult
	_, err := commitMetadata(ctx, tbl, func(t *table.Table) ([]iceberg.Update, error) {
		m := t.Metadata()
		id, err := target(m)
		if err != nil {
			return nil, err
		}
		res = SnapshotChangeResult{PreviousSnapshotID: refHead(m, iceberg.MainBranch), CurrentSnapshotID: id}
		return []iceberg.Update{iceberg.SetSnapshotRefUpdate{Name: iceberg.MainBranch, Ref: withSnapshot(mainRef(m), id)}}, nil
	})
	if err != nil {
		return SnapshotChangeResult{}, err
	}
	return res, nil
}

// FastForward moves branch to the head of to (a branch or tag), which
// must descend from the branch's head. A branch that does not exist yet is
// created at to's head, as Java does for an empty main.
func FastForward(ctx context.Context, tbl *table.Table, branch, to string) (FastForwardResult, error) {
	var res FastForwardResult
	_, err := commitMetadata(ctx, tbl, func(t *table.Table) ([]iceberg.Update, error) {
		m := t.Metadata()
		target, err := m.SnapshotByName(to)
		if err != nil {
			return nil, &RefError{Op: "fast-forward to", Name: to, Err: err}
		}
		res = FastForwardResult{BranchUpdated: branch, UpdatedRef: target.SnapshotID}
		old, ok := m.Ref(branch)
		if !ok {
			if branch != iceberg.MainBranch {
				return nil, &RefError{Op: "fast-forward", Name: branch, Err: iceberg.ErrNoSuchRef}
			}
			old = iceberg.NewBranch(0)
		} else {
			if old.Type != iceberg.BranchRef {
				return nil, &RefError{Op: "fast-forward", Name: branch, Err: fmt.Errorf("%w: %q is a tag", ErrRefTypeMismatch, branch)}
			}
			head := old.SnapshotID
			res.PreviousRef = &head
			if !isAncestor(m, target.SnapshotID, head) {
				return nil, &RefError{Op: "fast-forward", Name: branch,
					Err: fmt.Errorf("%w: head %d is not an ancestor of %q (%d)", ErrNotAncestor, head, to, target.SnapshotID)}
			}
			if head == target.SnapshotID {
				return nil, nil
			}
		}
		return []iceberg.Update{iceberg.SetSnapshotRefUpdate{Name: branch, Ref: withSnapshot(old, target.SnapshotID)}}, nil
	})
	if err != nil {
		return FastForwardResult{}, err
	}
	return res, nil
}
