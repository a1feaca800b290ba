package parser

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
)

// `||` is Spark's string concatenation. TiDB parses it as concat() in its
// PIPES_AS_CONCAT mode, but binding tighter than every arithmetic
// operator (MySQL's rule); Spark gives it the precedence of + and -. So a
// chain of arithmetic and bit operators holding a `||` is flattened back
// into its written order and rebuilt with Spark's precedence.
//
// TiDB's node for `a || b` is concat(a, b) named in lower case; before
// parsing, the extension layer spells a written concat( as CONCAT( so
// the two never look alike.

// pipesConcatName is the function name TiDB gives a `||` node.
const pipesConcatName = ast.Concat

// writtenConcatName replaces a written lower-case concat( call.
const writtenConcatName = "CONCAT"

// sparkPrecedence of the binary operators a chain may hold (higher binds
// tighter); 0 for anything that is not a chain operator.
func sparkPrecedence(op opcode.Op) int {
	switch op {
	case opcode.Mul, opcode.Div, opcode.Mod, opcode.IntDiv:
		return 6
	case opcode.Plus, opcode.Minus:
		return 5
	case opcode.LeftShift, opcode.RightShift:
		return 4
	case opcode.And:
		return 3
	case opcode.Xor:
		return 2
	case opcode.Or:
		return 1
	}
	return 0
}

const concatPrecedence = 5

func isPipesConcat(n ast.Node) bool {
	f, ok := n.(*ast.FuncCallExpr)
	return ok && f.FnName.O == pipesConcatName && len(f.Args) == 2 && f.Schema.L == ""
}

func isChainNode(n ast.Node) bool {
	if b, ok := n.(*ast.BinaryOperationExpr); ok {
		return sparkPrecedence(b.Op) > 0
	}
	return isPipesConcat(n)
}

// chainOp is one operator of a flattened chain; concat when isConcat.
type chainOp struct {
	op       opcode.Op
	isConcat bool
}

func (o chainOp) precedence() int {
	if o.isConcat {
		return concatPrecedence
	}
	return sparkPrecedence(o.op)
}

// flattenChain lists the operands and operators of the chain rooted at n
// in written order, and whether it holds a `||`.
func flattenChain(n ast.ExprNode) (operands []ast.ExprNode, ops []chainOp, hasConcat bool) {
	var walk func(e ast.ExprNode)
	walk = func(e ast.ExprNode) {
		switch x := e.(type) {
		case *ast.BinaryOperationExpr:
			if sparkPrecedence(x.Op) > 0 {
				walk(x.L)
				ops = append(ops, chainOp{op: x.Op})
				walk(x.R)
				return
			}
		case *ast.FuncCallExpr:
			if isPipesConcat(x) {
				hasConcat = true
				walk(x.Args[0])
				ops = append(ops, chainOp{isConcat: true})
				walk(x.Args[1])
				return
			}
		}
		operands = append(operands, e)
	}
	walk(n)
	return operands, ops, hasConcat
}

// buildChain rebuilds a flattened chain, all operators left-associative.
func buildChain(operands []ast.ExprNode, ops []chainOp) ast.ExprNode {
	pos := 0
	var climb func(minPrec int) ast.ExprNode
	climb = func(minPrec int) ast.ExprNode {
		left := operands[pos]
		for pos < len(ops) && ops[pos].precedence() >= minPrec {
			op := ops[pos]
			pos++
			right := climb(op.precedence() + 1)
			if op.isConcat {
				left = &ast.FuncCallExpr{FnName: ast.NewCIStr(pipesConcatName), Args: []ast.ExprNode{left, right}}
			} else {
				left = &ast.BinaryOperationExpr{Op: op.op, L: left, R: right}
			}
		}
		return left
	}
	return climb(1)
}

// pipesVisitor rebuilds every chain holding a `||`.
type pipesVisitor struct{}

func (v pipesVisitor) Enter(n ast.Node) (ast.Node, bool) {
	e, ok := n.(ast.ExprNode)
	if !ok || !isChainNode(n) {
		return n, false
	}
	operands, ops, hasConcat := flattenChain(e)
	for i, o := range operands {
		r, _ := o.Accept(v)
		operands[i] = r.(ast.ExprNode)
	}
	if !hasConcat {
		// Operands are done; put them back where they were.
		return refill(e, operands), true
	}
	return buildChain(operands, ops), true
}

func (v pipesVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// refill puts rewritten operands back into a chain without `||`, in the
// order flattenChain listed them.
func refill(n ast.ExprNode, operands []ast.ExprNode) ast.ExprNode {
	i := 0
	var walk func(e ast.ExprNode) ast.ExprNode
	walk = func(e ast.ExprNode) ast.ExprNode {
		if b, ok := e.(*ast.BinaryOperationExpr); ok && sparkPrecedence(b.Op) > 0 {
			b.L = walk(b.L)
			b.R = walk(b.R)
			return b
		}
		r := operands[i]
		i++
		return r
	}
	return walk(n)
}

// applySparkPipes rewrites a parsed statement's `||` chains.
func applySparkPipes(n ast.StmtNode) ast.StmtNode {
	r, _ := n.Accept(pipesVisitor{})
	return r.(ast.StmtNode)
}
