package table

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/icesql/icesql/iceberg"
)

// Txn is a multi-statement, multi-table transaction. Its reads see the
// tables as of one consistent read of the catalog (pinned at the first
// read) plus its own staged writes. Writes are staged: their data and
// manifest files are written at once, but the metadata is only written at
// Commit, which re-applies every table's staged changes onto that table's
// latest version, validates them, writes one metadata.json per table and
// swaps every pointer in one catalog transaction: all tables change or none.
type Txn struct {
	env    *Env
	pinned map[string]string // ident -> metadata location, nil until the first read
	tables map[string]*txnTable
	order  []string
	done   bool
}

type txnTable struct {
	ident  Identifier
	base   *Table // as pinned
	staged *Table // base plus the staged steps; nil before the first write
	steps  []*SnapshotUpdate
	last   []*attempt // each step's latest application
	files  []string   // manifest lists and manifests written while staging
}

// ErrTxnDone: the transaction was already committed or rolled back.
var ErrTxnDone = errors.New("table: transaction already finished")

// AllPointers is implemented by catalogs that can read every table pointer
// in one consistent read; transactions pin their view with it.
type AllPointers interface {
	AllMetadataLocations(ctx context.Context) (map[string]string, error)
}

// NewTxn starts a transaction.
func NewTxn(env *Env) *Txn {
	return &Txn{env: env, tables: map[string]*txnTable{}}
}

// Table returns the transaction's view of a table: the pinned version
// plus the transaction's own staged writes.
func (x *Txn) Table(ctx context.Context, ident Identifier) (*Table, error) {
	if x.done {
		return nil, ErrTxnDone
	}
	key := ident.String()
	if tt, ok := x.tables[key]; ok {
		if tt.staged != nil {
			return tt.staged, nil
		}
		return tt.base, nil
	}
	if x.pinned == nil {
		if err := x.pin(ctx); err != nil {
			return nil, err
		}
	}
	loc, ok := x.pinned[key]
	if !ok {
		// Created after the pin (or the catalog cannot list): read it now.
		var err error
		if loc, err = x.env.Catalog.CurrentMetadataLocation(ctx, ident); err != nil {
			return nil, err
		}
		x.pinned[key] = loc
	}
	t, err := LoadAt(ctx, x.env, ident, loc)
	if err != nil {
		return nil, err
	}
	x.tables[key] = &txnTable{ident: ident, base: t}
	x.order = append(x.order, key)
	return t, nil
}

func (x *Txn) pin(ctx context.Context) error {
	x.pinned = map[string]string{}
	all, ok := x.env.Catalog.(AllPointers)
	if !ok {
		return nil
	}
	locs, err := all.AllMetadataLocations(ctx)
	if err != nil {
		return err
	}
	x.pinned = locs
	return nil
}

// Stage applies an update, created from this transaction's view of its
// table, to the staged state. Nothing is visible to others until Commit.
func (x *Txn) Stage(ctx context.Context, u *SnapshotUpdate) (*Table, error) {
	if x.done {
		return nil, ErrTxnDone
	}
	tt, ok := x.tables[u.table.ident.String()]
	if !ok || (u.table != tt.base && u.table != tt.staged) {
		return nil, fmt.Errorf("table: update of %s was not created from this transaction's view", u.table.ident)
	}
	cur := tt.base
	if tt.staged != nil {
		cur = tt.staged
	}
	at, err := u.apply(ctx, cur, 1)
	if err != nil {
		u.abandon(context.WithoutCancel(ctx))
		return nil, err
	}
	tt.files = append(tt.files, at.written...)
	tt.steps = append(tt.steps, u)
	tt.last = append(tt.last, at)
	tt.staged = &Table{env: x.env, ident: tt.ident, meta: at.meta, location: tt.base.location, staged: true, list: at.list}
	return tt.staged, nil
}

// Commit installs every staged change atomically, retrying per the first
// written table's commit.retry.* when another writer won a swap.
func (x *Txn) Commit(ctx context.Context) error {
	if x.done {
		return ErrTxnDone
	}
	x.done = true
	var written []*txnTable
	for _, k := range x.order {
		if tt := x.tables[k]; len(tt.steps) > 0 {
			written = append(written, tt)
		}
	}
	if len(written) == 0 {
		return nil
	}
	started := time.Now()
	policy := retryPolicyOf(written[0].base.meta)
	var lastErr error
	for n := 1; ; n++ {
		ats, err := x.attempt(ctx, written, n)
		if err == nil {
			swaps := make([]Swap, len(ats))
			for i, at := range ats {
				swaps[i] = Swap{Ident: at.base.ident, Expected: at.base.location, Next: at.location}
			}
			if err = x.env.Catalog.SwapAll(ctx, swaps); err == nil {
				err = x.env.Faults.at(FaultAfterSwap, written[0].ident)
				if err != nil {
					err = fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
				}
			}
			if err == nil {
				for i, at := range ats {
					for k, u := range written[i].steps {
						u.report(ctx, written[i].last[k], n, started, nil)
						u.removeReplacedManifests(ctx, written[i].last[k])
					}
					deleteOldMetadata(ctx, at.base, at)
				}
				return nil
			}
			if errors.Is(err, iceberg.ErrCommitStateUnknown) {
				return err
			}
			for _, at := range ats {
				written[0].steps[0].cleanup(context.WithoutCancel(ctx), at.written)
			}
		}
		lastErr = err
		if !errors.Is(err, iceberg.ErrCommitFailed) || !policy.mayRetry(n+1, started) {
			break
		}
		if err := sleep(ctx, policy.backoff(n+1)); err != nil {
			lastErr = err
			break
		}
	}
	x.abandon(context.WithoutCancel(ctx))
	return lastErr
}

// attempt re-applies each table's steps onto its latest version (reusing
// the staged result when the table has not moved) and writes metadata.
func (x *Txn) attempt(ctx context.Context, written []*txnTable, n int) ([]*attempt, error) {
	idents := make([]Identifier, len(written))
	for i, tt := range written {
		idents[i] = tt.ident
	}
	locs, err := x.env.Catalog.CurrentMetadataLocations(ctx, idents)
	if err != nil {
		return nil, err
	}
	var ats []*attempt
	fail := func(err error) ([]*attempt, error) {
		for _, at := range ats {
			written[0].steps[0].cleanup(context.WithoutCancel(ctx), at.written)
		}
		return nil, err
	}
	var pending []string
	for _, tt := range written {
		for _, u := range tt.steps {
			pending = append(pending, u.pendingSync(nil)...)
		}
		pending = append(pending, tt.files...)
	}
	for i, tt := range written {
		at := &attempt{summary: newSummaryBuilder()}
		if locs[i] == tt.base.location && n == 1 {
			// Unchanged since the pin: the staged metadata is exact.
			at.base, at.meta = tt.base, tt.staged.meta
		} else {
			base, err := LoadAt(ctx, x.env, tt.ident, locs[i])
			if err != nil {
				return fail(err)
			}
			cur := base
			for k, u := range tt.steps {
				sat, err := u.apply(ctx, cur, n+1)
				if err != nil {
					return fail(err)
				}
				tt.last[k] = sat
				at.written = append(at.written, sat.written...)
				cur = &Table{env: x.env, ident: tt.ident, meta: sat.meta, location: base.location, staged: true, list: sat.list}
			}
			// The first step logged base's metadata file; the rest were staged.
			at.base, at.meta = base, cur.meta
		}
		ats = append(ats, at)
		if err := at.write(ctx); err != nil {
			return fail(err)
		}
		pending = append(pending, at.written...)
	}
	if err := x.env.syncFiles(ctx, pending); err != nil {
		return fail(err)
	}
	for _, tt := range written {
		for _, u := range tt.steps {
			u.unsynced, u.filesSynced = nil, true
		}
	}
	return ats, nil
}

// Rollback discards the staged changes and removes every file the
// transaction wrote.
func (x *Txn) Rollback(ctx context.Context) error {
	if x.done {
		return ErrTxnDone
	}
	x.done = true
	x.abandon(ctx)
	return nil
}

func (x *Txn) abandon(ctx context.Context) {
	for _, tt := range x.tables {
		for _, f := range tt.files {
			x.env.IO.Remove(ctx, f)
		}
		for _, u := range tt.steps {
			u.abandon(ctx)
		}
	}
}

// Written reports whether the transaction has staged any write.
func (x *Txn) Written() bool {
	for _, tt := range x.tables {
		if len(tt.steps) > 0 {
			return true
		}
	}
	return false
}
