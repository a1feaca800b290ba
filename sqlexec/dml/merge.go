package dml

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
	"github.com/icesql/icesql/sqlexec/pushdown"
)

// srcColumn flags joined rows that have a source row.
const srcColumn = "__dml_src"

// mergeShape is the parts of a MERGE the query is built from.
type mergeShape struct {
	targetName  *ast.TableName
	targetAlias string
	sourceAlias string
	from        *ast.TableRefsClause
	opts        planner.BindOptions
	fullJoin    bool
}

// shapeMerge builds the join of target and source that the MERGE's
// clauses need: inner for MATCHED only, target-preserving for NOT MATCHED
// BY SOURCE, source-preserving for NOT MATCHED, full for both.
func shapeMerge(st *parser.MergeStmt) (*mergeShape, error) {
	if err := checkTargetRef(st.Target); err != nil {
		return nil, err
	}
	if st.On == nil || st.On.Node == nil {
		return nil, invalidf("MERGE without an ON condition")
	}
	var hasNM, hasNMBS bool
	for _, c := range st.Clauses {
		switch c.Match {
		case parser.NotMatched:
			hasNM = true
		case parser.NotMatchedBySource:
			hasNMBS = true
		}
	}
	refs := parser.RefMap{}
	for k, v := range st.Refs {
		refs[k] = v
	}
	ms := &mergeShape{targetAlias: st.TargetAlias}
	if ms.targetAlias == "" {
		ms.targetAlias = st.Target.Table
	}
	ms.targetName = &ast.TableName{Name: ast.NewCIStr(st.Target.Table)}
	var src ast.ResultSetNode
	switch {
	case st.SourceTable != nil:
		tn := &ast.TableName{Name: ast.NewCIStr(st.SourceTable.Table)}
		refs[tn] = st.SourceTable
		src = tn
		ms.sourceAlias = st.SourceTable.Table
	case st.SourceQuery != nil:
		src = st.SourceQuery.Node
		ms.sourceAlias = "source"
	default:
		return nil, invalidf("MERGE without a source")
	}
	if st.SourceAlias != "" {
		ms.sourceAlias = st.SourceAlias
	}
	// The source with a constant column that is null only on rows the
	// join adds for unmatched target rows.
	inner := &ast.SelectStmt{Kind: ast.SelectStmtKindSelect,
		Fields: &ast.FieldList{Fields: []*ast.SelectField{
			{WildCard: &ast.WildCardField{}},
			{Expr: ast.NewValueExpr(int64(1), "", ""), AsName: ast.NewCIStr(srcColumn)},
		}},
		From: &ast.TableRefsClause{TableRefs: &ast.Join{Left: &ast.TableSource{Source: src, AsName: ast.NewCIStr(ms.sourceAlias)}}},
	}
	join := &ast.Join{
		Left:  &ast.TableSource{Source: ms.targetName, AsName: ast.NewCIStr(ms.targetAlias)},
		Right: &ast.TableSource{Source: inner, AsName: ast.NewCIStr(ms.sourceAlias)},
		On:    &ast.OnCondition{Expr: st.On.Node},
		Tp:    ast.CrossJoin,
	}
	switch {
	case hasNM && hasNMBS:
		join.Tp, ms.fullJoin = ast.LeftJoin, true
	case hasNMBS:
		join.Tp = ast.LeftJoin
	case hasNM:
		join.Tp = ast.RightJoin
	}
	ms.from = &ast.TableRefsClause{TableRefs: join}
	ms.opts = bindOptions(ms.targetName, refs)
	return ms, nil
}

// mergeQuery is the query of a MERGE: for every joined row the target
// identity, the source flag and each clause's condition and values.
func (r *Runner) mergeQuery(ctx context.Context, tt *targetTable, st *parser.MergeStmt, ms *mergeShape) (*rowQuery, error) {
	b := &selectBuilder{}
	q := &rowQuery{}
	q.fileCol = b.add(colExpr(ms.targetAlias, FileColumn))
	q.posCol = b.add(colExpr(ms.targetAlias, PosColumn))
	q.srcCol = b.add(colExpr(ms.sourceAlias, srcColumn))
	n := tt.cols.NumFields()
	for _, c := range st.Clauses {
		cl := clause{match: c.Match, condCol: -1}
		if c.Cond != nil {
			cl.condCol = b.add(c.Cond.Node)
		}
		vals := make([]ast.ExprNode, n)
		switch c.Action {
		case parser.MergeDelete:
			cl.action = parser.MergeDelete
		case parser.MergeUpdate:
			cl.action = parser.MergeUpdate
			for _, a := range c.Set {
				if len(a.Column) == 0 {
					return nil, invalidf("empty SET column")
				}
				name := a.Column[len(a.Column)-1]
				i := columnIndex(tt.cols, name)
				if i < 0 {
					return nil, &planner.UnknownColumnError{Name: name}
				}
				if vals[i] != nil {
					return nil, invalidf("column %q assigned twice", name)
				}
				vals[i] = a.Value.Node
			}
			for i, f := range tt.cols.Fields() {
				if vals[i] == nil {
					vals[i] = colExpr(ms.targetAlias, f.Name)
				}
			}
		case parser.MergeUpdateStar, parser.MergeInsertStar:
			cl.action = parser.MergeUpdate
			if c.Action == parser.MergeInsertStar {
				cl.action = parser.MergeInsert
			}
			for i, f := range tt.cols.Fields() {
				vals[i] = colExpr(ms.sourceAlias, f.Name)
			}
		case parser.MergeInsert:
			cl.action = parser.MergeInsert
			if len(c.InsertColumns) == 0 {
				if len(c.InsertValues) != n {
					return nil, invalidf("INSERT gives %d values, the table has %d columns", len(c.InsertValues), n)
				}
				for i, v := range c.InsertValues {
					vals[i] = v.Node
				}
			} else {
				if len(c.InsertValues) != len(c.InsertColumns) {
					return nil, invalidf("INSERT names %d columns and gives %d values", len(c.InsertColumns), len(c.InsertValues))
				}
				for j, name := range c.InsertColumns {
					i := columnIndex(tt.cols, name)
					if i < 0 {
						return nil, &planner.UnknownColumnError{Name: name}
					}
					if vals[i] != nil {
						return nil, invalidf("column %q named twice", name)
					}
					vals[i] = c.InsertValues[j].Node
				}
				for i := range vals {
					if vals[i] == nil {
						vals[i] = nullExpr()
					}
				}
			}
		default:
			return nil, unsupported("MERGE action %d", c.Action)
		}
		if cl.action != parser.MergeDelete {
			cl.valCols = make([]int, n)
			for i, f := range tt.cols.Fields() {
				cl.valCols[i] = b.addValue(vals[i], f.Type)
			}
		}
		q.clauses = append(q.clauses, cl)
	}
	sel := &ast.SelectStmt{Kind: ast.SelectStmtKindSelect, From: ms.from}
	p, err := r.bindRowQuery(ctx, tt, sel, b, ms.opts, ms.fullJoin)
	if err != nil {
		return nil, err
	}
	q.plan = p
	return q, nil
}

// mergeConflictFilter is the conflict filter of a MERGE: the conjuncts of
// ON that read only the target, as Spark derives it.
func (r *Runner) mergeConflictFilter(ctx context.Context, tt *targetTable, st *parser.MergeStmt, ms *mergeShape) expr.Expr {
	var parts []expr.Expr
	for _, c := range conjuncts(st.On.Node) {
		b := &selectBuilder{}
		b.add(colExpr(ms.targetAlias, PosColumn))
		sel := &ast.SelectStmt{Kind: ast.SelectStmtKindSelect, Where: c,
			From: &ast.TableRefsClause{TableRefs: &ast.Join{Left: &ast.TableSource{Source: ms.targetName, AsName: ast.NewCIStr(ms.targetAlias)}}}}
		p, err := r.bindRowQuery(ctx, tt, sel, b, ms.opts, false)
		if err != nil {
			continue // reads the source, or cannot bind alone
		}
		if s := findTargetScan(p, tt); s != nil {
			if f := pushdown.Pruning(tt.cols, s.Filters); f != nil {
				parts = append(parts, f)
			}
		}
	}
	if len(parts) == 0 {
		return expr.True()
	}
	return expr.And(parts...)
}
