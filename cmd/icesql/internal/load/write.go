package load

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/sqlexec/parser"
)

// Appender is the Arrow-native bulk append a driver connection may offer
// (reached through (*sql.Conn).Raw): all batches of rr appended to the
// named table in one commit, nothing committed on error.
type Appender interface {
	AppendArrow(ctx context.Context, table string, r array.RecordReader) (int64, error)
}

// Conn is the part of *sql.Conn the loader uses.
type Conn interface {
	Raw(func(driverConn any) error) error
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Result says how a load went.
type Result struct {
	Rows    int64
	Commits int
}

// insertBatchRows bounds the rows of one INSERT of the fallback path.
const insertBatchRows = 1000

// Write appends everything r reads to table. It uses the driver's
// Appender when there is one (one commit). Otherwise it reads and
// validates the whole file first, so a bad value commits nothing, then
// sends multi-row INSERTs (one commit each).
func Write(ctx context.Context, conn Conn, table string, cols []Column, r *Reader) (Result, error) {
	var app Appender
	if err := conn.Raw(func(dc any) error {
		app, _ = dc.(Appender)
		return nil
	}); err != nil {
		return Result{}, err
	}
	if app != nil {
		var n int64
		err := conn.Raw(func(dc any) error {
			var err error
			n, err = dc.(Appender).AppendArrow(ctx, table, r)
			return err
		})
		if err == nil {
			err = r.Err()
		}
		if err != nil {
			return Result{}, err
		}
		return Result{Rows: n, Commits: 1}, nil
	}
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		batches = append(batches, rec)
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
	}
	if err := r.Err(); err != nil {
		return Result{}, err
	}
	return insertBatches(ctx, conn, table, cols, batches)
}

func insertBatches(ctx context.Context, conn Conn, table string, cols []Column, batches []arrow.RecordBatch) (Result, error) {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = parser.QuoteIdent(c.Name)
	}
	prefix := "INSERT INTO " + table + " (" + strings.Join(names, ", ") + ") VALUES "
	tuple := "(" + strings.Repeat("?, ", len(cols)-1) + "?)"
	var res Result
	var args []any
	rows := 0
	flush := func() error {
		if rows == 0 {
			return nil
		}
		q := prefix + strings.Repeat(tuple+", ", rows-1) + tuple
		if _, err := conn.ExecContext(ctx, q, args...); err != nil {
			if res.Commits > 0 {
				return fmt.Errorf("%w (%d rows were already committed in %d commits)", err, res.Rows, res.Commits)
			}
			return err
		}
		res.Rows += int64(rows)
		res.Commits++
		rows, args = 0, args[:0]
		return nil
	}
	for _, rec := range batches {
		for i := range int(rec.NumRows()) {
			for c, col := range cols {
				v, err := arrowschema.ValueAt(rec.Column(c), i, col.Type)
				if err != nil {
					return res, err
				}
				args = append(args, bindable(v))
			}
			rows++
			if rows == insertBatchRows {
				if err := flush(); err != nil {
					return res, err
				}
			}
		}
	}
	return res, flush()
}

// bindable converts values the driver does not take as parameters.
func bindable(v any) any {
	switch x := v.(type) {
	case iceberg.Time:
		us := int64(x)
		return fmt.Sprintf("%02d:%02d:%02d.%06d", us/3_600_000_000, us/60_000_000%60, us/1_000_000%60, us%1_000_000)
	case iceberg.UUID:
		return iceberg.FormatUUID(x)
	}
	return v
}
