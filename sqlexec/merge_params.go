package sqlexec

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/parser"
)

// exprRoot lets the placeholder binder reach an expression of an
// extension statement that may itself be a `?` (SET v = ?): a visitor
// replaces a node only through its parent, so the root stores the
// replacement back into the expression.
type exprRoot struct {
	ast.Node
	e *parser.Expr
}

func (r *exprRoot) Accept(v ast.Visitor) (ast.Node, bool) {
	n, ok := r.e.Node.Accept(v)
	if e, isExpr := n.(ast.ExprNode); isExpr {
		r.e.Node = e
	}
	return r, ok
}

// mergeRoots are the placeholder roots of a MERGE statement, in the order
// of its text: the source query, the ON condition, then each WHEN
// clause's condition and values.
func mergeRoots(st *parser.MergeStmt) []ast.Node {
	var roots []ast.Node
	add := func(e *parser.Expr) {
		if e != nil && e.Node != nil {
			roots = append(roots, &exprRoot{Node: e.Node, e: e})
		}
	}
	if st.SourceQuery != nil && st.SourceQuery.Node != nil {
		roots = append(roots, st.SourceQuery.Node)
	}
	add(st.On)
	for i := range st.Clauses {
		c := &st.Clauses[i]
		add(c.Cond)
		for j := range c.Set {
			add(c.Set[j].Value)
		}
		for _, v := range c.InsertValues {
			add(v)
		}
	}
	return roots
}
