package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// cteEntry is a name a WITH clause defines.
type cteEntry struct {
	plan Plan
	// self is set while a WITH RECURSIVE query's own body is bound:
	// references to its name then read its working table and are counted.
	self *selfRef
}

type selfRef struct {
	work *WorkTable
	refs int
}

// bindRecursiveCTE binds one query of a WITH RECURSIVE clause. A query
// that references itself must be anchor UNION [ALL] recursive-term, the
// reference standing once in the recursive term's FROM; a query that
// does not is an ordinary CTE.
func (b *binder) bindRecursiveCTE(cte *ast.CommonTableExpression, m map[string]*cteEntry) (Plan, error) {
	key, name := strings.ToLower(cte.Name.O), cte.Name.O
	self := &selfRef{work: &WorkTable{Name: name}}
	m[key] = &cteEntry{self: self}
	defer delete(m, key)
	q := cte.Query.Query
	set, anchor, rec, distinct := splitRecursive(q)
	if rec == nil {
		p, err := b.bindResultSet(q, nil, nil)
		if self.refs > 0 {
			return nil, recursiveErr(name, "a query referencing itself must have the form non-recursive-term UNION [ALL] recursive-term")
		}
		if err != nil {
			return nil, err
		}
		return nameCTEColumns(cte, p)
	}
	p, recursive, err := b.bindRecursiveUnion(cte, self, set, anchor, rec, distinct)
	if err != nil || recursive {
		return p, err
	}
	// no self-reference after all: an ordinary query
	delete(m, key)
	if p, err = b.bindResultSet(q, nil, nil); err != nil {
		return nil, err
	}
	return nameCTEColumns(cte, p)
}

// splitRecursive splits a query of the form anchor UNION [ALL] last into
// the anchor's operands and the last operand (nil when q has another form).
func splitRecursive(q ast.ResultSetNode) (set *ast.SetOprStmt, anchor *ast.SetOprSelectList, last ast.Node, distinct bool) {
	set, ok := q.(*ast.SetOprStmt)
	if !ok || set.SelectList == nil || len(set.SelectList.Selects) < 2 {
		return nil, nil, nil, false
	}
	sel := set.SelectList.Selects
	last = sel[len(sel)-1]
	var op *ast.SetOprType
	switch x := last.(type) {
	case *ast.SelectStmt:
		op = x.AfterSetOperator
	case *ast.SetOprSelectList:
		op = x.AfterSetOperator
	}
	if op == nil || (*op != ast.Union && *op != ast.UnionAll) {
		return nil, nil, nil, false
	}
	return set, &ast.SetOprSelectList{Selects: sel[:len(sel)-1]}, last, *op == ast.Union
}

// bindRecursiveUnion binds anchor UNION [ALL] rec; recursive is false
// when rec turns out not to reference the CTE.
func (b *binder) bindRecursiveUnion(cte *ast.CommonTableExpression, self *selfRef, set *ast.SetOprStmt,
	anchorList *ast.SetOprSelectList, recNode ast.Node, distinct bool) (p Plan, recursive bool, err error) {
	name := cte.Name.O
	if err := b.pushCTEs(set.With, nil); err != nil {
		b.popCTEs()
		return nil, false, err
	}
	defer b.popCTEs()
	anchor, err := b.bindSetList(anchorList, nil, nil)
	if self.refs > 0 {
		return nil, false, recursiveErr(name, "its non-recursive term (the operands before the last UNION) must not reference %s", name)
	}
	if err != nil {
		return nil, false, err
	}
	if anchor, err = b.anchorColumns(cte, anchor); err != nil {
		return nil, false, err
	}
	self.work.Cols = anchor.Columns()
	var rec Plan
	switch x := recNode.(type) {
	case *ast.SelectStmt:
		rec, err = b.bindSelect(x, nil, nil)
	case *ast.SetOprSelectList:
		rec, err = b.bindSetList(x, nil, nil)
	default:
		err = unsupported("set operand %T", recNode)
	}
	if self.refs > 1 {
		// the clearer error when the binding failed for that reason
		// (t JOIN t AS u: ambiguous columns)
		return nil, false, recursiveErr(name, "its recursive term references %s %d times; at most once is allowed", name, self.refs)
	}
	if err != nil {
		return nil, false, err
	}
	if self.refs == 0 {
		return nil, false, nil
	}
	if err := checkRecursiveTerm(name, self, rec); err != nil {
		return nil, false, err
	}
	if rec, err = castRecursiveTerm(name, self.work.Cols, probeWithWorkTable(rec, self.work)); err != nil {
		return nil, false, err
	}
	if set.OrderBy != nil {
		return nil, false, &RecursiveCTEError{CTE: name, Reason: "ORDER BY of the recursive UNION is not supported", Err: ErrUnsupported}
	}
	p = &RecursiveCTE{Work: self.work, Anchor: anchor, Recursive: rec, Distinct: distinct}
	if p, err = bindLimit(p, set.Limit); err != nil {
		return nil, false, err
	}
	return p, true, nil
}

// anchorColumns names the anchor's columns by the CTE's column list and
// gives NULL-typed ones a type: they fix the CTE's columns. Decimals get
// the full precision (keeping their scale), as a literal like 1.5 would
// otherwise bound every value the recursion computes to 9.9.
func (b *binder) anchorColumns(cte *ast.CommonTableExpression, anchor Plan) (Plan, error) {
	in := anchor.Columns()
	if n := len(cte.ColNameList); n > 0 && n != len(in) {
		return nil, invalid("WITH %s names %d columns but its non-recursive term has %d", cte.Name.O, n, len(in))
	}
	cols := make([]Column, len(in))
	exprs := make([]Expr, len(in))
	for i, c := range in {
		t := c.Type
		switch t.ID() {
		case arrow.NULL:
			t = typeString
		case arrow.DECIMAL128:
			t = &arrow.Decimal128Type{Precision: 38, Scale: t.(*arrow.Decimal128Type).Scale}
		}
		cols[i] = Column{Name: c.Name, Type: t, Nullable: true}
		if len(cte.ColNameList) > 0 {
			cols[i].Name = cte.ColNameList[i].O
		}
		exprs[i] = coerce(&ColumnRef{Index: i, Name: c.Name, Type: c.Type}, t)
	}
	return projectOver(anchor, exprs, cols), nil
}

// castRecursiveTerm casts the recursive term's columns to the anchor's.
func castRecursiveTerm(name string, cols []Column, rec Plan) (Plan, error) {
	in := rec.Columns()
	if len(in) != len(cols) {
		return nil, recursiveErr(name, "its recursive term has %d columns but its non-recursive term has %d", len(in), len(cols))
	}
	exprs := make([]Expr, len(in))
	for i, c := range in {
		if _, ok := commonType(cols[i].Type, c.Type); !ok {
			return nil, &RecursiveCTEError{CTE: name, Err: ErrType, Reason: fmt.Sprintf(
				"column %s is %s in its non-recursive term but %s in its recursive term", cols[i].Name, typeName(cols[i].Type), typeName(c.Type))}
		}
		exprs[i] = coerce(&ColumnRef{Index: i, Name: c.Name, Type: c.Type}, cols[i].Type)
	}
	return projectOver(rec, exprs, cols), nil
}

// projectOver projects exprs over p, merged into p when p is a
// projection itself (one node instead of two in plans and EXPLAIN).
func projectOver(p Plan, exprs []Expr, cols []Column) Plan {
	if in, ok := p.(*Project); ok {
		merged := make([]Expr, len(exprs))
		for i, e := range exprs {
			merged[i] = substitute(e, in.Exprs)
		}
		return &Project{Input: in.Input, Exprs: merged, Cols: cols}
	}
	return &Project{Input: p, Exprs: exprs, Cols: cols}
}
