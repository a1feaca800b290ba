package sqlexec

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/sqlexec/exec"
)

// Column describes one result column.
type Column struct {
	Name     string
	Type     arrow.DataType
	Nullable bool
	// TypeName is the SQL type name CREATE TABLE takes, without
	// parameters ("BIGINT", "DECIMAL", "TIMESTAMP" (with zone),
	// "TIMESTAMP_NTZ", "ARRAY", ...; arrowschema.SQLTypeName), for
	// database/sql's DatabaseTypeName. A uuid column is "UUID", a fixed[n]
	// one "FIXED" with Length n.
	TypeName string
	// Precision and Scale are set for decimals.
	Precision, Scale int64
	// Length is set for fixed[n].
	Length int64
}

// columnsOf describes the fields of an Arrow schema.
func columnsOf(s *arrow.Schema) []Column {
	out := make([]Column, s.NumFields())
	for i, f := range s.Fields() {
		c := Column{Name: f.Name, Type: f.Type, Nullable: f.Nullable, TypeName: arrowschema.SQLTypeName(f.Type)}
		switch x := f.Type.(type) {
		case *arrow.Decimal128Type:
			c.Precision, c.Scale = int64(x.Precision), int64(x.Scale)
		case *arrow.FixedSizeBinaryType:
			if c.TypeName == "FIXED" {
				c.Length = int64(x.ByteWidth)
			}
		}
		out[i] = c
	}
	return out
}

// Rows is a stream of result batches. Close it when done.
type Rows struct {
	schema  *arrow.Schema
	cols    []Column
	it      exec.RecordIterator
	onClose func()
	once    sync.Once
}

func newRows(it exec.RecordIterator) *Rows {
	return &Rows{schema: it.Schema(), cols: columnsOf(it.Schema()), it: it}
}

// Schema is the Arrow schema of every batch.
func (r *Rows) Schema() *arrow.Schema { return r.schema }

// Columns describes the result columns.
func (r *Rows) Columns() []Column { return r.cols }

// Next returns the next batch (the caller releases it), or nil at the end.
func (r *Rows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.it.Next(ctx)
}

// Close releases the stream.
func (r *Rows) Close() error {
	r.once.Do(func() {
		r.it.Close()
		if r.onClose != nil {
			r.onClose()
		}
	})
	return nil
}

// Result is the outcome of a statement that returns no rows.
type Result struct {
	RowsAffected int64
}

// batchIterator serves batches built in memory.
type batchIterator struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

func (b *batchIterator) Schema() *arrow.Schema { return b.schema }

func (b *batchIterator) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(b.batches) == 0 {
		return nil, nil
	}
	out := b.batches[0]
	b.batches = b.batches[1:]
	return out, nil
}

func (b *batchIterator) Close() {
	exec.ReleaseAll(b.batches)
	b.batches = nil
}
