package driver

import (
	"context"
	"database/sql/driver"

	"github.com/icesql/icesql/sqlexec"
)

// stmt is a statement parsed once and run many times.
type stmt struct {
	conn     *conn
	prepared *sqlexec.Prepared
	closed   bool
}

var (
	_ driver.Stmt              = (*stmt)(nil)
	_ driver.StmtExecContext   = (*stmt)(nil)
	_ driver.StmtQueryContext  = (*stmt)(nil)
	_ driver.NamedValueChecker = (*stmt)(nil)
)

func (s *stmt) Close() error  { s.closed = true; return nil }
func (s *stmt) NumInput() int { return s.prepared.NumInput() }

func (s *stmt) CheckNamedValue(nv *driver.NamedValue) error { return s.conn.CheckNamedValue(nv) }

func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if s.closed || s.conn.closed {
		return nil, driver.ErrBadConn
	}
	vals, err := values(args)
	if err != nil {
		return nil, err
	}
	res, err := s.prepared.Exec(s.conn.statementContext(ctx), vals)
	if err != nil {
		return nil, wrapErr(err)
	}
	return result{rowsAffected: res.RowsAffected}, nil
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if s.closed || s.conn.closed {
		return nil, driver.ErrBadConn
	}
	vals, err := values(args)
	if err != nil {
		return nil, err
	}
	ctx = s.conn.statementContext(ctx)
	r, err := s.prepared.Query(ctx, vals)
	if err != nil {
		return nil, wrapErr(err)
	}
	return newRows(ctx, r), nil
}

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, a := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return out
}
