package driver

import (
	"context"
	"database/sql/driver"
	"io"
	"math"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec"
)

// rows streams the engine's Arrow batches row by row.
type rows struct {
	ctx   context.Context
	r     *sqlexec.Rows
	cols  []sqlexec.Column
	names []string
	cur   arrow.RecordBatch
	pos   int
}

var (
	_ driver.Rows                           = (*rows)(nil)
	_ driver.RowsColumnTypeScanType         = (*rows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)
	_ driver.RowsColumnTypeNullable         = (*rows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*rows)(nil)
	_ driver.RowsColumnTypeLength           = (*rows)(nil)
)

func newRows(ctx context.Context, r *sqlexec.Rows) *rows {
	cols := r.Columns()
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return &rows{ctx: ctx, r: r, cols: cols, names: names}
}

func (r *rows) Columns() []string { return r.names }

func (r *rows) Close() error {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	return r.r.Close()
}

func (r *rows) Next(dest []driver.Value) error {
	for r.cur == nil || r.pos >= int(r.cur.NumRows()) {
		if r.cur != nil {
			r.cur.Release()
			r.cur = nil
		}
		b, err := r.r.Next(r.ctx)
		if err != nil {
			return wrapErr(err)
		}
		if b == nil {
			return io.EOF
		}
		r.cur, r.pos = b, 0
	}
	for i := range dest {
		v, err := goValue(r.cur.Column(i), r.pos)
		if err != nil {
			return err
		}
		dest[i] = v
	}
	r.pos++
	return nil
}

var (
	scanBool    = reflect.TypeOf(false)
	scanInt32   = reflect.TypeOf(int32(0))
	scanInt64   = reflect.TypeOf(int64(0))
	scanFloat32 = reflect.TypeOf(float32(0))
	scanFloat64 = reflect.TypeOf(float64(0))
	scanString  = reflect.TypeOf("")
	scanBytes   = reflect.TypeOf([]byte(nil))
	scanTime    = reflect.TypeOf(time.Time{})
	scanAny     = reflect.TypeOf((*any)(nil)).Elem()
)

func (r *rows) ColumnTypeScanType(i int) reflect.Type {
	switch r.cols[i].TypeName {
	case "BOOLEAN":
		return scanBool
	case "INT":
		return scanInt32
	case "BIGINT":
		return scanInt64
	case "FLOAT":
		return scanFloat32
	case "DOUBLE":
		return scanFloat64
	case "STRING", "DECIMAL", "UUID", "TIME", "ARRAY", "MAP", "STRUCT":
		return scanString
	case "BINARY", "FIXED":
		return scanBytes
	case "DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_NS", "TIMESTAMPTZ_NS":
		return scanTime
	}
	return scanAny
}

func (r *rows) ColumnTypeDatabaseTypeName(i int) string { return r.cols[i].TypeName }

func (r *rows) ColumnTypeNullable(i int) (nullable, ok bool) { return r.cols[i].Nullable, true }

func (r *rows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	c := r.cols[i]
	if c.TypeName != "DECIMAL" {
		return 0, 0, false
	}
	return c.Precision, c.Scale, true
}

func (r *rows) ColumnTypeLength(i int) (length int64, ok bool) {
	switch r.cols[i].TypeName {
	case "FIXED":
		return r.cols[i].Length, true
	case "STRING", "BINARY":
		return math.MaxInt64, true
	}
	return 0, false
}
