package driver

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/icesql/icesql/sqlexec"
)

// conn is one session on the connector's engine.
type conn struct {
	session  *sqlexec.Session
	readOnly bool
	closed   bool
	// pending holds the QueryOptions database/sql removed from the
	// arguments of the statement about to run (see CheckNamedValue).
	pending *sqlexec.ReadOptions
	// ownsConnector is set for connections made by Driver.Open, which
	// close their private engine with the connection.
	ownsConnector *connector
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
)

func newConn(e *sqlexec.Engine, readOnly bool) *conn {
	return &conn{session: e.NewSession(), readOnly: readOnly}
}

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	p, err := c.session.Prepare(query)
	if err != nil {
		return nil, wrapErr(err)
	}
	return &stmt{conn: c, prepared: p}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	vals, err := values(args)
	if err != nil {
		return nil, err
	}
	res, err := c.session.Exec(c.statementContext(ctx), query, vals)
	if err != nil {
		return nil, wrapErr(err)
	}
	return result{rowsAffected: res.RowsAffected}, nil
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	vals, err := values(args)
	if err != nil {
		return nil, err
	}
	ctx = c.statementContext(ctx)
	r, err := c.session.Query(ctx, query, vals)
	if err != nil {
		return nil, wrapErr(err)
	}
	return newRows(ctx, r), nil
}

func (c *conn) Ping(ctx context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	return wrapErr(c.session.Engine().Ping(ctx))
}

// ResetSession prepares a pooled connection for its next user: back to the
// default namespace, no pending options. A connection left inside a
// transaction (SQL BEGIN through the pool) is refused, so database/sql
// discards it, which rolls the transaction back.
func (c *conn) ResetSession(ctx context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	c.pending = nil
	if err := c.session.Reset(); err != nil {
		return driver.ErrBadConn
	}
	return nil
}

// IsValid is false for a closed connection and for one returned to the
// pool with a transaction open, which database/sql then closes.
func (c *conn) IsValid() bool { return !c.closed && !c.session.InTxn() }

// Close rolls back an open transaction.
func (c *conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.session.Close(context.Background())
	if c.ownsConnector != nil {
		return c.ownsConnector.Close()
	}
	return nil
}

// CheckNamedValue accepts the argument types the engine binds, and takes
// QueryOptions out of the arguments (driver.ErrRemoveArgument) to apply
// them to the statement about to run, which consumes them (ResetSession
// drops any left by a statement database/sql refused after the check).
func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	if o, ok := nv.Value.(QueryOption); ok {
		var r sqlexec.ReadOptions
		if c.pending != nil {
			r = *c.pending
		}
		r = o.merge(r)
		c.pending = &r
		return driver.ErrRemoveArgument
	}
	switch nv.Value.(type) {
	case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, time.Time,
		float32, float64, string, []byte:
		return nil
	}
	if _, ok := engineValue(nv.Value); ok {
		return nil
	}
	v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
	if err != nil {
		return err
	}
	nv.Value = v
	return nil
}

// statementContext gives the running statement the options taken from its
// arguments.
func (c *conn) statementContext(ctx context.Context) context.Context {
	p := c.pending
	c.pending = nil
	if p == nil {
		return ctx
	}
	return sqlexec.WithReadOptions(ctx, *p)
}

func values(args []driver.NamedValue) ([]any, error) {
	out := make([]any, len(args))
	for i, a := range args {
		if a.Name != "" {
			out[i] = sqlexec.NamedArg{Name: a.Name, Value: a.Value}
			continue
		}
		out[i] = a.Value
	}
	return out, nil
}

// wrapErr makes a read-only refusal match this package's ErrReadOnly too.
func wrapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sqlexec.ErrReadOnly) && !errors.Is(err, ErrReadOnly) {
		return fmt.Errorf("%w: %w", ErrReadOnly, err)
	}
	return err
}
