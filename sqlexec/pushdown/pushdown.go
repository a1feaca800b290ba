// Package pushdown converts the filters the planner pushes to a scan into
// Iceberg expressions, for file pruning and for exact row selection.
package pushdown

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

// Pruning converts what it can of pushed-down planner filters (over the
// table's Arrow schema) to one Iceberg expression, a superset of the rows
// the filters select: sound for file pruning and conflict filters, since
// the engine re-applies every filter to the rows. Filters it cannot
// convert are left out; nil when nothing converts.
func Pruning(schema *arrow.Schema, filters []planner.Expr) expr.Expr {
	var parts []expr.Expr
	for _, f := range filters {
		if e, ok := convertFilter(schema, f, false); ok {
			parts = append(parts, e)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return expr.And(parts...)
}

// Exact converts every filter exactly (an always-true expression for no
// filters), or reports false.
func Exact(schema *arrow.Schema, filters []planner.Expr) (expr.Expr, bool) {
	parts := []expr.Expr{expr.True()}
	for _, f := range filters {
		e, ok := convertFilter(schema, f, true)
		if !ok {
			return nil, false
		}
		parts = append(parts, e)
	}
	return expr.And(parts...), true
}

// convertFilter converts e; with exact false, an AND may drop the parts
// it cannot convert (a weaker filter, still sound for pruning).
func convertFilter(schema *arrow.Schema, e planner.Expr, exact bool) (expr.Expr, bool) {
	switch x := e.(type) {
	case *planner.Logic:
		l, ok1 := convertFilter(schema, x.L, exact)
		r, ok2 := convertFilter(schema, x.R, exact)
		if x.Or || exact {
			if ok1 && ok2 {
				return expr.Or(l, r), true
			}
			return nil, false
		}
		switch {
		case ok1 && ok2:
			return expr.And(l, r), true
		case ok1:
			return l, true
		case ok2:
			return r, true
		}
		return nil, false
	case *planner.Not:
		if !exact {
			return nil, false
		}
		c, ok := convertFilter(schema, x.E, true)
		if !ok {
			return nil, false
		}
		return expr.Not(c), true
	case *planner.IsNull:
		col, ok := columnOf(schema, x.E)
		if !ok {
			return nil, false
		}
		if x.Negate {
			return expr.NotNull(col), true
		}
		return expr.IsNull(col), true
	case *planner.Compare:
		op := x.Op
		col, ok := columnOf(schema, x.L)
		lit, okLit := literalOf(x.R)
		if !ok || !okLit {
			col, ok = columnOf(schema, x.R)
			lit, okLit = literalOf(x.L)
			op = flip(op)
		}
		if !ok || !okLit || lit == nil {
			return nil, false
		}
		switch op {
		case exec.CmpEQ:
			return expr.Eq(col, lit), true
		case exec.CmpNE:
			return expr.NotEq(col, lit), true
		case exec.CmpLT:
			return expr.Lt(col, lit), true
		case exec.CmpLE:
			return expr.LtEq(col, lit), true
		case exec.CmpGT:
			return expr.Gt(col, lit), true
		case exec.CmpGE:
			return expr.GtEq(col, lit), true
		}
	case *planner.Call:
		if !exact {
			return likePrefix(schema, x)
		}
	}
	return nil, false
}

// likePrefix converts col LIKE 'text...' (the default escape, case
// sensitive) to STARTS WITH the literal text before the pattern's first
// wildcard: every row the LIKE selects starts with it, so files and row
// groups whose bounds exclude the prefix hold none.
func likePrefix(schema *arrow.Schema, c *planner.Call) (expr.Expr, bool) {
	if c.Name != "like" || len(c.Args) != 2 {
		return nil, false
	}
	col, ok := columnOf(schema, c.Args[0])
	if !ok {
		return nil, false
	}
	lit, ok := c.Args[1].(*planner.Literal)
	if !ok {
		return nil, false
	}
	pat, ok := lit.Value.(string)
	if !ok {
		return nil, false
	}
	prefix, _, ok := planner.LikePrefix(pat, '\\')
	if !ok || prefix == "" {
		return nil, false
	}
	return expr.StartsWith(col, prefix), true
}

func flip(op exec.CmpOp) exec.CmpOp {
	switch op {
	case exec.CmpLT:
		return exec.CmpGT
	case exec.CmpLE:
		return exec.CmpGE
	case exec.CmpGT:
		return exec.CmpLT
	case exec.CmpGE:
		return exec.CmpLE
	}
	return op
}

// columnOf is the top-level column a bare column reference reads.
func columnOf(schema *arrow.Schema, e planner.Expr) (string, bool) {
	c, ok := e.(*planner.ColumnRef)
	if !ok || c.Index < 0 || c.Index >= schema.NumFields() {
		return "", false
	}
	f := schema.Field(c.Index)
	if !arrow.TypeEqual(f.Type, c.Type) {
		return "", false
	}
	return f.Name, true
}

// literalOf converts a planner literal to the Iceberg Go value form.
func literalOf(e planner.Expr) (any, bool) {
	l, ok := e.(*planner.Literal)
	if !ok {
		return nil, false
	}
	switch v := l.Value.(type) {
	case bool, int32, int64, float32, float64, string:
		return v, true
	case arrow.Date32:
		return iceberg.Date(v), true
	case arrow.Time64:
		return iceberg.Time(v), true
	case arrow.Timestamp:
		if tt, ok := l.Type.(*arrow.TimestampType); ok && tt.Unit == arrow.Nanosecond {
			return iceberg.TimestampNano(v), true
		}
		return iceberg.Timestamp(v), true
	case decimal128.Num:
		dt, ok := l.Type.(*arrow.Decimal128Type)
		if !ok {
			return nil, false
		}
		return iceberg.Decimal{Unscaled: v, Scale: int(dt.Scale)}, true
	case []byte:
		if arrowschema.IsUUID(l.Type) {
			if len(v) != 16 {
				return nil, false
			}
			return iceberg.UUID(v), true
		}
		return slices.Clone(v), true // binary and fixed: bounds compare bytes
	}
	return nil, false
}

// RowExact reports whether the Iceberg residual of filter, as the data
// file reader evaluates it row by row (vectorised or not), selects
// exactly the rows SQL selects, so that the engine need not re-apply it:
// comparisons of a column with a literal of the column's own type,
// IS [NOT] NULL, and AND/OR of those, on integer, date, microsecond
// timestamp and string columns. Floats are left out (NaN orders
// differently in SQL), as are decimals, binary, casts and NOT.
func RowExact(schema *arrow.Schema, filter planner.Expr) bool {
	switch x := filter.(type) {
	case *planner.Logic:
		return RowExact(schema, x.L) && RowExact(schema, x.R)
	case *planner.IsNull:
		_, ok := rowExactColumn(schema, x.E)
		return ok
	case *planner.Compare:
		t, ok := rowExactColumn(schema, x.L)
		l := x.R
		if !ok {
			t, ok = rowExactColumn(schema, x.R)
			l = x.L
		}
		lit, isLit := l.(*planner.Literal)
		if !ok || !isLit || lit.Value == nil || !arrow.TypeEqual(lit.Type, t) {
			return false
		}
		if _, ok := literalOf(lit); !ok {
			return false
		}
		switch x.Op {
		case exec.CmpEQ, exec.CmpNE, exec.CmpLT, exec.CmpLE, exec.CmpGT, exec.CmpGE:
			_, ok := convertFilter(schema, x, true)
			return ok
		}
	case *planner.Call:
		return likeRowExact(schema, x)
	}
	return false
}

// likeRowExact reports whether col LIKE 'text%' selects exactly the rows
// its pushed STARTS WITH keeps: the pattern is literal text and one run
// of %, which LIKE itself evaluates as the same byte prefix test.
func likeRowExact(schema *arrow.Schema, c *planner.Call) bool {
	if c.Name != "like" || len(c.Args) != 2 {
		return false
	}
	if t, ok := rowExactColumn(schema, c.Args[0]); !ok || t.ID() != arrow.STRING {
		return false
	}
	lit, ok := c.Args[1].(*planner.Literal)
	if !ok {
		return false
	}
	pat, ok := lit.Value.(string)
	if !ok {
		return false
	}
	// the same prefix likePrefix pushes: the text before the first %
	prefix, ok := planner.LikeBytePrefix(pat, '\\')
	return ok && prefix != ""
}

// rowExactColumn is the type of a bare reference to a top-level column of
// a type RowExact admits.
func rowExactColumn(schema *arrow.Schema, e planner.Expr) (arrow.DataType, bool) {
	if _, ok := columnOf(schema, e); !ok {
		return nil, false
	}
	t := e.(*planner.ColumnRef).Type
	switch t.ID() {
	case arrow.INT32, arrow.INT64, arrow.DATE32, arrow.STRING:
		return t, true
	case arrow.TIMESTAMP:
		return t, t.(*arrow.TimestampType).Unit == arrow.Microsecond
	}
	return nil, false
}
