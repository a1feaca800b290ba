package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec"
)

// tx is a transaction begun with (*sql.DB).BeginTx. Reads inside see every
// table as of one consistent read of the catalog plus the transaction's own
// writes; writes are staged and land together at Commit (all tables or
// none). A failed statement inside removes its files and leaves the
// transaction usable. DDL inside is refused (sqlexec.ErrDDLInTxn).
type tx struct{ c *conn }

var _ driver.Tx = (*tx)(nil)

// Commit installs the staged writes atomically. A *iceberg.ValidationError
// (errors.As) means a concurrent commit conflicted at the chosen isolation
// level; nothing of the transaction is visible and its files are removed.
func (t *tx) Commit() error {
	if t.c.closed {
		return driver.ErrBadConn
	}
	return wrapErr(t.c.session.Commit(context.Background()))
}

func (t *tx) Rollback() error {
	if t.c.closed {
		return driver.ErrBadConn
	}
	return wrapErr(t.c.session.Rollback(context.Background()))
}

// txOptions maps database/sql options onto the session's: serializable is
// serializable; snapshot and repeatable read are snapshot isolation; the
// default keeps each table's write.*.isolation-level. Weaker levels cannot
// be provided (every read is a snapshot read) and are refused.
func txOptions(opts driver.TxOptions) (sqlexec.TxOptions, error) {
	out := sqlexec.TxOptions{ReadOnly: opts.ReadOnly}
	switch sql.IsolationLevel(opts.Isolation) {
	case sql.LevelDefault:
	case sql.LevelSerializable:
		out.Isolation = iceberg.IsolationSerializable
	case sql.LevelSnapshot, sql.LevelRepeatableRead:
		out.Isolation = iceberg.IsolationSnapshot
	default:
		return out, fmt.Errorf("%w: %s (use LevelSerializable, LevelSnapshot, LevelRepeatableRead or LevelDefault)",
			ErrIsolationLevel, sql.IsolationLevel(opts.Isolation))
	}
	return out, nil
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	o, err := txOptions(opts)
	if err != nil {
		return nil, err
	}
	if err := c.session.Begin(ctx, o); err != nil {
		return nil, wrapErr(err)
	}
	return &tx{c: c}, nil
}
