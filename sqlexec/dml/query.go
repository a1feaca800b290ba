package dml

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

// clause is one action over the statement query's rows. DELETE and UPDATE
// are one unconditional MATCHED clause.
type clause struct {
	match   parser.MergeMatch
	action  parser.MergeActionKind // MergeDelete, MergeUpdate or MergeInsert
	condCol int                    // -1: no condition
	valCols []int                  // new row, one per table column (update, insert)
}

// rowQuery is a statement's query: its output holds the target row
// identity (null when no target row), the source presence flag (MERGE)
// and each clause's condition and new values, cast to the table's types.
type rowQuery struct {
	plan    planner.Plan
	fileCol int
	posCol  int
	srcCol  int // -1: no source (DELETE, UPDATE)
	clauses []clause
}

// selectBuilder accumulates the output columns of a statement's query.
type selectBuilder struct {
	fields []*ast.SelectField
	casts  map[int]arrow.DataType // output index -> table column type
}

func (b *selectBuilder) add(e ast.ExprNode) int {
	b.fields = append(b.fields, &ast.SelectField{Expr: e})
	return len(b.fields) - 1
}

func (b *selectBuilder) addValue(e ast.ExprNode, to arrow.DataType) int {
	i := b.add(e)
	if b.casts == nil {
		b.casts = map[int]arrow.DataType{}
	}
	b.casts[i] = to
	return i
}

func colExpr(qualifier, name string) *ast.ColumnNameExpr {
	c := &ast.ColumnName{Name: ast.NewCIStr(name)}
	if qualifier != "" {
		c.Table = ast.NewCIStr(qualifier)
	}
	return &ast.ColumnNameExpr{Name: c}
}

func nullExpr() ast.ExprNode { return ast.NewValueExpr(nil, "", "") }

// castOutputs projects p's columns, casting the value columns to the
// table's types by SQL's store-assignment rules.
func castOutputs(p planner.Plan, casts map[int]arrow.DataType) planner.Plan {
	in := p.Columns()
	exprs := make([]planner.Expr, len(in))
	cols := make([]planner.Column, len(in))
	for i, c := range in {
		var e planner.Expr = &planner.ColumnRef{Index: i, Name: c.Name, Type: c.Type}
		cols[i] = c
		if to, ok := casts[i]; ok {
			if !arrow.TypeEqual(c.Type, to) && isPrimitive(to) {
				e = &planner.Cast{E: e, To: to}
			}
			cols[i].Type = to
		}
		exprs[i] = e
	}
	return &planner.Project{Input: p, Exprs: exprs, Cols: cols}
}

func isPrimitive(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.STRUCT, arrow.MAP:
		return false
	}
	return true
}

// columnIndex finds a table column by name, case-insensitively.
func columnIndex(s *arrow.Schema, name string) int {
	for i, f := range s.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// conjuncts splits an expression on AND.
func conjuncts(e ast.ExprNode) []ast.ExprNode {
	switch x := e.(type) {
	case *ast.BinaryOperationExpr:
		if x.Op == opcode.LogicAnd {
			return append(conjuncts(x.L), conjuncts(x.R)...)
		}
	case *ast.ParenthesesExpr:
		return conjuncts(x.Expr)
	}
	return []ast.ExprNode{e}
}

// findTargetScan is the scan of the target in an optimized plan.
func findTargetScan(p planner.Plan, tt *targetTable) *planner.Scan {
	if s, ok := p.(*planner.Scan); ok && s.Table == planner.Table(tt) {
		return s
	}
	for _, c := range p.Children() {
		if s := findTargetScan(c, tt); s != nil {
			return s
		}
	}
	return nil
}

// hasFilterAbove reports whether a Filter node remains in the plan (a
// predicate not pushed into the scan).
func hasFilterAbove(p planner.Plan) bool {
	if _, ok := p.(*planner.Filter); ok {
		return true
	}
	for _, c := range p.Children() {
		if hasFilterAbove(c) {
			return true
		}
	}
	return false
}

// makeFullJoin turns the join of the target (left) and the source (right)
// into a full outer join; the binder has no FULL JOIN syntax.
func makeFullJoin(p planner.Plan, tt *targetTable) bool {
	var found *planner.Join
	var walk func(p planner.Plan)
	walk = func(p planner.Plan) {
		if j, ok := p.(*planner.Join); ok && findTargetScan(j.Left, tt) != nil && findTargetScan(j.Right, tt) == nil {
			found = j
		}
		for _, c := range p.Children() {
			walk(c)
		}
	}
	walk(p)
	if found == nil || found.Type != exec.JoinLeft {
		return false
	}
	found.Type = exec.JoinFull
	markNullable(p, found)
	return true
}

// markNullable makes every projected column above the join nullable.
func markNullable(p planner.Plan, j *planner.Join) {
	if p == planner.Plan(j) {
		return
	}
	if pr, ok := p.(*planner.Project); ok {
		for i := range pr.Cols {
			pr.Cols[i].Nullable = true
		}
	}
	for _, c := range p.Children() {
		markNullable(c, j)
	}
}
