package planner

import (
	"context"
	"strings"

	"github.com/icesql/icesql/sqlexec/exec"
)

// MetadataAggregator is optionally implemented by Tables that can answer
// count(*), count(col), min(col) and max(col) over all their rows from
// metadata (an Iceberg table: its data files' record counts, null counts
// and bounds) without reading the rows.
type MetadataAggregator interface {
	// AggregateFromMetadata returns one value per aggregate over the
	// table's rows that pass filters (AND-ed, over Table.Schema(); none:
	// all rows), nil for NULL and otherwise in the exec.ValueAt form of
	// the aggregate's type; or false when the metadata does not give
	// every one of them exactly (rows deleted by delete files, missing or
	// inexact bounds, a filter that whole files' partition values do not
	// decide): the caller then scans.
	AggregateFromMetadata(ctx context.Context, filters []Expr, aggs []MetadataAgg) ([]any, bool, error)
}

// MetadataAgg is one aggregate a MetadataAggregator is asked for.
type MetadataAgg struct {
	Func exec.AggFunc // AggCountStar, AggCount, AggMin or AggMax
	// Column indexes Table.Schema(); -1 for count(*).
	Column int
}

// MetadataAggregate answers an Aggregate without GROUP BY over a whole
// table from the table's metadata when it can, and runs Fallback (the
// Aggregate it replaces) when it cannot; whether it could is only known
// when it runs, since it reads the snapshot's manifests then.
type MetadataAggregate struct {
	Table    Table
	Filters  []Expr // the scan's, over Table.Schema()
	Aggs     []MetadataAgg
	Cols     []Column
	Fallback Plan
}

func (m *MetadataAggregate) Columns() []Column { return m.Cols }
func (m *MetadataAggregate) Children() []Plan  { return []Plan{m.Fallback} }
func (m *MetadataAggregate) String() string    { return explain(m) }
func (m *MetadataAggregate) describe() string {
	sch := m.Table.Schema()
	parts := make([]string, len(m.Aggs))
	for i, a := range m.Aggs {
		if a.Column < 0 {
			parts[i] = "count(*)"
			continue
		}
		parts[i] = a.Func.String() + "(" + sch.Field(a.Column).Name + ")"
	}
	d := "MetadataAggregate " + m.Table.Name() + " aggs=[" + strings.Join(parts, ", ") + "]"
	if len(m.Filters) > 0 {
		d += " filters=[" + exprList(m.Filters) + "]"
	}
	return d + " (from file statistics, else:)"
}

// aggregateFromMetadata replaces an Aggregate without groups whose
// aggregates are all count(*), count(col), min(col) or max(col) of
// columns of one unlimited scan (through projections of bare columns)
// by a MetadataAggregate, when the scanned table implements
// MetadataAggregator. The scan's filters go with it: with no Filter left
// above the scan they are the whole predicate, which the table answers
// only when partition values decide it for whole files.
func aggregateFromMetadata(p Plan) (Plan, error) {
	return transformPlan(p, func(n Plan) (Plan, error) {
		a, ok := n.(*Aggregate)
		if !ok || len(a.Groups) > 0 || len(a.Aggs) == 0 {
			return n, nil
		}
		scan, cols := wholeScan(a.Input)
		if scan == nil {
			return n, nil
		}
		if _, ok := scan.Table.(MetadataAggregator); !ok {
			return n, nil
		}
		aggs := make([]MetadataAgg, len(a.Aggs))
		for i, c := range a.Aggs {
			if c.Distinct && c.Func != exec.AggMin && c.Func != exec.AggMax {
				return n, nil
			}
			switch c.Func {
			case exec.AggCountStar:
				aggs[i] = MetadataAgg{Func: c.Func, Column: -1}
				continue
			case exec.AggCount, exec.AggMin, exec.AggMax:
			default:
				return n, nil
			}
			ref, ok := c.Arg.(*ColumnRef)
			if !ok || ref.Index < 0 || ref.Index >= len(cols) || cols[ref.Index] < 0 {
				return n, nil
			}
			aggs[i] = MetadataAgg{Func: c.Func, Column: cols[ref.Index]}
		}
		return &MetadataAggregate{Table: scan.Table, Filters: scan.Filters, Aggs: aggs, Cols: a.Cols, Fallback: a}, nil
	})
}

// wholeScan is the scan under projections of bare columns, with the
// table column each output column of p reads (-1: not a bare column);
// nil when p is anything else or the scan has a limit.
func wholeScan(p Plan) (*Scan, []int) {
	switch x := p.(type) {
	case *Scan:
		if x.Limit >= 0 {
			return nil, nil
		}
		return x, x.Cols
	case *Project:
		s, in := wholeScan(x.Input)
		if s == nil {
			return nil, nil
		}
		out := make([]int, len(x.Exprs))
		for i, e := range x.Exprs {
			out[i] = -1
			if ref, ok := e.(*ColumnRef); ok && ref.Index >= 0 && ref.Index < len(in) {
				out[i] = in[ref.Index]
			}
		}
		return s, out
	}
	return nil, nil
}

// ColumnsRead lists the input columns the expressions read.
func ColumnsRead(es []Expr) map[int]bool {
	out := map[int]bool{}
	for _, e := range es {
		columnsUsed(e, out)
	}
	return out
}
