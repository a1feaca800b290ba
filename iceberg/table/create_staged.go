package table

import (
	"context"
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// StageCreate makes a table that exists only in memory, for CREATE TABLE
// AS SELECT: nothing is written and the catalog has no row until an update
// made on it commits, creating the table together with that update's
// snapshot in one step (the first metadata.json holds the snapshot; a REST
// catalog receives assert-create with every update), so no reader ever
// sees it empty and a failed query leaves no table behind. CommitCreate
// creates it without a snapshot.
func StageCreate(ctx context.Context, env *Env, ident Identifier, schema *iceberg.Schema, location string, opts CreateOptions) (*Table, error) {
	spec, order := opts.specAndOrder()
	b, err := iceberg.NewTableBuilder(schema, spec, order, location, opts.Properties)
	if err != nil {
		return nil, err
	}
	meta, err := b.Build()
	if err != nil {
		return nil, err
	}
	return &Table{env: env, ident: ident, meta: meta, staged: true, creating: b.Updates()}, nil
}

// CommitCreate creates a staged table as it is, without a snapshot.
func (t *Table) CommitCreate(ctx context.Context) (*Table, error) {
	if t.creating == nil {
		return nil, fmt.Errorf("table: %s is not a staged create", t.ident)
	}
	return createFrom(ctx, t.env, t.ident, t.meta)
}

// commitCreate commits an update made on a staged table: one attempt,
// since the only conflict is a table created meanwhile
// (iceberg.ErrTableAlreadyExists).
func (u *SnapshotUpdate) commitCreate(ctx context.Context) (*Table, error) {
	base := u.table
	env := base.env
	if err := u.syncAddedFiles(ctx); err != nil {
		u.abandon(context.WithoutCancel(ctx))
		return nil, err
	}
	at, err := u.apply(ctx, base, 1)
	if err == nil {
		err = u.installCreate(ctx, at)
	}
	if err != nil {
		if !errors.Is(err, iceberg.ErrCommitStateUnknown) { // it may have landed: keep everything
			if at != nil {
				u.cleanup(context.WithoutCancel(ctx), at.written)
			}
			u.abandon(context.WithoutCancel(ctx))
		}
		return nil, err
	}
	committed := &Table{env: env, ident: base.ident, meta: at.meta, location: at.location, list: at.list}
	env.remember(committed)
	return committed, nil
}

func (u *SnapshotUpdate) installCreate(ctx context.Context, at *attempt) error {
	env := at.base.env
	if m, ok := env.Catalog.(MetadataCommitter); ok {
		if err := u.syncFiles(ctx, at); err != nil {
			return err
		}
		res, err := m.CommitChanges(ctx, []TableChange{{Ident: at.base.ident,
			Requirements: []iceberg.Requirement{iceberg.AssertCreate{}},
			Updates:      append(append([]iceberg.Update(nil), at.base.creating...), at.updates...)}})
		if errors.Is(err, iceberg.ErrCommitFailed) && !errors.Is(err, iceberg.ErrCommitStateUnknown) {
			// assert-create is the one requirement: the table exists.
			return fmt.Errorf("%w: %s: %w", iceberg.ErrTableAlreadyExists, at.base.ident, err)
		}
		if err != nil {
			return err
		}
		at.installed(res[0])
		return nil
	}
	if err := at.write(ctx); err != nil {
		return err
	}
	if err := u.syncFiles(ctx, at); err != nil {
		return err
	}
	return env.Catalog.Create(ctx, at.base.ident, at.location)
}
