package dml

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
	"github.com/icesql/icesql/sqlexec/pushdown"
)

// singleTarget is the table of a one-table DELETE or UPDATE.
func singleTarget(refs *ast.TableRefsClause, stmtRefs parser.RefMap) (*ast.TableSource, *ast.TableName, *parser.TableRef, error) {
	if refs == nil || refs.TableRefs == nil || refs.TableRefs.Right != nil {
		return nil, nil, nil, unsupported("several tables or a join")
	}
	ts, ok := refs.TableRefs.Left.(*ast.TableSource)
	if !ok {
		return nil, nil, nil, unsupported("a join")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, nil, nil, invalidf("a subquery is not a table")
	}
	ref := stmtRefs[tn]
	if ref == nil {
		ref = &parser.TableRef{Parts: []string{tn.Name.O}, Table: tn.Name.O}
		if tn.Schema.O != "" {
			ref.Namespace = strings.Split(tn.Schema.O, ".")
			ref.Parts = append(append([]string(nil), ref.Namespace...), tn.Name.O)
		}
	}
	if err := checkTargetRef(ref); err != nil {
		return nil, nil, nil, err
	}
	return ts, tn, ref, nil
}

// bindRowQuery binds and optimizes sel, casting the value columns.
func (r *Runner) bindRowQuery(ctx context.Context, tt *targetTable, sel *ast.SelectStmt, b *selectBuilder,
	opts planner.BindOptions, fullJoin bool) (planner.Plan, error) {
	sel.Fields = &ast.FieldList{Fields: b.fields}
	p, err := planner.Bind(ctx, &catalog{target: tt, rest: r.Catalog}, sel, opts)
	if err != nil {
		return nil, err
	}
	if fullJoin && !makeFullJoin(p, tt) {
		return nil, unsupported("MERGE with both NOT MATCHED and NOT MATCHED BY SOURCE clauses in this form")
	}
	return planner.Optimize(castOutputs(p, b.casts))
}

// deleteQuery is the query of DELETE FROM t WHERE cond: the identity of
// every row to delete.
func (r *Runner) deleteQuery(ctx context.Context, tt *targetTable, del *ast.DeleteStmt, tn *ast.TableName, refs parser.RefMap) (*rowQuery, error) {
	b := &selectBuilder{}
	fileCol := b.add(colExpr("", FileColumn))
	posCol := b.add(colExpr("", PosColumn))
	sel := &ast.SelectStmt{Kind: ast.SelectStmtKindSelect, From: del.TableRefs, Where: del.Where}
	p, err := r.bindRowQuery(ctx, tt, sel, b, bindOptions(tn, refs), false)
	if err != nil {
		return nil, err
	}
	return &rowQuery{plan: p, fileCol: fileCol, posCol: posCol, srcCol: -1,
		clauses: []clause{{match: parser.Matched, action: parser.MergeDelete, condCol: -1}}}, nil
}

// updateQuery is the query of UPDATE t SET ... WHERE cond: the identity
// and new version of every row to update.
func (r *Runner) updateQuery(ctx context.Context, tt *targetTable, upd *ast.UpdateStmt, tn *ast.TableName, refs parser.RefMap) (*rowQuery, error) {
	set := make([]ast.ExprNode, tt.cols.NumFields())
	for _, a := range upd.List {
		i := columnIndex(tt.cols, a.Column.Name.O)
		if i < 0 {
			return nil, &planner.UnknownColumnError{Qualifier: a.Column.Table.O, Name: a.Column.Name.O}
		}
		if set[i] != nil {
			return nil, invalidf("column %q assigned twice", a.Column.Name.O)
		}
		if a.Expr == nil {
			return nil, unsupported("SET without a value")
		}
		set[i] = a.Expr
	}
	b := &selectBuilder{}
	fileCol := b.add(colExpr("", FileColumn))
	posCol := b.add(colExpr("", PosColumn))
	vals := make([]int, tt.cols.NumFields())
	for i, f := range tt.cols.Fields() {
		e := set[i]
		if e == nil {
			e = colExpr("", f.Name)
		}
		vals[i] = b.addValue(e, f.Type)
	}
	sel := &ast.SelectStmt{Kind: ast.SelectStmtKindSelect, From: upd.TableRefs, Where: upd.Where}
	p, err := r.bindRowQuery(ctx, tt, sel, b, bindOptions(tn, refs), false)
	if err != nil {
		return nil, err
	}
	return &rowQuery{plan: p, fileCol: fileCol, posCol: posCol, srcCol: -1,
		clauses: []clause{{match: parser.Matched, action: parser.MergeUpdate, condCol: -1, valCols: vals}}}, nil
}

// conflictFilter is a superset, as an Iceberg expression, of the target
// rows a statement's query reads: the filters pushed into its scan.
func conflictFilter(p planner.Plan, tt *targetTable) expr.Expr {
	if s := findTargetScan(p, tt); s != nil {
		if f := pushdown.Pruning(tt.cols, s.Filters); f != nil {
			return f
		}
	}
	return expr.True()
}
