package planner

import (
	"errors"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/exec"
)

func (b *binder) bindFrom(n ast.ResultSetNode, outer *scope, sub *subqueryBase) (Plan, error) {
	switch x := n.(type) {
	case *ast.Join:
		return b.bindJoin(x, outer, sub)
	case *ast.TableSource:
		return b.bindTableSource(x)
	}
	return nil, unsupported("FROM item %T", n)
}

func (b *binder) bindTableSource(ts *ast.TableSource) (Plan, error) {
	alias := ts.AsName.O
	switch src := ts.Source.(type) {
	case *ast.TableName:
		if alias == "" {
			alias = src.Name.O
		}
		if src.Schema.O == "" {
			if p, ok := b.lookupCTE(src.Name.O); ok {
				return renameColumns(p, alias, nil), nil
			}
		}
		ref := TableRef{Name: src.Name.O}
		if src.Schema.O != "" {
			ref.Namespace = strings.Split(src.Schema.O, ".")
		}
		if b.opts.TableExtra != nil {
			ref.Extra = b.opts.TableExtra(src)
		}
		t, err := b.cat.ResolveTable(b.ctx, ref)
		if err != nil {
			if errors.Is(err, ErrUnknownTable) {
				if v, verr := b.resolveView(ref); verr != nil || v != nil {
					if verr != nil {
						return nil, verr
					}
					return b.bindView(v, alias)
				}
			}
			return nil, err
		}
		cols := make([]int, t.Schema().NumFields())
		for i := range cols {
			cols[i] = i
		}
		return &Scan{Table: t, Alias: alias, Cols: cols, Limit: -1}, nil
	case *ast.SelectStmt, *ast.SetOprStmt:
		p, err := b.bindResultSet(src.(ast.ResultSetNode), nil, nil)
		if err != nil {
			return nil, err
		}
		return renameColumns(p, alias, nil), nil
	}
	return nil, unsupported("table source %T", ts.Source)
}

func (b *binder) bindJoin(j *ast.Join, outer *scope, sub *subqueryBase) (Plan, error) {
	if p, ok, err := b.bindLateralJoin(j, outer, sub); ok {
		return p, err
	}
	left, err := b.bindFrom(j.Left, outer, sub)
	if err != nil {
		return nil, err
	}
	if j.Right == nil {
		return left, nil
	}
	right, err := b.bindFrom(j.Right, outer, sub)
	if err != nil {
		return nil, err
	}
	jt := exec.JoinInner
	switch j.Tp {
	case ast.LeftJoin:
		jt = exec.JoinLeft
	case ast.RightJoin:
		jt = exec.JoinRight
	}
	if j.StraightJoin {
		// the SQL front end writes FULL [OUTER] JOIN as STRAIGHT_JOIN
		jt = exec.JoinFull
	}
	lc, rc := left.Columns(), right.Columns()
	all := append(append([]Column{}, lc...), rc...)
	sc := &scope{cols: all, outer: outer, sub: sub}
	node := &Join{Left: left, Right: right, Type: jt}
	if j.NaturalJoin {
		using := naturalColumns(lc, rc)
		if len(using) == 0 {
			return node, nil
		}
		return b.bindUsing(node, using)
	}
	if len(j.Using) > 0 {
		return b.bindUsing(node, j.Using)
	}
	if j.On != nil {
		cond, err := b.bindExpr(j.On.Expr, sc)
		if err != nil {
			return nil, err
		}
		if cond, err = coerceBool(cond, "ON"); err != nil {
			return nil, err
		}
		splitJoinCondition(node, cond, len(lc))
	}
	return node, nil
}

// splitJoinCondition moves equalities between the two sides into keys.
func splitJoinCondition(j *Join, cond Expr, nLeft int) {
	var rest []Expr
	for _, c := range splitConjuncts(cond) {
		if cmp, ok := c.(*Compare); ok && cmp.Op == exec.CmpEQ {
			ls, rs := side(cmp.L, nLeft), side(cmp.R, nLeft)
			if ls == sideLeft && rs == sideRight {
				j.LeftKeys = append(j.LeftKeys, cmp.L)
				j.RightKeys = append(j.RightKeys, shiftColumns(cmp.R, -nLeft))
				continue
			}
			if ls == sideRight && rs == sideLeft {
				j.LeftKeys = append(j.LeftKeys, cmp.R)
				j.RightKeys = append(j.RightKeys, shiftColumns(cmp.L, -nLeft))
				continue
			}
		}
		rest = append(rest, c)
	}
	j.Residual = conjoin(rest)
}

const (
	sideNone = iota
	sideLeft
	sideRight
	sideBoth
)

// side tells which join input an expression reads (subqueries count as both).
func side(e Expr, nLeft int) int {
	s := sideNone
	walkExpr(e, func(x Expr) {
		switch c := x.(type) {
		case *ColumnRef:
			cs := sideLeft
			if c.Index >= nLeft {
				cs = sideRight
			}
			if s == sideNone {
				s = cs
			} else if s != cs {
				s = sideBoth
			}
		case subqueryExpr:
			s = sideBoth
		}
	})
	return s
}

func (b *binder) bindUsing(j *Join, using []*ast.ColumnName) (Plan, error) {
	lc, rc := j.Left.Columns(), j.Right.Columns()
	ls := &scope{cols: lc}
	rs := &scope{cols: rc}
	usedL, usedR := map[int]bool{}, map[int]bool{}
	var exprs []Expr
	var cols []Column
	for _, u := range using {
		l, err := ls.resolve("", u.Name.O)
		if err != nil {
			return nil, err
		}
		r, err := rs.resolve("", u.Name.O)
		if err != nil {
			return nil, err
		}
		l2, r2, err := unify("USING", l, r)
		if err != nil {
			return nil, err
		}
		j.LeftKeys = append(j.LeftKeys, l2)
		j.RightKeys = append(j.RightKeys, r2)
		li, ri := l.(*ColumnRef).Index, r.(*ColumnRef).Index
		usedL[li], usedR[ri] = true, true
		var out Expr = shiftColumns(r2, len(lc))
		if j.Type != exec.JoinRight {
			out = l2
		}
		if j.Type == exec.JoinFull {
			out = coalesceExpr([]Expr{l2, shiftColumns(r2, len(lc))}, l2.DataType())
		}
		exprs = append(exprs, out)
		cols = append(cols, Column{Qualifier: lc[li].Qualifier, Name: lc[li].Name, Type: out.DataType(), Nullable: true})
	}
	for i, c := range lc {
		if !usedL[i] {
			exprs = append(exprs, &ColumnRef{Index: i, Name: c.Name, Type: c.Type})
			cols = append(cols, c)
		}
	}
	for i, c := range rc {
		if !usedR[i] {
			exprs = append(exprs, &ColumnRef{Index: len(lc) + i, Name: c.Name, Type: c.Type})
			cols = append(cols, c)
		}
	}
	return &Project{Input: j, Exprs: exprs, Cols: cols}, nil
}

func (b *binder) bindSetOpr(s *ast.SetOprStmt, outer *scope, sub *subqueryBase) (Plan, error) {
	if err := b.pushCTEs(s.With, outer); err != nil {
		b.popCTEs()
		return nil, err
	}
	defer b.popCTEs()
	p, err := b.bindSetList(s.SelectList, outer, sub)
	if err != nil {
		return nil, err
	}
	if s.OrderBy != nil {
		cols := p.Columns()
		items := make([]selectItem, len(cols))
		for i, c := range cols {
			items[i] = selectItem{name: c.Name, ast: &ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr(c.Name)}}}
		}
		var keys []SortKey
		order, err := orderItems(s.OrderBy.Items)
		if err != nil {
			return nil, err
		}
		for _, o := range order {
			idx, err := orderByItem(o.expr, items)
			if err != nil {
				return nil, err
			}
			if idx < 0 {
				return nil, invalid("ORDER BY of a set operation must name an output column: %s", restore(o.expr))
			}
			keys = append(keys, SortKey{Expr: &ColumnRef{Index: idx, Name: cols[idx].Name, Type: cols[idx].Type}, Desc: o.desc, NullsFirst: o.nullsFirst})
		}
		p = &Sort{Input: p, Keys: keys}
	}
	return bindLimit(p, s.Limit)
}

func (b *binder) bindSetList(l *ast.SetOprSelectList, outer *scope, sub *subqueryBase) (Plan, error) {
	var acc Plan
	for _, n := range l.Selects {
		var p Plan
		var op *ast.SetOprType
		var err error
		switch x := n.(type) {
		case *ast.SelectStmt:
			p, err = b.bindSelect(x, outer, sub)
			op = x.AfterSetOperator
		case *ast.SetOprSelectList:
			p, err = b.bindSetList(x, outer, sub)
			op = x.AfterSetOperator
		default:
			err = unsupported("set operand %T", n)
		}
		if err != nil {
			return nil, err
		}
		if acc == nil {
			acc = p
			continue
		}
		if op == nil {
			return nil, invalid("missing set operator")
		}
		if acc, err = setOp(*op, acc, p); err != nil {
			return nil, err
		}
	}
	if l.Limit != nil || l.OrderBy != nil {
		return nil, unsupported("ORDER BY/LIMIT inside a parenthesised set operand")
	}
	return acc, nil
}

func setOp(op ast.SetOprType, l, r Plan) (Plan, error) {
	lc, rc := l.Columns(), r.Columns()
	if len(lc) != len(rc) {
		return nil, invalid("set operation inputs have %d and %d columns", len(lc), len(rc))
	}
	le, re := make([]Expr, len(lc)), make([]Expr, len(rc))
	lcols, rcols := make([]Column, len(lc)), make([]Column, len(rc))
	for i := range lc {
		t, ok := commonType(lc[i].Type, rc[i].Type)
		if !ok {
			return nil, &TypeMismatchError{Op: "set operation column " + lc[i].Name, Types: []string{typeName(lc[i].Type), typeName(rc[i].Type)}}
		}
		if t == typeNull {
			t = typeString
		}
		le[i] = coerce(&ColumnRef{Index: i, Name: lc[i].Name, Type: lc[i].Type}, t)
		re[i] = coerce(&ColumnRef{Index: i, Name: rc[i].Name, Type: rc[i].Type}, t)
		lcols[i] = Column{Name: lc[i].Name, Type: t, Nullable: true}
		rcols[i] = Column{Name: lc[i].Name, Type: t, Nullable: true}
	}
	l = &Project{Input: l, Exprs: le, Cols: lcols}
	r = &Project{Input: r, Exprs: re, Cols: rcols}
	s := &SetOp{Left: l, Right: r}
	switch op {
	case ast.Union:
	case ast.UnionAll:
		s.All = true
	case ast.Intersect:
		s.Kind = SetIntersect
	case ast.IntersectAll:
		s.Kind, s.All = SetIntersect, true
	case ast.Except:
		s.Kind = SetExcept
	case ast.ExceptAll:
		s.Kind, s.All = SetExcept, true
	}
	return s, nil
}

// naturalColumns are the column names both sides of a NATURAL JOIN have,
// in the left side's order.
func naturalColumns(lc, rc []Column) []*ast.ColumnName {
	var out []*ast.ColumnName
	seen := map[string]bool{}
	for _, l := range lc {
		name := strings.ToLower(l.Name)
		if seen[name] {
			continue
		}
		for _, r := range rc {
			if strings.EqualFold(l.Name, r.Name) {
				seen[name] = true
				out = append(out, &ast.ColumnName{Name: ast.NewCIStr(l.Name)})
				break
			}
		}
	}
	return out
}
