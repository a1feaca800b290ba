package planner

import (
	"context"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// BindInsertValues binds the VALUES lists of an INSERT into a plan that
// produces rows of target (column order and types), with implicit casts.
// A column list in the statement selects and orders target columns; the
// others get NULL. Type errors are reported here; NULLs in non-nullable
// columns fail when the plan runs (exec.ErrNullViolation).
// columnTypeName names a column's type in errors: a column of Iceberg's
// unknown type (Arrow's null type) holds only NULL.
func columnTypeName(t arrow.DataType) string {
	if t.ID() == arrow.NULL {
		return "UNKNOWN (only NULL)"
	}
	return typeName(t)
}

func BindInsertValues(ctx context.Context, stmt *ast.InsertStmt, target *arrow.Schema) (Plan, error) {
	if stmt.Select != nil {
		return nil, unsupported("INSERT ... SELECT in BindInsertValues")
	}
	positions := make([]int, 0, target.NumFields())
	if len(stmt.Columns) == 0 {
		for i := range target.Fields() {
			positions = append(positions, i)
		}
	} else {
		for _, c := range stmt.Columns {
			idx := -1
			for i, f := range target.Fields() {
				if strings.EqualFold(f.Name, c.Name.O) {
					idx = i
				}
			}
			if idx < 0 {
				return nil, &UnknownColumnError{Name: c.Name.O, Suggestion: Suggest(c.Name.O, FieldNames(target))}
			}
			if slices.Contains(positions, idx) {
				return nil, &DuplicateColumnError{Name: c.Name.O}
			}
			positions = append(positions, idx)
		}
	}
	b := &binder{ctx: ctx}
	sc := &scope{}
	cols := make([]Column, target.NumFields())
	for i, f := range target.Fields() {
		cols[i] = Column{Name: f.Name, Type: f.Type, Nullable: f.Nullable}
	}
	v := &Values{Cols: cols, strictNulls: true}
	for r, list := range stmt.Lists {
		if len(list) != len(positions) {
			return nil, invalid("INSERT row %d has %d values for %d columns", r+1, len(list), len(positions))
		}
		row := make([]Expr, len(cols))
		for i, c := range cols {
			row[i] = &Literal{Type: c.Type}
		}
		for i, item := range list {
			e, err := b.bindExpr(item, sc)
			if err != nil {
				return nil, err
			}
			col := cols[positions[i]]
			if !castAllowed(e.DataType(), col.Type) && !(isNumeric(e.DataType()) && isNumeric(col.Type)) {
				return nil, &TypeMismatchError{Op: "INSERT into column " + col.Name + " of type " + columnTypeName(col.Type), Types: []string{typeName(e.DataType())}}
			}
			if l, ok := e.(*Literal); ok {
				if e, err = castTo(l, col.Type); err != nil {
					return nil, &ValueError{Column: col.Name, Type: columnTypeName(col.Type), Row: r + 1, Err: err}
				}
			} else {
				e = coerce(e, col.Type)
			}
			row[positions[i]] = e
		}
		v.Rows = append(v.Rows, row)
	}
	return v, nil
}

// FieldNames are the names of a schema's fields, for suggestions.
func FieldNames(s *arrow.Schema) []string {
	out := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		out[i] = f.Name
	}
	return out
}
