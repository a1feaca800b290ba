package postgres

import (
	"context"
	"slices"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/icesql/icesql/catalog"
)

// LockForCommit locks the pointer rows of idents with SELECT ... FOR
// UPDATE in a transaction held open until the lock's Commit or Release.
// Rows are locked in a fixed order (by identifier), so two committers of
// overlapping tables cannot deadlock.
func (c *Catalog) LockForCommit(ctx context.Context, idents []Identifier) (catalog.CommitLock, error) {
	const op = "lock for commit"
	for _, id := range idents {
		if err := validateIdent(id); err != nil {
			return nil, newError(op, id.String(), err)
		}
	}
	if c.readOnly {
		return nil, newError(op, "", catalog.ErrReadOnly)
	}
	order := make([]int, len(idents))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		ka, kb := joinNamespace(idents[a].Namespace)+"\x00"+idents[a].Name, joinNamespace(idents[b].Namespace)+"\x00"+idents[b].Name
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	conn, err := c.pool.Acquire(ctx)
	if err != nil {
		return nil, newError(op, "", notApplied(err))
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		conn.Release()
		return nil, newError(op, "", notApplied(err))
	}
	l := &commitLock{c: c, conn: conn, tx: tx, idents: idents, recs: make([]catalog.Record, len(idents))}
	k := c.tableKind()
	for _, i := range order {
		id := idents[i]
		rec, err := c.loadRow(ctx, tx, id, k, " FOR UPDATE")
		if err != nil {
			l.Release()
			return nil, newError(op, id.String(), notApplied(err))
		}
		l.recs[i] = rec
	}
	return l, nil
}

type commitLock struct {
	c      *Catalog
	conn   *pgxpool.Conn
	tx     pgx.Tx
	idents []Identifier
	recs   []catalog.Record

	mu   sync.Mutex
	done bool
}

func (l *commitLock) Locations() []string {
	out := make([]string, len(l.recs))
	for i, r := range l.recs {
		out[i] = r.MetadataLocation
	}
	return out
}

// Commit swaps pointers of locked tables in the lock's transaction and
// commits it.
func (l *commitLock) Commit(ctx context.Context, commits []catalog.TableCommit) error {
	const op = "commit tables"
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return newError(op, "", wrapf(catalog.ErrInvalidArgument, "commit lock already ended"))
	}
	for _, tc := range commits {
		if !slices.ContainsFunc(l.idents, func(id Identifier) bool { return id.String() == tc.Ident.String() }) {
			return newError(op, tc.Ident.String(), wrapf(catalog.ErrInvalidArgument, "table is not locked"))
		}
	}
	if err := l.c.checkCommits(op, commits); err != nil {
		return err
	}
	l.done = true
	defer l.conn.Release()
	return l.c.finishCommit(ctx, op, l.conn, l.tx, commits)
}

// Release rolls the lock's transaction back; after Commit it does nothing.
func (l *commitLock) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return
	}
	l.done = true
	l.tx.Rollback(context.Background())
	l.conn.Release()
}
