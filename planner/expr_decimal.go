package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// DecimalArith is exact L op R over DECIMAL operands (any scales) giving
// Type; see decimalResult for how Type is chosen.
type DecimalArith struct {
	Op   exec.ArithOp
	L, R Expr
	Type *arrow.Decimal128Type
}

func (d *DecimalArith) DataType() arrow.DataType { return d.Type }
func (d *DecimalArith) String() string           { return fmt.Sprintf("(%s %s %s)", d.L, d.Op, d.R) }
func (d *DecimalArith) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	return evalBinary(ec, b, d.L, d.R, func(x, y arrow.Array) (arrow.Array, error) {
		return exec.DecimalArith(ec, d.Op, x, y, d.Type)
	})
}

var arithSymbols = map[exec.ArithOp]byte{
	exec.ArithAdd: '+', exec.ArithSub: '-', exec.ArithMul: '*', exec.ArithDiv: '/', exec.ArithMod: '%',
}

// decimalArith binds l op r when one side is DECIMAL and the other is
// DECIMAL or an integer.
func decimalArith(op exec.ArithOp, l, r Expr) Expr {
	lt, rt := asDecimal(l.DataType()), asDecimal(r.DataType())
	return &DecimalArith{Op: op, L: coerce(l, lt), R: coerce(r, rt), Type: decimalResult(arithSymbols[op], lt, rt)}
}
