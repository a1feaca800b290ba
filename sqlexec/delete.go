package sqlexec

import (
	"context"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
)

// delete runs DELETE FROM t [WHERE filter] as a metadata-only delete:
// the filter must select whole data files (by partition values or column
// bounds). Row-level deletes are a later feature.
func (s *Session) delete(ctx context.Context, w *parser.TiDBStmt, del *ast.DeleteStmt) (Result, error) {
	if err := s.checkWritable(); err != nil {
		return Result{}, err
	}
	if del.IsMultiTable || del.Order != nil || del.Limit != nil || del.TableRefs == nil {
		return Result{}, notSupported("DELETE with several tables, ORDER BY or LIMIT")
	}
	ts, ok := del.TableRefs.TableRefs.Left.(*ast.TableSource)
	if !ok || del.TableRefs.TableRefs.Right != nil {
		return Result{}, notSupported("DELETE from a join")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return Result{}, invalidf("DELETE from a subquery")
	}
	ref := w.Refs[tn]
	if ref == nil || ref.MetadataTable != "" || ref.VersionAsOf != nil || ref.TimestampAsOf != nil || ref.Tag != "" {
		return Result{}, invalidf("cannot delete from %s", tn.Name.O)
	}
	filter := expr.True()
	if del.Where != nil {
		sel := &ast.SelectStmt{
			Kind:   ast.SelectStmtKindSelect,
			From:   del.TableRefs,
			Where:  del.Where,
			Fields: &ast.FieldList{Fields: []*ast.SelectField{{WildCard: &ast.WildCardField{}}}},
		}
		q, err := s.bindQuery(ctx, sel, w.Refs)
		if err != nil {
			return Result{}, err
		}
		f, ok := wholeFileFilter(q.plan)
		if !ok {
			return Result{}, notSupported("DELETE with this WHERE clause: only filters on columns compared with constants can be deleted without row-level deletes")
		}
		filter = f
	}
	t, err := s.loadTable(ctx, ref)
	if err != nil {
		return Result{}, err
	}
	if t.Metadata().CurrentSnapshot() == nil {
		return Result{}, nil
	}
	u := t.NewDelete().DeleteWhere(filter)
	if ref.Branch != "" {
		u = u.ToBranch(ref.Branch)
	}
	nt, err := u.Commit(ctx)
	if err != nil {
		return Result{}, err
	}
	var n int64
	if snap := nt.Metadata().CurrentSnapshot(); snap != nil {
		n, _ = strconv.ParseInt(snap.Summary["deleted-records"], 10, 64)
	}
	return Result{RowsAffected: n}, nil
}

// wholeFileFilter finds the scan of an optimized SELECT * ... WHERE plan
// and converts its pushed filters exactly; a filter left above the scan
// or not convertible gives false.
func wholeFileFilter(p planner.Plan) (expr.Expr, bool) {
	var scan *planner.Scan
	ok := true
	var walk func(p planner.Plan)
	walk = func(p planner.Plan) {
		switch n := p.(type) {
		case *planner.Filter:
			ok = false
		case *planner.Scan:
			scan = n
		}
		for _, c := range p.Children() {
			walk(c)
		}
	}
	walk(p)
	if !ok || scan == nil {
		return nil, false
	}
	it, isIceberg := scan.Table.(*icebergTable)
	if !isIceberg {
		return nil, false
	}
	return exactFilter(it.arrow, scan.Filters)
}
