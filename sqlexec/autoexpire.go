package sqlexec

import (
	"context"
	"log/slog"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/iceberg/table"
)

// expireBatch is how many snapshots must be past the retention policy
// before a writer expires them: one expiry commit per batch keeps the
// cost of each append flat while the history stays bounded.
const expireBatch = 50

// autoExpire runs expire_snapshots with the table's history.expire.*
// policy after a commit, when history.expire.on-commit.enabled is set and
// at least expireBatch snapshots are older than the policy's age beyond
// the ones it keeps. The write has succeeded already: a failed expiry is
// logged, not returned.
func (s *Session) autoExpire(ctx context.Context, t *table.Table) {
	if t == nil {
		return
	}
	m := t.Metadata()
	if !m.PropertyBool(iceberg.PropExpireOnCommitEnabled, iceberg.DefaultExpireOnCommitEnabled) {
		return
	}
	cutoff := time.Now().UnixMilli() - m.PropertyInt(iceberg.PropMaxSnapshotAgeMs, iceberg.DefaultMaxSnapshotAgeMs)
	keep := m.PropertyInt(iceberg.PropMinSnapshotsToKeep, iceberg.DefaultMinSnapshotsToKeep)
	old := int64(0)
	for _, snap := range m.Snapshots() {
		if snap.TimestampMs < cutoff {
			old++
		}
	}
	if old-keep < expireBatch {
		return
	}
	res, err := maintenance.ExpireSnapshots(context.WithoutCancel(ctx), t, maintenance.ExpireOptions{})
	if err != nil {
		slog.WarnContext(ctx, "icesql: expiring snapshots on commit", "table", t.Ident().String(), "err", err)
		return
	}
	slog.DebugContext(ctx, "icesql: expired snapshots on commit", "table", t.Ident().String(), "snapshots", len(res.ExpiredSnapshotIDs))
}
