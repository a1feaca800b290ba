package planner

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/exec"
)

// bindStructField binds s['f']: field f of a struct (names match case
// insensitively, as Spark's default resolution does).
func bindStructField(s, key Expr, st *arrow.StructType) (Expr, error) {
	l, ok := key.(*Literal)
	if !ok || l.Type.ID() != arrow.STRING || l.Value == nil {
		return nil, &TypeMismatchError{Op: "struct subscript (the field must be a string literal)", Types: []string{sqlTypeName(key.DataType())}}
	}
	idx, err := structFieldIndex(st, l.Value.(string))
	if err != nil {
		return nil, err
	}
	return structFieldCall(s, idx, st), nil
}

// structFieldIndex finds a field by name, case-insensitively.
func structFieldIndex(st *arrow.StructType, name string) (int, error) {
	for i, f := range st.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i, nil
		}
	}
	names := make([]string, st.NumFields())
	for i, f := range st.Fields() {
		names[i] = f.Name
	}
	return 0, &UnknownColumnError{Name: fmt.Sprintf("%s (the struct's fields are %s)", name, strings.Join(names, ", "))}
}

func structFieldCall(s Expr, idx int, st *arrow.StructType) Expr {
	f := st.Field(idx)
	return nestedCall("get_field_"+f.Name, []Expr{s}, f.Type, true, func(_ *exec.EvalContext, v []any) (any, error) {
		return v[0].(exec.StructValue).Fields[idx], nil
	})
}

// bindNamedStruct binds named_struct('a', x, 'b', y, ...).
func bindNamedStruct(name string, args []Expr) (Expr, error) {
	if len(args) == 0 || len(args)%2 != 0 {
		return nil, invalid("%s takes name/value pairs, got %d arguments", name, len(args))
	}
	var fields []arrow.Field
	var vals []Expr
	seen := map[string]bool{}
	for i := 0; i < len(args); i += 2 {
		l, ok := args[i].(*Literal)
		if !ok || l.Type.ID() != arrow.STRING || l.Value == nil {
			return nil, argMismatch(name, i+1, "a string literal naming a field", args[i])
		}
		n := l.Value.(string)
		if seen[strings.ToLower(n)] {
			return nil, invalid("%s: field %s is named twice", name, n)
		}
		seen[strings.ToLower(n)] = true
		fields = append(fields, structField(n, args[i+1]))
		vals = append(vals, valueOf(args[i+1]))
	}
	return structCall(name, fields, vals), nil
}

// bindStruct binds struct(x, y, ...): fields take the names of column
// arguments and col1, col2, ... otherwise, as in Spark.
func bindStruct(name string, args []Expr) (Expr, error) {
	if len(args) == 0 {
		return nil, invalid("%s needs at least one argument", name)
	}
	fields := make([]arrow.Field, len(args))
	vals := make([]Expr, len(args))
	for i, a := range args {
		n := "col" + strconv.Itoa(i+1)
		if c, ok := a.(*ColumnRef); ok {
			n = c.Name
		}
		fields[i], vals[i] = structField(n, a), valueOf(a)
	}
	return structCall(name, fields, vals), nil
}

// valueOf gives a NULL-typed argument a concrete type (STRING, as
// commonTypeOf does), since no column can hold the NULL type.
func valueOf(e Expr) Expr {
	if e.DataType().ID() == arrow.NULL {
		return coerce(e, typeString)
	}
	return e
}

func structField(name string, e Expr) arrow.Field {
	return arrow.Field{Name: name, Type: valueOf(e).DataType(), Nullable: true}
}

func structCall(name string, fields []arrow.Field, vals []Expr) Expr {
	return nestedCall(name, vals, arrow.StructOf(fields...), false, func(_ *exec.EvalContext, v []any) (any, error) {
		return exec.StructValue{Fields: append([]any{}, v...)}, nil
	})
}

// nestedCommonType is commonTypeOf extended to nested types: arrays
// and maps meet element-wise, structs of one shape field-wise.
func nestedCommonType(op string, es []Expr) (arrow.DataType, error) {
	var t, empty arrow.DataType = typeNull, nil
	for _, e := range es {
		if isEmptyArray(e) {
			empty = e.DataType() // array() meets any array type, as Spark's array<void>
			continue
		}
		nt, ok := commonNested(t, e.DataType())
		if !ok {
			names := make([]string, len(es))
			for i, x := range es {
				names[i] = sqlTypeName(x.DataType())
			}
			return nil, &TypeMismatchError{Op: op, Types: names}
		}
		t = nt
	}
	if t.ID() == arrow.NULL && empty != nil {
		return empty, nil
	}
	if t.ID() == arrow.NULL {
		t = typeString
	}
	return t, nil
}

func commonNested(a, b arrow.DataType) (arrow.DataType, bool) {
	switch {
	case a.ID() == arrow.NULL:
		return b, true
	case b.ID() == arrow.NULL:
		return a, true
	case !isNested(a) && !isNested(b):
		return commonType(a, b)
	case a.ID() != b.ID():
		return nil, false
	}
	switch x := a.(type) {
	case *arrow.ListType:
		e, ok := commonNested(x.Elem(), b.(*arrow.ListType).Elem())
		if !ok {
			return nil, false
		}
		return arrow.ListOf(e), true
	case *arrow.MapType:
		y := b.(*arrow.MapType)
		k, ok1 := commonNested(x.KeyType(), y.KeyType())
		v, ok2 := commonNested(x.ItemType(), y.ItemType())
		if !ok1 || !ok2 {
			return nil, false
		}
		return arrow.MapOf(k, v), true
	case *arrow.StructType:
		y := b.(*arrow.StructType)
		if x.NumFields() != y.NumFields() {
			return nil, false
		}
		fs := make([]arrow.Field, x.NumFields())
		for i, f := range x.Fields() {
			if !strings.EqualFold(f.Name, y.Field(i).Name) {
				return nil, false
			}
			ft, ok := commonNested(f.Type, y.Field(i).Type)
			if !ok {
				return nil, false
			}
			fs[i] = arrow.Field{Name: f.Name, Type: ft, Nullable: true}
		}
		return arrow.StructOf(fs...), true
	}
	return nil, false
}

// bindArrayNested extends ARRAY(...) to nested elements (arrays of
// arrays, maps or structs); primitive elements bind as before.
func bindArrayNested(name string, args []Expr) (Expr, error) {
	if !anyNested(args) {
		return bindArray(name, args)
	}
	elem, err := nestedCommonType("array", args)
	if err != nil {
		return nil, err
	}
	conv := make([]Expr, len(args))
	for i, a := range args {
		conv[i] = coerce(a, elem)
	}
	return nestedCall(name, conv, arrow.ListOf(elem), false, func(_ *exec.EvalContext, v []any) (any, error) {
		return append([]any{}, v...), nil
	}), nil
}

// bindMapNested extends MAP(...) to nested values; keys stay primitive
// and must be non-NULL and distinct.
func bindMapNested(name string, args []Expr) (Expr, error) {
	if !anyNested(args) || len(args)%2 != 0 {
		return bindMap(name, args)
	}
	var keys, vals []Expr
	for i := 0; i < len(args); i += 2 {
		keys, vals = append(keys, args[i]), append(vals, args[i+1])
	}
	kt, err := commonTypeOf("map key", keys)
	if err != nil {
		return nil, err
	}
	vt, err := nestedCommonType("map value", vals)
	if err != nil {
		return nil, err
	}
	conv := make([]Expr, len(args))
	for i := range keys {
		conv[2*i], conv[2*i+1] = coerce(keys[i], kt), coerce(vals[i], vt)
	}
	return nestedCall(name, conv, arrow.MapOf(kt, vt), false, func(_ *exec.EvalContext, v []any) (any, error) {
		m := exec.MapValue{}
		for i := 0; i < len(v); i += 2 {
			if v[i] == nil {
				return nil, invalid("map key is NULL")
			}
			if nestedIndex(m.Keys, v[i]) >= 0 {
				return nil, invalid("duplicate map key %s", exec.FormatValue(v[i], kt))
			}
			m.Keys, m.Values = append(m.Keys, v[i]), append(m.Values, v[i+1])
		}
		return m, nil
	}), nil
}

func anyNested(args []Expr) bool {
	for _, a := range args {
		if isNested(a.DataType()) {
			return true
		}
	}
	return false
}

// resolveColumnPath resolves a column name, reading a.b (and a.b.c) as
// struct field access when no table a has a column b: Spark's s.f.
func resolveColumnPath(sc *scope, n *ast.ColumnName) (Expr, error) {
	e, err := sc.resolve(n.Table.O, n.Name.O)
	if err == nil || n.Table.O == "" || !errors.Is(err, ErrUnknownColumn) {
		return e, err
	}
	var base Expr
	var path []string
	var baseErr error
	if n.Schema.O != "" {
		if base, baseErr = sc.resolve(n.Schema.O, n.Table.O); baseErr == nil {
			path = []string{n.Name.O}
		} else if base, baseErr = sc.resolve("", n.Schema.O); baseErr == nil {
			path = []string{n.Table.O, n.Name.O}
		}
	} else {
		base, baseErr = sc.resolve("", n.Table.O)
		path = []string{n.Name.O}
	}
	if baseErr != nil {
		return nil, err
	}
	for _, f := range path {
		st, ok := base.DataType().(*arrow.StructType)
		if !ok {
			return nil, err
		}
		idx, ferr := structFieldIndex(st, f)
		if ferr != nil {
			return nil, ferr
		}
		base = structFieldCall(base, idx, st)
	}
	return base, nil
}

func isEmptyArray(e Expr) bool {
	c, ok := e.(*Call)
	return ok && c.Name == "array" && len(c.Args) == 0
}
