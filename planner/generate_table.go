package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// Spark's generators over several scalar arguments, stack and
// json_tuple, are bound as inline over one argument: a call building the
// array of row structs the generator emits for each input row.

// tableGenerator binds such a generator's arguments into that call and
// the columns it produces.
type tableGenerator func(fn string, args []Expr) (Expr, []Column, error)

// bindStack binds stack(n, e1, ..., ek): n rows of ceil(k/n) columns
// col0, col1, ...; row i holds e[i*cols+j], NULL past ek; each column
// takes the common type of its values.
func bindStack(fn string, args []Expr) (Expr, []Column, error) {
	if len(args) < 2 {
		return nil, nil, &GeneratorError{Func: fn, Problem: fmt.Sprintf("takes the number of rows and at least one value, got %d arguments", len(args))}
	}
	l, ok := constantOf(args[0])
	var n int64
	if ok && l.Value != nil {
		switch v := l.Value.(type) {
		case int32:
			n = int64(v)
		case int64:
			n = v
		default:
			ok = false
		}
	}
	if !ok || n < 1 {
		return nil, nil, &GeneratorError{Func: fn, Problem: "the number of rows (argument 1) must be a positive integer constant"}
	}
	vals := args[1:]
	rows := int(n)
	width := (len(vals) + rows - 1) / rows
	cols := make([]Column, width)
	conv := make([]Expr, len(vals))
	for j := range width {
		var col []Expr
		for i := j; i < len(vals); i += width {
			col = append(col, vals[i])
		}
		t, err := commonTypeOf(fmt.Sprintf("%s column col%d", fn, j), col)
		if err != nil {
			return nil, nil, &GeneratorError{Func: fn, Problem: err.Error(), typ: true}
		}
		cols[j] = Column{Name: fmt.Sprintf("col%d", j), Type: t, Nullable: true}
		for i := j; i < len(vals); i += width {
			conv[i] = coerce(vals[i], t)
		}
	}
	rowType := rowStruct(cols)
	call := nestedCall(fn, append([]Expr{&Literal{Value: n, Type: typeLong}}, conv...), arrow.ListOf(rowType), false, func(_ *exec.EvalContext, v []any) (any, error) {
		v = v[1:]
		out := make([]any, rows)
		for i := range rows {
			fields := make([]any, width)
			for j := range width {
				if k := i*width + j; k < len(v) {
					fields[j] = v[k]
				}
			}
			out[i] = exec.StructValue{Fields: fields}
		}
		return out, nil
	})
	return call, cols, nil
}

// bindJSONTuple binds json_tuple(json, k1, ..., kn): one row of string
// columns c0, c1, ..., each the value of key ki of the JSON object (a
// string unquoted, anything else as compact JSON), NULL for a missing
// key, a JSON null, a NULL key or a NULL or malformed document.
func bindJSONTuple(fn string, args []Expr) (Expr, []Column, error) {
	if len(args) < 2 {
		return nil, nil, &GeneratorError{Func: fn, Problem: fmt.Sprintf("takes a JSON string and at least one key, got %d arguments", len(args))}
	}
	conv := make([]Expr, len(args))
	for i, a := range args {
		if id := a.DataType().ID(); id != arrow.STRING && id != arrow.NULL {
			return nil, nil, &GeneratorError{Func: fn, Problem: fmt.Sprintf("argument %d must be a string, not %s", i+1, sqlTypeName(a.DataType())), typ: true}
		}
		conv[i] = coerce(a, typeString)
	}
	cols := make([]Column, len(args)-1)
	for i := range cols {
		cols[i] = Column{Name: fmt.Sprintf("c%d", i), Type: typeString, Nullable: true}
	}
	call := nestedCall(fn, conv, arrow.ListOf(rowStruct(cols)), false, func(_ *exec.EvalContext, v []any) (any, error) {
		fields := make([]any, len(v)-1)
		doc, _ := v[0].(string)
		obj := jsonObject(v[0] != nil, doc)
		for i, k := range v[1:] {
			key, ok := k.(string)
			if !ok || obj == nil {
				continue
			}
			if s, ok := obj.field(key); ok {
				fields[i] = s
			}
		}
		return []any{exec.StructValue{Fields: fields}}, nil
	})
	return call, cols, nil
}

// rowStruct is the struct type of one generated row.
func rowStruct(cols []Column) *arrow.StructType {
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fs[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: true}
	}
	return arrow.StructOf(fs...)
}

// bindTableGenerator binds a lateral view of stack or json_tuple.
func (b *binder) bindTableGenerator(left Plan, spec *lateralSpec, fn string, def generatorDef, outer *scope, sub *subqueryBase) (Plan, error) {
	sc := &scope{cols: left.Columns(), outer: outer, sub: sub}
	args := make([]Expr, len(spec.call.Args))
	for i, a := range spec.call.Args {
		if containsAggregate(a) {
			return nil, &GeneratorError{Func: fn, Problem: "aggregate functions are not allowed in a generator's argument"}
		}
		e, err := b.bindExpr(a, sc)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	arg, cols, err := def.table(fn, args)
	if err != nil {
		return nil, err
	}
	return finishLateral(left, spec, fn, def, arg, cols)
}

// constantOf evaluates a column-free argument (stack's row count) now.
func constantOf(e Expr) (*Literal, bool) {
	if l, ok := e.(*Literal); ok {
		return l, true
	}
	if !foldable(e) {
		return nil, false
	}
	v, err := evalConstant(NewEvalContext(nil, nil), e)
	if err != nil {
		return nil, false
	}
	return &Literal{Value: v, Type: e.DataType()}, true
}
