package sqlexec

import (
	"context"
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/maintenance"
)

// ancestorsResult is ancestors_of's output: one row per snapshot from the
// starting one back to the root, newest first, as Java's
// SnapshotUtil.ancestorIdsBetween lists them.
type ancestorsResult struct {
	snapshots []*iceberg.Snapshot
}

func (ancestorsResult) Columns() []maintenance.Column {
	long := iceberg.LongType{}
	return []maintenance.Column{{Name: "snapshot_id", Type: long}, {Name: "timestamp", Type: long}}
}

func (r ancestorsResult) Rows() [][]any {
	rows := make([][]any, len(r.snapshots))
	for i, s := range r.snapshots {
		rows[i] = []any{s.SnapshotID, s.TimestampMs}
	}
	return rows
}

// callAncestorsOf lists the ancestors of snapshot_id (default: main's
// head; a table without snapshots has none). Ancestors expired from the
// metadata end the chain, as in Java.
func callAncestorsOf(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	meta := t.Metadata()
	id, given := a.long("snapshot_id")
	if !given {
		cur := meta.CurrentSnapshot()
		if cur == nil {
			return ancestorsResult{}, nil
		}
		id = cur.SnapshotID
	} else if _, ok := meta.SnapshotByID(id); !ok {
		return nil, fmt.Errorf("%w: %d", iceberg.ErrNoSuchSnapshot, id)
	}
	var r ancestorsResult
	for snap := range meta.Ancestors(id) {
		r.snapshots = append(r.snapshots, snap)
	}
	return r, nil
}
