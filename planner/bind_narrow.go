package planner

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// narrowLiteral converts lit to type t when that loses nothing (the value
// casts to t and back unchanged), so that comparing an expression of
// type t with lit needs no cast of the expression: an INT column compared
// with 5 stays a bare column, which the scan can use to prune files.
// Comparing in t then gives the same answer as in the wider common type.
func narrowLiteral(lit *Literal, t arrow.DataType) (*Literal, bool) {
	if lit.Value == nil || arrow.TypeEqual(lit.Type, t) || !narrowable(t) || !narrowable(lit.Type) {
		return nil, false
	}
	if isFloat(t) && !isFloat(lit.Type) && !isInteger(lit.Type) {
		// a decimal such as 0.1 has no exact float: converting it back
		// would round and hide the difference
		return nil, false
	}
	v, err := exec.CastValue(lit.Value, lit.Type, t)
	if err != nil || v == nil {
		return nil, false
	}
	back, err := exec.CastValue(v, t, lit.Type)
	if err != nil || back == nil || reflect.TypeOf(back) != reflect.TypeOf(lit.Value) {
		return nil, false
	}
	if exec.CompareValues(back, lit.Value) != 0 {
		return nil, false
	}
	return &Literal{Value: v, Type: t}, true
}

func isFloat(t arrow.DataType) bool { return t.ID() == arrow.FLOAT32 || t.ID() == arrow.FLOAT64 }

func narrowable(t arrow.DataType) bool { return isNumeric(t) || isTemporal(t) }

// narrowComparison applies narrowLiteral to whichever side of a
// comparison is a literal facing a non-literal.
func narrowComparison(l, r Expr) (Expr, Expr) {
	if lit, ok := r.(*Literal); ok {
		if _, lLit := l.(*Literal); !lLit {
			if n, ok := narrowLiteral(lit, l.DataType()); ok {
				return l, n
			}
		}
	}
	if lit, ok := l.(*Literal); ok {
		if _, rLit := r.(*Literal); !rLit {
			if n, ok := narrowLiteral(lit, r.DataType()); ok {
				return n, r
			}
		}
	}
	return l, r
}

// narrowInList converts every literal of an IN list to e's type when all
// of them convert exactly (a single cast of e would be needed otherwise).
func narrowInList(e Expr, list []Expr) ([]Expr, bool) {
	if _, ok := e.(*Literal); ok {
		return nil, false
	}
	out := make([]Expr, len(list))
	for i, x := range list {
		lit, ok := x.(*Literal)
		if !ok {
			return nil, false
		}
		if arrow.TypeEqual(lit.Type, e.DataType()) {
			out[i] = lit
			continue
		}
		if out[i], ok = narrowLiteral(lit, e.DataType()); !ok {
			return nil, false
		}
	}
	return out, true
}
