package sqlite

import (
	"context"
	"database/sql"
)

// TableLock holds SQLite's write lock (a BEGIN IMMEDIATE transaction)
// from reading table pointers until swapping them, so a commit that read
// the pointers under it cannot lose its swap: committers of every process
// queue on the lock instead of racing the compare-and-swap. A Postgres
// catalog gives the same with SELECT ... FOR UPDATE on the rows.
//
// While it is held no other write of this catalog proceeds (SQLite has
// one writer), so a commit holds it only for the pointer read and swap,
// and for re-applying its changes when the pointer had moved.
type TableLock struct {
	c         *Catalog
	tx        *sql.Tx
	idents    []Identifier
	locations []string
	done      bool
}

// LockTables takes the write lock and reads the pointers of idents in
// order. Errors: iceberg.ErrCommitFailed when the lock stayed busy past
// the busy timeout; iceberg.ErrNoSuchTable naming a missing table.
func (c *Catalog) LockTables(ctx context.Context, idents []Identifier) (*TableLock, error) {
	const op = "lock tables"
	for _, id := range idents {
		if err := validateIdent(id); err != nil {
			return nil, newError(op, id.String(), err)
		}
	}
	if c.readOnly {
		return nil, newError(op, "", ErrReadOnly)
	}
	w, err := c.writer(ctx)
	if err != nil {
		return nil, newError(op, "", notApplied(err))
	}
	tx, err := w.BeginTx(ctx, nil) // _txlock=immediate: takes the write lock
	if err != nil {
		return nil, newError(op, "", notApplied(err))
	}
	l := &TableLock{c: c, tx: tx, idents: idents, locations: make([]string, len(idents))}
	for i, id := range idents {
		rec, err := c.loadRow(ctx, tx, id, c.tableKind())
		if err != nil {
			tx.Rollback()
			return nil, newError(op, id.String(), notApplied(err))
		}
		l.locations[i] = rec.MetadataLocation
	}
	return l, nil
}

// Locations are the pointers as read under the lock, in LockTables' order.
func (l *TableLock) Locations() []string { return l.locations }

// Commit swaps the pointers in the locked transaction and commits it,
// ending the lock. Errors follow CommitTables.
func (l *TableLock) Commit(ctx context.Context, commits []TableCommit) error {
	const op = "commit tables"
	if l.done {
		return newError(op, "", wrapf(ErrInvalidArgument, "table lock already ended"))
	}
	l.done = true
	for _, tc := range commits {
		if err := validateCommit(tc); err != nil {
			l.tx.Rollback()
			return newError(op, tc.Ident.String(), err)
		}
	}
	if err := l.c.swapIn(ctx, l.tx, op, commits); err != nil {
		return err
	}
	return l.c.commitSwaps(ctx, l.tx, op, commits)
}

// Release ends the lock without a change; after Commit it does nothing.
func (l *TableLock) Release() {
	if !l.done {
		l.done = true
		l.tx.Rollback()
	}
}
