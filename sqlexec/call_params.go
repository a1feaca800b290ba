package sqlexec

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/parser"
)

// callArgRoot lets the placeholder binder reach a CALL argument: an
// argument may itself be a `?`, which a visitor can only replace through
// its parent, so this root stores the replacement back into the argument.
type callArgRoot struct {
	ast.Node
	arg *parser.CallArg
}

func (r *callArgRoot) Accept(v ast.Visitor) (ast.Node, bool) {
	n, ok := r.arg.Value.Node.Accept(v)
	if e, isExpr := n.(ast.ExprNode); isExpr {
		r.arg.Value.Node = e
	}
	return r, ok
}

// callArgRoots are the placeholder roots of a CALL statement's arguments.
func callArgRoots(st *parser.CallStmt) []ast.Node {
	roots := make([]ast.Node, 0, len(st.Args))
	for i := range st.Args {
		if st.Args[i].Value != nil && st.Args[i].Value.Node != nil {
			roots = append(roots, &callArgRoot{Node: st.Args[i].Value.Node, arg: &st.Args[i]})
		}
	}
	return roots
}
