package table

import (
	"context"
	"errors"
	"time"

	"github.com/icesql/icesql/iceberg"
)

// CommitUpdates commits metadata-only changes (schema, spec, sort order,
// properties, refs, snapshot removal). The requirements derived from the
// updates are checked against each fresh base before re-applying them, so
// a concurrent schema change fails instead of being overwritten.
func (t *Table) CommitUpdates(ctx context.Context, updates []iceberg.Update) (*Table, error) {
	reqs := iceberg.RequirementsFor(t.meta, updates)
	policy := retryPolicyOf(t.meta)
	started := time.Now()
	unlock := t.env.lockTables(t.ident)
	defer unlock()
	base := t.env.newest(t)
	for n := 1; ; n++ {
		if err := iceberg.ValidateRequirements(base.meta, reqs); err != nil {
			return nil, err
		}
		at := &attempt{base: base, summary: newSummaryBuilder()}
		err := at.stage(updates)
		if err == nil {
			err = at.write(ctx)
		}
		if err == nil {
			err = t.env.syncFiles(ctx, at.written)
		}
		if err == nil {
			if err = swap(ctx, at, nil); err == nil {
				deleteOldMetadata(ctx, base, at)
				committed := &Table{env: t.env, ident: t.ident, meta: at.meta, location: at.location}
				t.env.remember(committed)
				return committed, nil
			}
			if errors.Is(err, iceberg.ErrCommitStateUnknown) {
				return nil, err
			}
		}
		for _, f := range at.written {
			t.env.IO.Remove(context.WithoutCancel(ctx), f)
		}
		if !errors.Is(err, iceberg.ErrCommitFailed) || !policy.mayRetry(n+1, started) {
			return nil, err
		}
		if err := sleep(ctx, policy.backoff(n+1)); err != nil {
			return nil, err
		}
		if base, err = t.env.current(ctx, t.ident); err != nil {
			return nil, err
		}
	}
}
