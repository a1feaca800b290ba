package planner

import (
	"errors"
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// ErrTooDeep: a statement nests expressions (or subqueries, or any syntax)
// deeper than MaxExprDepth / MaxSyntaxDepth. Every pass over a statement
// (binding, folding, pushdown, printing, evaluation) recurses over its
// tree, and a Go stack overflow is fatal to the whole process, not an
// error anyone could recover from; so the depth is refused up front, and
// the binder counts again for trees that did not come from the parser.
var ErrTooDeep = errors.New("expression too deeply nested")

const (
	// MaxExprDepth bounds the nesting of expressions: a chain of 16,000
	// ANDs or additions, or 16,000 nested scalar subqueries, binds.
	MaxExprDepth = 16384
	// MaxSyntaxDepth bounds the nesting of all syntax nodes (a scalar
	// subquery adds a select, its field list and field to its expression).
	MaxSyntaxDepth = 4 * MaxExprDepth
)

// TooDeepError says which limit a statement passed.
type TooDeepError struct {
	What  string // "expression" or "syntax"
	Limit int
}

func (e *TooDeepError) Error() string {
	return fmt.Sprintf("%v: %s nesting deeper than %d levels", ErrTooDeep, e.What, e.Limit)
}
func (e *TooDeepError) Unwrap() error { return ErrTooDeep }

// CheckDepth refuses a parsed statement nested deeper than the limits. It
// walks with ast.Node.Accept, which recurses, but stops descending at the
// limit, so its own stack stays bounded.
func CheckDepth(n ast.Node) error {
	v := &depthVisitor{}
	n.Accept(v)
	return v.err
}

type depthVisitor struct {
	depth, exprDepth int
	exprs            []bool // whether each open node counted as an expression
	err              error
}

func (v *depthVisitor) Enter(n ast.Node) (ast.Node, bool) {
	if v.err != nil {
		return n, true
	}
	_, isExpr := n.(ast.ExprNode)
	v.depth++
	if isExpr {
		v.exprDepth++
	}
	v.exprs = append(v.exprs, isExpr)
	switch {
	case v.exprDepth > MaxExprDepth:
		v.err = &TooDeepError{What: "expression", Limit: MaxExprDepth}
	case v.depth > MaxSyntaxDepth:
		v.err = &TooDeepError{What: "syntax", Limit: MaxSyntaxDepth}
	}
	return n, v.err != nil
}

func (v *depthVisitor) Leave(n ast.Node) (ast.Node, bool) {
	if len(v.exprs) > 0 {
		if v.exprs[len(v.exprs)-1] {
			v.exprDepth--
		}
		v.exprs = v.exprs[:len(v.exprs)-1]
		v.depth--
	}
	return n, v.err == nil
}
