package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	// committed are the versions a successful Commit installed.
	committed []*Table
}

type txnTable struct {
	ident  Identifier
	base   *Table // as pinned
	staged *Table // base plus the staged steps; nil before the first write
	steps  []*SnapshotUpdate
	last   []*attempt // each step's latest application
	// befores are the states each step was staged onto.
	befores []*Table
	files   []string // manifest lists and manifests written while staging
	// reapplied: COMMIT applied the steps again onto a newer version, so
	// last no longer describes the staged metadata.
	reapplied bool
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
// An append that follows an append to the same table joins it: the
// transaction's appends to a table commit as one snapshot.
func (x *Txn) Stage(ctx context.Context, u *SnapshotUpdate) (*Table, error) {
	if x.done {
		return nil, ErrTxnDone
	}
	tt, ok := x.tables[u.table.ident.String()]
	if !ok || (u.table != tt.base && u.table != tt.staged) {
		return nil, fmt.Errorf("table: update of %s was not created from this transaction's view", u.table.ident)
	}
	if k := len(tt.steps) - 1; k >= 0 && canJoin(tt.steps[k], u) {
		if err := x.join(ctx, tt, u); err != nil {
			u.abandon(context.WithoutCancel(ctx))
			return nil, err
		}
		return tt.staged, nil
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
	tt.befores = append(tt.befores, cur)
	tt.staged = &Table{env: x.env, ident: tt.ident, meta: at.meta, location: tt.base.location, staged: true, list: at.list}
	return tt.staged, nil
}

// canJoin reports whether u can be folded into prev: both plain appends
// of the same kind to the same branch.
func canJoin(prev, u *SnapshotUpdate) bool {
	plain := func(v *SnapshotUpdate) bool {
		return v.operation() == iceberg.OpAppend && len(v.addedDeletes) == 0 && len(v.removed) == 0 &&
			v.deleteFilter == nil && v.val == nil && !v.stageOnly && v.dataSeq == nil && len(v.summaryProps) == 0
	}
	return plain(prev) && plain(u) && prev.branch == u.branch && prev.fast == u.fast && prev.ownFiles == u.ownFiles
}

// join replaces the table's last step, an append, by one that also adds
// u's files, applied to the same state: one new manifest holds the files
// of both, and the earlier step's staged manifest and list are removed.
// On failure the earlier step stands as it was.
func (x *Txn) join(ctx context.Context, tt *txnTable, u *SnapshotUpdate) error {
	k := len(tt.steps) - 1
	prev := tt.steps[k]
	j := *prev
	j.addedData = append(slices.Clone(prev.addedData), u.addedData...)
	j.newMfs, j.unsynced, j.filesSynced = nil, nil, false
	at, err := j.apply(ctx, tt.befores[k], 1)
	if err != nil {
		for _, mf := range j.newMfs {
			x.env.IO.Remove(context.WithoutCancel(ctx), mf.Path)
		}
		return err
	}
	stale := map[string]bool{}
	for _, f := range tt.last[k].written {
		stale[f] = true
	}
	for _, mf := range prev.newMfs {
		stale[mf.Path] = true
	}
	tt.files = slices.DeleteFunc(tt.files, func(f string) bool { return stale[f] })
	for f := range stale {
		x.env.IO.Remove(ctx, f)
	}
	tt.files = append(tt.files, at.written...)
	tt.steps[k], tt.last[k] = &j, at
	tt.staged = &Table{env: x.env, ident: tt.ident, meta: at.meta, location: tt.base.location, staged: true, list: at.list}
	return nil
}

// Commit installs every staged change atomically, retrying per the first
// written table's commit.retry.* when another writer won a swap. The
// transaction holds its Env's commit locks of the written tables
// throughout, and with a catalog that locks it re-applies under the
// catalog's lock when another process moved a pointer.
func (x *Txn) Commit(ctx context.Context) error {
	if x.done {
		return ErrTxnDone
	}
	x.done = true
	var written []*txnTable
	var idents []Identifier
	for _, k := range x.order {
		if tt := x.tables[k]; len(tt.steps) > 0 {
			written = append(written, tt)
			idents = append(idents, tt.ident)
		}
	}
	if len(written) == 0 {
		return nil
	}
	unlock := x.env.lockTables(idents...)
	defer unlock()
	started := time.Now()
	policy := retryPolicyOf(written[0].base.meta)
	var lastErr error
	for n := 1; ; n++ {
		ats, err := x.attempt(ctx, written, n, nil)
		if err == nil {
			ats, err = x.install(ctx, written, idents, ats, n)
		}
		if err == nil {
			for i, at := range ats {
				tt := written[i]
				for k, u := range tt.steps {
					u.report(ctx, tt.last[k], n, started, nil)
					u.removeReplacedManifests(ctx, tt.last[k])
				}
				committed := &Table{env: x.env, ident: tt.ident, meta: at.meta, location: at.location, list: tt.last[len(tt.last)-1].list}
				x.env.remember(committed)
				x.committed = append(x.committed, committed)
				deleteOldMetadata(ctx, at.base, at)
				x.removeUnreferenced(ctx, tt)
				removeExpired(ctx, at, committed)
			}
			return nil
		}
		if errors.Is(err, iceberg.ErrCommitStateUnknown) {
			return err
		}
		x.cleanup(ctx, ats)
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

func (x *Txn) cleanup(ctx context.Context, ats []*attempt) {
	for _, at := range ats {
		for _, f := range at.written {
			x.env.IO.Remove(context.WithoutCancel(ctx), f)
		}
	}
}

// install swaps the attempts in. With a catalog that locks, pointers that
// moved since the attempts were made are dealt with under the lock: the
// steps are applied again onto the versions found, which nobody can
// replace before the swap.
func (x *Txn) install(ctx context.Context, written []*txnTable, idents []Identifier, ats []*attempt, n int) ([]*attempt, error) {
	locker, ok := x.env.Catalog.(CommitLocker)
	if !ok {
		return ats, x.swapAll(ctx, written, ats, nil)
	}
	lk, err := locker.LockPointers(ctx, idents)
	if err != nil {
		return ats, err
	}
	defer lk.Release()
	locs := lk.Locations()
	for i, at := range ats {
		if locs[i] != at.base.location {
			x.cleanup(ctx, ats)
			if ats, err = x.attempt(ctx, written, n+1, locs); err != nil {
				return nil, err // attempt removed what it wrote
			}
			break
		}
	}
	return ats, x.swapAll(ctx, written, ats, lk)
}

func (x *Txn) swapAll(ctx context.Context, written []*txnTable, ats []*attempt, lk PointerLock) error {
	swaps := make([]Swap, len(ats))
	for i, at := range ats {
		swaps[i] = Swap{Ident: at.base.ident, Expected: at.base.location, Next: at.location}
	}
	var err error
	if m, ok := x.env.Catalog.(MetadataCommitter); ok && lk == nil {
		changes := make([]TableChange, len(ats))
		for i, at := range ats {
			changes[i] = at.change()
		}
		var res []Committed
		if res, err = m.CommitChanges(ctx, changes); err == nil {
			for i, at := range ats {
				at.installed(res[i])
			}
		}
	} else if lk != nil {
		err = lk.Swap(ctx, swaps)
	} else {
		err = x.env.Catalog.SwapAll(ctx, swaps)
	}
	if err == nil {
		if err = x.env.Faults.at(FaultAfterSwap, written[0].ident); err != nil {
			err = fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
		}
	}
	return err
}

// removeUnreferenced removes what staging wrote for a table that the
// committed snapshots do not reference: the manifest lists (and merged
// manifests) of the staged applications when COMMIT applied the steps
// again onto a newer version.
func (x *Txn) removeUnreferenced(ctx context.Context, tt *txnTable) {
	kept := map[string]bool{}
	for _, at := range tt.last {
		if at.snapshot != nil {
			kept[at.snapshot.ManifestList] = true
		}
		for _, mf := range at.manifests {
			kept[mf.Path] = true
		}
	}
	for _, f := range tt.files {
		if !kept[f] {
			x.env.IO.Remove(ctx, f)
		}
	}
}

// attempt re-applies each table's steps onto its latest version (reusing
// the staged result when the table has not moved) and writes metadata.
// locs are the tables' current pointers, read here when nil.
func (x *Txn) attempt(ctx context.Context, written []*txnTable, n int, locs []string) ([]*attempt, error) {
	if locs == nil {
		idents := make([]Identifier, len(written))
		for i, tt := range written {
			idents[i] = tt.ident
		}
		var err error
		if locs, err = x.env.Catalog.CurrentMetadataLocations(ctx, idents); err != nil {
			return nil, err
		}
	}
	var ats []*attempt
	fail := func(err error) ([]*attempt, error) {
		x.cleanup(ctx, ats)
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
		ats = append(ats, at)
		if locs[i] == tt.base.location && !tt.reapplied {
			// Unchanged since the pin: the staged metadata is exact.
			at.base, at.meta = tt.base, tt.staged.meta
			for _, sat := range tt.last {
				at.updates = append(at.updates, sat.updates...)
			}
		} else {
			base, err := x.env.loadAtCached(ctx, tt.ident, locs[i])
			if err != nil {
				return fail(err)
			}
			tt.reapplied = true
			cur := base
			for k, u := range tt.steps {
				sat, err := u.apply(ctx, cur, n+1)
				if err != nil {
					return fail(err)
				}
				tt.last[k] = sat
				at.written = append(at.written, sat.written...)
				at.updates = append(at.updates, sat.updates...)
				cur = &Table{env: x.env, ident: tt.ident, meta: sat.meta, location: base.location, staged: true, list: sat.list}
			}
			// The first step logged base's metadata file; the rest were staged.
			at.base, at.meta = base, cur.meta
		}
		if err := at.expireHistory(); err != nil {
			return fail(err)
		}
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

// Committed returns the table versions a successful Commit installed.
func (x *Txn) Committed() []*Table { return x.committed }

// Written reports whether the transaction has staged any write.
func (x *Txn) Written() bool {
	for _, tt := range x.tables {
		if len(tt.steps) > 0 {
			return true
		}
	}
	return false
}
