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
	res, err := c.session.Exec(ctx, query, vals)
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
	r, err := c.session.Query(ctx, query, vals)
	if err != nil {
		return nil, wrapErr(err)
	}
	return newRows(ctx, r), nil
}

// ErrTxNotSupported: BEGIN through database/sql; every statement commits
// on its own.
var ErrTxNotSupported = errors.New("iceberg driver: transactions are not supported yet: each statement commits on its own")

func (c *conn) Begin() (driver.Tx, error) { return nil, ErrTxNotSupported }

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return nil, ErrTxNotSupported
}

func (c *conn) Ping(ctx context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	return wrapErr(c.session.Engine().Ping(ctx))
}

func (c *conn) ResetSession(ctx context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	return nil
}

func (c *conn) IsValid() bool { return !c.closed }

func (c *conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	if c.ownsConnector != nil {
		return c.ownsConnector.Close()
	}
	return nil
}

// CheckNamedValue accepts the argument types the engine binds.
func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	if nv.Name != "" {
		return fmt.Errorf("iceberg driver: named parameter %q: only positional ? placeholders are supported", nv.Name)
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

func values(args []driver.NamedValue) ([]any, error) {
	out := make([]any, len(args))
	for i, a := range args {
		if a.Name != "" {
			return nil, fmt.Errorf("iceberg driver: named parameter %q: only positional ? placeholders are supported", a.Name)
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
