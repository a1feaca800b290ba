package planner

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/icesql/icesql/sqlexec/exec"
)

// BindOptions customise binding.
type BindOptions struct {
	// TableExtra supplies TableRef.Extra for a table name in the query
	// (the parser layer's time-travel / branch / metadata-table info).
	TableExtra func(*ast.TableName) any
}

// Bind turns a SELECT or set-operation statement into a logical plan.
func Bind(ctx context.Context, cat Catalog, stmt ast.Node, opts BindOptions) (Plan, error) {
	b := &binder{ctx: ctx, cat: cat, opts: opts}
	rs, ok := stmt.(ast.ResultSetNode)
	if !ok {
		return nil, unsupported("statement %T", stmt)
	}
	p, err := b.bindResultSet(rs, nil, nil)
	if err != nil {
		return nil, err
	}
	if err := CheckVariantUse(p); err != nil {
		return nil, err
	}
	if err := CheckGeoUse(p); err != nil {
		return nil, err
	}
	return p, nil
}

type binder struct {
	ctx  context.Context
	cat  Catalog
	opts BindOptions
	ctes []map[string]*cteEntry
	// exprNodes counts bound expression nodes so that binding a huge
	// expression notices cancellation.
	exprNodes int
	// depth is bindExpr's recursion depth (ErrTooDeep past MaxExprDepth).
	depth int
}

func (b *binder) bindResultSet(n ast.ResultSetNode, outer *scope, sub *subqueryBase) (Plan, error) {
	switch x := n.(type) {
	case *ast.SelectStmt:
		return b.bindSelect(x, outer, sub)
	case *ast.SetOprStmt:
		return b.bindSetOpr(x, outer, sub)
	}
	return nil, unsupported("query %T", n)
}

func (b *binder) bindSubqueryPlan(q ast.ResultSetNode, outer *scope) (*subqueryBase, error) {
	base := &subqueryBase{}
	p, err := b.bindResultSet(q, outer, base)
	if err != nil {
		return nil, err
	}
	base.Plan = p
	return base, nil
}

func (b *binder) bindScalarSubquery(x *ast.SubqueryExpr, sc *scope) (Expr, error) {
	base, err := b.bindSubqueryPlan(x.Query, sc)
	if err != nil {
		return nil, err
	}
	cols := base.Plan.Columns()
	if len(cols) != 1 {
		return nil, invalid("scalar subquery returns %d columns, want 1", len(cols))
	}
	return &ScalarSubquery{subqueryBase: *base, Type: cols[0].Type}, nil
}

func (b *binder) pushCTEs(w *ast.WithClause, outer *scope) error {
	m := map[string]*cteEntry{}
	b.ctes = append(b.ctes, m)
	if w == nil {
		return nil
	}
	for _, cte := range w.CTEs {
		name := strings.ToLower(cte.Name.O)
		if _, dup := m[name]; dup {
			return invalid("WITH query name %s is specified more than once", cte.Name.O)
		}
		var p Plan
		var err error
		if w.IsRecursive {
			p, err = b.bindRecursiveCTE(cte, m)
		} else if p, err = b.bindResultSet(cte.Query.Query, nil, nil); err == nil {
			p, err = nameCTEColumns(cte, p)
		}
		if err != nil {
			return err
		}
		m[name] = &cteEntry{plan: p}
	}
	return nil
}

// nameCTEColumns applies a CTE's column list, if any, to its query's plan.
func nameCTEColumns(cte *ast.CommonTableExpression, p Plan) (Plan, error) {
	if len(cte.ColNameList) == 0 {
		return p, nil
	}
	cols := p.Columns()
	if len(cte.ColNameList) != len(cols) {
		return nil, invalid("WITH %s names %d columns but its query has %d", cte.Name.O, len(cte.ColNameList), len(cols))
	}
	names := make([]string, len(cols))
	for i, c := range cte.ColNameList {
		names[i] = c.O
	}
	return renameColumns(p, "", names), nil
}

func (b *binder) popCTEs() { b.ctes = b.ctes[:len(b.ctes)-1] }

func (b *binder) lookupCTE(name string) (Plan, bool) {
	for i := len(b.ctes) - 1; i >= 0; i-- {
		if e, ok := b.ctes[i][strings.ToLower(name)]; ok {
			if e.self != nil {
				e.self.refs++
				return &WorkTableScan{Work: e.self.work}, true
			}
			return e.plan, true
		}
	}
	return nil, false
}

// renameColumns wraps p so its columns have a new qualifier (and names).
func renameColumns(p Plan, qual string, names []string) Plan {
	cols := p.Columns()
	exprs := make([]Expr, len(cols))
	out := make([]Column, len(cols))
	for i, c := range cols {
		exprs[i] = &ColumnRef{Index: i, Name: c.Name, Type: c.Type}
		out[i] = c
		out[i].Qualifier = qual
		if names != nil {
			out[i].Name = names[i]
		}
	}
	return &Project{Input: p, Exprs: exprs, Cols: out}
}

// selectItem is one output column of a SELECT before projection.
type selectItem struct {
	ast  ast.ExprNode
	name string
}

func (b *binder) bindSelect(s *ast.SelectStmt, outer *scope, sub *subqueryBase) (Plan, error) {
	s, err := liftGenerator(s)
	if err != nil {
		return nil, err
	}
	if err := b.pushCTEs(s.With, outer); err != nil {
		b.popCTEs()
		return nil, err
	}
	defer b.popCTEs()
	if s.Kind == ast.SelectStmtKindValues {
		return nil, unsupported("VALUES as a query")
	}
	var input Plan = &Values{Rows: [][]Expr{{}}}
	if s.From != nil {
		p, err := b.bindFrom(s.From.TableRefs, outer, sub)
		if err != nil {
			return nil, err
		}
		input = p
	}
	sc := &scope{cols: input.Columns(), outer: outer, sub: sub}
	if s.Where != nil {
		if containsAggregate(s.Where) {
			return nil, invalid("aggregate functions are not allowed in WHERE")
		}
		pred, err := b.bindExpr(s.Where, sc)
		if err != nil {
			return nil, err
		}
		if pred, err = coerceBool(pred, "WHERE"); err != nil {
			return nil, err
		}
		input = &Filter{Input: input, Pred: pred}
	}
	items, err := expandFields(s.Fields.Fields, sc)
	if err != nil {
		return nil, err
	}
	hasAgg := s.GroupBy != nil || s.Having != nil
	for _, it := range items {
		hasAgg = hasAgg || containsAggregate(it.ast)
	}
	var order []orderItem
	if s.OrderBy != nil {
		if order, err = orderItems(s.OrderBy.Items); err != nil {
			return nil, err
		}
		for _, o := range order {
			hasAgg = hasAgg || containsAggregate(o.expr)
		}
	}
	post := sc // the scope select-list expressions bind in
	var ac *aggCtx
	if hasAgg {
		ac = &aggCtx{input: sc}
		if s.GroupBy != nil {
			for _, g := range s.GroupBy.Items {
				gx, err := groupByExpr(g.Expr, items, sc)
				if err != nil {
					return nil, err
				}
				if containsAggregate(gx) {
					return nil, invalid("aggregate functions are not allowed in GROUP BY")
				}
				e, err := b.bindExpr(gx, sc)
				if err != nil {
					return nil, err
				}
				ac.groups = append(ac.groups, e)
				ac.groupTexts = append(ac.groupTexts, restore(gx))
				raw, _ := restoreRaw(gx, -1)
				ac.groupRawMax = max(ac.groupRawMax, len(raw))
			}
		}
		post = &scope{cols: nil, outer: outer, sub: sub, agg: ac}
	}
	wc, err := newWinCtx(s.WindowSpecs)
	if err != nil {
		return nil, err
	}
	winPost := *post
	winPost.win = wc
	exprs := make([]Expr, len(items))
	for i, it := range items {
		if exprs[i], err = b.bindExpr(it.ast, &winPost); err != nil {
			return nil, err
		}
	}
	var having Expr
	if s.Having != nil {
		hsc := *post
		hsc.aliases = items
		if having, err = b.bindExpr(s.Having.Expr, &hsc); err != nil {
			return nil, err
		}
		if having, err = coerceBool(having, "HAVING"); err != nil {
			return nil, err
		}
	}
	// ORDER BY keys: references to select items, or extra hidden columns.
	var keys []SortKey
	hidden := 0
	for _, o := range order {
		idx, err := orderByItem(o.expr, items)
		if err != nil {
			return nil, err
		}
		if idx < 0 {
			e, err := b.bindExpr(o.expr, &winPost)
			if err != nil {
				return nil, err
			}
			idx = len(exprs)
			exprs = append(exprs, e)
			items = append(items, selectItem{ast: o.expr, name: restore(o.expr)})
			hidden++
		}
		keys = append(keys, SortKey{Expr: &ColumnRef{Index: idx, Name: items[idx].name, Type: exprs[idx].DataType()}, Desc: o.desc, NullsFirst: o.nullsFirst})
	}
	if ac != nil {
		cols := make([]Column, 0, len(ac.groups)+len(ac.aggs))
		for i, g := range ac.groups {
			cols = append(cols, Column{Name: ac.groupTexts[i], Type: g.DataType(), Nullable: true})
		}
		for i, a := range ac.aggs {
			cols = append(cols, Column{Name: ac.aggTexts[i], Type: a.Type, Nullable: a.Func != exec.AggCount && a.Func != exec.AggCountStar})
		}
		input = &Aggregate{Input: input, Groups: ac.groups, Aggs: ac.aggs, Cols: cols}
		if having != nil {
			input = &Filter{Input: input, Pred: having}
		}
	}
	if len(wc.groups) > 0 {
		input = wc.place(input)
		for i, e := range exprs {
			exprs[i] = resolveWinRefs(e)
		}
		for i, k := range keys {
			keys[i].Expr = resolveWinRefs(k.Expr)
		}
	}
	cols := make([]Column, len(exprs))
	inCols := input.Columns()
	for i, e := range exprs {
		cols[i] = Column{Name: items[i].name, Type: e.DataType(), Nullable: mayBeNull(e, inCols)}
	}
	var p Plan = &Project{Input: input, Exprs: exprs, Cols: cols}
	if s.Distinct {
		if hidden > 0 {
			return nil, invalid("with SELECT DISTINCT, ORDER BY expressions must appear in the select list")
		}
		p = &Distinct{Input: p}
	}
	if len(keys) > 0 {
		p = &Sort{Input: p, Keys: keys}
	}
	if p, err = bindLimit(p, s.Limit); err != nil {
		return nil, err
	}
	if hidden > 0 {
		n := len(exprs) - hidden
		refs := make([]Expr, n)
		for i := range refs {
			refs[i] = &ColumnRef{Index: i, Name: cols[i].Name, Type: cols[i].Type}
		}
		p = &Project{Input: p, Exprs: refs, Cols: cols[:n]}
	}
	return p, nil
}

func expandFields(fields []*ast.SelectField, sc *scope) ([]selectItem, error) {
	var items []selectItem
	for _, f := range fields {
		if f.WildCard != nil {
			qual := f.WildCard.Table.O
			n := 0
			for _, c := range sc.cols {
				if qual == "" && c.Qualifier == liftedGeneratorQualifier {
					continue
				}
				if qual != "" && !strings.EqualFold(qual, c.Qualifier) {
					continue
				}
				items = append(items, selectItem{name: c.Name, ast: &ast.ColumnNameExpr{Name: &ast.ColumnName{
					Table: ast.NewCIStr(c.Qualifier), Name: ast.NewCIStr(c.Name)}}})
				n++
			}
			if qual != "" && n == 0 {
				return nil, &UnknownTableError{Name: qual}
			}
			continue
		}
		name := f.AsName.O
		if name == "" {
			if c, ok := f.Expr.(*ast.ColumnNameExpr); ok {
				name = c.Name.Name.O
			} else {
				name = fieldName(f.Expr)
			}
		}
		items = append(items, selectItem{ast: f.Expr, name: name})
	}
	return items, nil
}

// positionOf returns the 1-based position literal n denotes, or 0.
func positionOf(n ast.ExprNode) int64 {
	switch v := n.(type) {
	case *ast.PositionExpr:
		if v.P == nil {
			return int64(v.N)
		}
	case *driver.ValueExpr:
		if v.Kind() == driver.KindInt64 {
			return v.GetInt64()
		}
	}
	return 0
}

// groupByExpr resolves GROUP BY positions and aliases to select items.
func groupByExpr(g ast.ExprNode, items []selectItem, sc *scope) (ast.ExprNode, error) {
	if pos := positionOf(g); pos != 0 {
		if pos < 1 || int(pos) > len(items) {
			return nil, invalid("GROUP BY position %d is not in the select list", pos)
		}
		return items[pos-1].ast, nil
	}
	if c, ok := g.(*ast.ColumnNameExpr); ok && c.Name.Table.O == "" {
		if _, err := sc.resolve("", c.Name.Name.O); err != nil {
			for _, it := range items {
				if strings.EqualFold(it.name, c.Name.Name.O) {
					return it.ast, nil
				}
			}
		}
	}
	return g, nil
}

// orderByItem finds the select item an ORDER BY expression denotes (-1: none).
func orderByItem(o ast.ExprNode, items []selectItem) (int, error) {
	if pos := positionOf(o); pos != 0 {
		if pos < 1 || int(pos) > len(items) {
			return 0, invalid("ORDER BY position %d is not in the select list", pos)
		}
		return int(pos - 1), nil
	}
	if c, ok := o.(*ast.ColumnNameExpr); ok && c.Name.Table.O == "" {
		for i, it := range items {
			if strings.EqualFold(it.name, c.Name.Name.O) {
				return i, nil
			}
		}
	}
	text := restore(o)
	for i, it := range items {
		if restore(it.ast) == text {
			return i, nil
		}
	}
	return -1, nil
}

func bindLimit(p Plan, l *ast.Limit) (Plan, error) {
	if l == nil {
		return p, nil
	}
	count, offset := int64(-1), int64(0)
	if l.Count != nil {
		v, ok := l.Count.(*driver.ValueExpr)
		if !ok || (v.Kind() != driver.KindInt64 && v.Kind() != driver.KindUint64) {
			return nil, invalid("LIMIT must be an integer literal")
		}
		count = int64(v.GetUint64())
	}
	if l.Offset != nil {
		v, ok := l.Offset.(*driver.ValueExpr)
		if !ok || (v.Kind() != driver.KindInt64 && v.Kind() != driver.KindUint64) {
			return nil, invalid("OFFSET must be an integer literal")
		}
		offset = int64(v.GetUint64())
	}
	return &Limit{Input: p, Offset: offset, Count: count}, nil
}

// mayBeNull is false for an expression that is never NULL: a reference to
// a non-nullable input column (a NOT NULL table column not on the outer
// side of a join) or a non-NULL literal. database/sql reports it through
// ColumnType.Nullable.
func mayBeNull(e Expr, in []Column) bool {
	switch x := e.(type) {
	case *ColumnRef:
		return x.Index >= len(in) || in[x.Index].Nullable
	case *Literal:
		return x.Value == nil
	}
	return true
}

// maxFieldName bounds a column named by its expression's text: a longer
// text is cut there and ends in "...". Without a bound, nested scalar
// subqueries named each level by all the levels below it (quadratic time
// and memory).
const maxFieldName = 1024

func fieldName(e ast.ExprNode) string {
	if _, ok := e.(*ast.SubqueryExpr); ok {
		// Spark's name for a scalar subquery column; its text would be
		// rendered again at every level of nested subqueries.
		return "scalarsubquery()"
	}
	s, complete := restoreUpTo(e, maxFieldName)
	if complete {
		return s
	}
	return strings.ToValidUTF8(s, "") + "..."
}
