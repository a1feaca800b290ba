package sqlexec

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/sqlexec/parser"
)

// AppendArrow appends every record of r to the table name (SQL spelling,
// e.g. `db.events`) as ONE snapshot: committed at once in autocommit mode,
// staged inside a transaction. Columns match the table's by name when
// every table column appears in r's schema (case-insensitively), otherwise
// by position; each record is cast to the table's types
// (arrowschema.CastRecord: widening only, NOT NULL checked). On error
// nothing is committed and the files written are removed.
func (s *Session) AppendArrow(ctx context.Context, name string, r array.RecordReader) (int64, error) {
	if s.engine.isClosed() {
		return 0, ErrClosed
	}
	if err := s.checkWritable(); err != nil {
		return 0, err
	}
	if readOptionsFrom(ctx) != nil {
		return 0, ErrReadOptionsWrite
	}
	if r == nil {
		return 0, invalidf("AppendArrow: nil record reader")
	}
	ref, err := parseTableName(name)
	if err != nil {
		return 0, err
	}
	if err := s.engine.ensureDefaultNamespace(ctx); err != nil {
		return 0, err
	}
	t, err := s.loadTable(ctx, ref)
	if err != nil {
		return 0, err
	}
	target, err := arrowschema.ToArrow(t.Schema())
	if err != nil {
		return 0, err
	}
	order, err := columnOrder(r.Schema(), target)
	if err != nil {
		return 0, err
	}
	res, err := s.appendRows(ctx, t, ref.Branch, &arrowSource{r: r, order: order, target: target})
	return res.RowsAffected, err
}

// arrowSource is AppendArrow's records as an iterator: reordered to the
// table's columns and cast to its types, empty records skipped.
type arrowSource struct {
	r      array.RecordReader
	order  []int
	target *arrow.Schema
}

func (a *arrowSource) Schema() *arrow.Schema { return a.target }
func (a *arrowSource) Close()                {}

func (a *arrowSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for a.r.Next() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec := a.r.RecordBatch()
		if rec.NumRows() == 0 {
			continue
		}
		cols := make([]arrow.Array, len(a.order))
		for i, j := range a.order {
			cols[i] = rec.Column(j)
		}
		src := array.NewRecordBatch(reorderedSchema(a.r.Schema(), a.order), cols, rec.NumRows())
		cast, err := arrowschema.CastRecord(ctx, src, a.target)
		src.Release()
		if err != nil {
			return nil, writeError(err)
		}
		return cast, nil
	}
	return nil, a.r.Err()
}

// parseTableName reads a table name in SQL spelling.
func parseTableName(name string) (*parser.TableRef, error) {
	if strings.TrimSpace(name) == "" {
		return nil, invalidf("empty table name")
	}
	st, err := parser.ParseOne("DESCRIBE " + name)
	if err != nil {
		return nil, invalidf("table name %q: %v", name, err)
	}
	d, ok := st.(*parser.DescribeStmt)
	if !ok || d.Table == nil || d.Extended {
		return nil, invalidf("table name %q", name)
	}
	if d.Table.MetadataTable != "" || d.Table.VersionAsOf != nil || d.Table.TimestampAsOf != nil || d.Table.Tag != "" {
		return nil, invalidf("cannot write to %s", d.Table)
	}
	return d.Table, nil
}

// columnOrder gives, for each target column, the source column feeding it.
func columnOrder(src, target *arrow.Schema) ([]int, error) {
	order := make([]int, target.NumFields())
	byName := true
	for i, f := range target.Fields() {
		order[i] = -1
		for j, sf := range src.Fields() {
			if strings.EqualFold(sf.Name, f.Name) {
				order[i] = j
				break
			}
		}
		if order[i] < 0 {
			byName = false
			break
		}
	}
	if byName {
		return order, nil
	}
	if src.NumFields() != target.NumFields() {
		return nil, invalidf("the records have %d columns, the table has %d (and the names do not match)", src.NumFields(), target.NumFields())
	}
	for i := range order {
		order[i] = i
	}
	return order, nil
}

func reorderedSchema(s *arrow.Schema, order []int) *arrow.Schema {
	fields := make([]arrow.Field, len(order))
	for i, j := range order {
		fields[i] = s.Field(j)
	}
	return arrow.NewSchema(fields, nil)
}
