package table

import (
	"context"
	"log/slog"

	"github.com/icesql/icesql/iceberg"
)

// expireHistory adds to the attempt, when its table sets
// history.expire.on-commit.enabled (and gc.enabled), the removal of the
// snapshots and refs the history.expire.* policy no longer keeps, planned
// on the metadata the attempt commits: the write and the expiry are one
// metadata.json and one swap, and a retried attempt plans again on its
// new base. Files are removed only once the commit landed (removeExpired).
func (at *attempt) expireHistory() error {
	m := at.meta
	if m == nil || !m.PropertyBool(iceberg.PropExpireOnCommitEnabled, iceberg.DefaultExpireOnCommitEnabled) ||
		!m.PropertyBool(iceberg.PropGCEnabled, iceberg.DefaultGCEnabled) {
		return nil
	}
	plan := PlanRetention(m, PolicyOf(m, at.base.env.now().UnixMilli()))
	if len(plan.Expire) == 0 && len(plan.DroppedRefs) == 0 {
		return nil
	}
	var ups []iceberg.Update
	for _, name := range plan.DroppedRefs {
		ups = append(ups, iceberg.RemoveSnapshotRefUpdate{Name: name})
	}
	if len(plan.Expire) > 0 {
		ups = append(ups, iceberg.RemoveSnapshotsUpdate{SnapshotIDs: plan.Expire})
	}
	meta, err := iceberg.ApplyUpdates(m, "", ups)
	if err != nil {
		return err
	}
	at.meta = meta
	at.updates = append(at.updates, ups...)
	at.expired = plan.Expire
	return nil
}

// removeExpired hands the snapshots a landed attempt expired to the Env's
// RemoveExpired, which deletes the files no kept snapshot reaches. The
// commit has succeeded already: a failure is logged, not returned.
func removeExpired(ctx context.Context, at *attempt, committed *Table) {
	env := at.base.env
	if len(at.expired) == 0 || env.RemoveExpired == nil {
		return
	}
	if err := env.RemoveExpired(context.WithoutCancel(ctx), at.base.meta, committed, at.expired); err != nil {
		slog.WarnContext(ctx, "icesql: removing files of snapshots expired on commit",
			"table", committed.ident.String(), "snapshots", len(at.expired), "err", err)
	}
}
