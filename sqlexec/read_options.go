package sqlexec

import (
	"context"
	"fmt"
	"time"

	"github.com/icesql/icesql/iceberg"
)

// ReadOptions choose the snapshot that every table of one query reads
// when the query itself names no version (VERSION AS OF, TIMESTAMP AS OF,
// a branch or a tag win over them).
type ReadOptions struct {
	// SnapshotID, when non-zero, reads that snapshot; a table without it
	// fails with iceberg.ErrNoSuchSnapshot.
	SnapshotID int64
	// AsOf, when non-zero, reads each table's snapshot current at that time.
	AsOf time.Time
}

type readOptionsKey struct{}

// WithReadOptions returns a context whose queries read with o.
func WithReadOptions(ctx context.Context, o ReadOptions) context.Context {
	if o == (ReadOptions{}) {
		return ctx
	}
	return context.WithValue(ctx, readOptionsKey{}, &o)
}

func readOptionsFrom(ctx context.Context) *ReadOptions {
	o, _ := ctx.Value(readOptionsKey{}).(*ReadOptions)
	return o
}

// snapshotFor applies read options to a table without an explicit version.
func (o *ReadOptions) snapshotFor(meta *iceberg.TableMetadata) (*iceberg.Snapshot, error) {
	if o.SnapshotID != 0 {
		snap, ok := meta.SnapshotByID(o.SnapshotID)
		if !ok {
			return nil, fmt.Errorf("%w: %d", iceberg.ErrNoSuchSnapshot, o.SnapshotID)
		}
		return snap, nil
	}
	return meta.SnapshotAsOf(o.AsOf.UnixMilli())
}
