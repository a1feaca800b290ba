package driver

import (
	"context"
	"database/sql/driver"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/sqlexec"
)

// ArrowConn is the Arrow-native side of a connection, reached through
// (*sql.Conn).Raw:
//
//	err := c.Raw(func(dc any) error {
//		n, err = dc.(driver.ArrowConn).AppendArrow(ctx, "db.events", reader)
//		return err
//	})
//
// Both methods take part in the connection's open transaction.
type ArrowConn interface {
	// QueryArrow runs a query and returns its result as Arrow records. The
	// arguments bind ? placeholders and may include QueryOptions. Read the
	// records before the connection runs another statement, and Release
	// the reader when done.
	QueryArrow(ctx context.Context, query string, args ...any) (array.RecordReader, error)
	// AppendArrow appends every record of r to the table as ONE commit
	// (staged inside a transaction). Columns match by name when all the
	// table's columns are present, else by position; values are cast to
	// the table's types (widening only) and NOT NULL is checked.
	AppendArrow(ctx context.Context, table string, r array.RecordReader) (rows int64, err error)
}

var _ ArrowConn = (*conn)(nil)

func (c *conn) QueryArrow(ctx context.Context, query string, args ...any) (array.RecordReader, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	c.pending = nil
	vals := make([]any, 0, len(args))
	for i, a := range args {
		nv := driver.NamedValue{Ordinal: i + 1, Value: a}
		if v, ok := a.(driver.Valuer); ok {
			x, err := v.Value()
			if err != nil {
				return nil, err
			}
			nv.Value = x
		}
		switch err := c.CheckNamedValue(&nv); err {
		case nil:
			vals = append(vals, nv.Value)
		case driver.ErrRemoveArgument:
		default:
			return nil, err
		}
	}
	ctx = c.statementContext(ctx)
	r, err := c.session.Query(ctx, query, vals)
	if err != nil {
		return nil, wrapErr(err)
	}
	rr := &recordReader{ctx: ctx, rows: r}
	rr.refs.Store(1)
	return rr, nil
}

func (c *conn) AppendArrow(ctx context.Context, table string, r array.RecordReader) (int64, error) {
	if c.closed {
		return 0, driver.ErrBadConn
	}
	n, err := c.session.AppendArrow(ctx, table, r)
	return n, wrapErr(err)
}

// recordReader streams a result's batches as an array.RecordReader.
type recordReader struct {
	ctx  context.Context
	rows *sqlexec.Rows
	refs atomic.Int64
	cur  arrow.RecordBatch
	err  error
	done bool
}

var _ array.RecordReader = (*recordReader)(nil)

func (r *recordReader) Retain() { r.refs.Add(1) }

func (r *recordReader) Release() {
	if r.refs.Add(-1) == 0 {
		r.releaseCur()
		r.rows.Close()
	}
}

func (r *recordReader) Schema() *arrow.Schema { return r.rows.Schema() }

func (r *recordReader) releaseCur() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *recordReader) Next() bool {
	r.releaseCur()
	if r.done {
		return false
	}
	b, err := r.rows.Next(r.ctx)
	if err != nil || b == nil {
		r.err = wrapErr(err)
		r.done = true
		r.rows.Close()
		return false
	}
	r.cur = b
	return true
}

// RecordBatch is the current batch, valid until the next call to Next.
func (r *recordReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch under its former name.
func (r *recordReader) Record() arrow.RecordBatch { return r.cur }

func (r *recordReader) Err() error { return r.err }
