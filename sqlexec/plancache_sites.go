package sqlexec

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
)

// placeholdersPlain reports whether every placeholder of a statement
// stands where the binder keeps it as a literal of its own: a side of a
// comparison, a BETWEEN bound, an IN list item, a VALUES item or a
// selected value. Anywhere else (a function argument, arithmetic, CASE)
// the optimizer may fold it into a value that matches both probe sets by
// chance (trim of a string without spaces, abs of a positive number)
// while differing for real arguments, so such statements are planned on
// every run.
func placeholdersPlain(pb *paramBinder, root ast.Node) bool {
	v := &plainSiteChecker{pb: pb, ok: true}
	root.Accept(v)
	return v.ok
}

type plainSiteChecker struct {
	pb    *paramBinder
	stack []ast.Node
	ok    bool
}

func (v *plainSiteChecker) Enter(n ast.Node) (ast.Node, bool) {
	if _, site := v.pb.sites[n]; site && !v.plainParent() {
		v.ok = false
	}
	v.stack = append(v.stack, n)
	return n, !v.ok
}

func (v *plainSiteChecker) Leave(n ast.Node) (ast.Node, bool) {
	v.stack = v.stack[:len(v.stack)-1]
	return n, v.ok
}

// plainParent checks the node enclosing the site being entered, looking
// through parentheses.
func (v *plainSiteChecker) plainParent() bool {
	for i := len(v.stack) - 1; i >= 0; i-- {
		switch p := v.stack[i].(type) {
		case *ast.ParenthesesExpr:
			continue
		case *ast.BinaryOperationExpr:
			switch p.Op {
			case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
				return true
			}
			return false
		case *ast.BetweenExpr, *ast.PatternInExpr, *ast.InsertStmt, *ast.SelectField:
			return true
		}
		return false
	}
	return false
}
