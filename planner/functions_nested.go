package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// subscriptMarker is the call the SQL front end (sqlexec/parser) writes
// for x[k]: __icesql_subscript(x, k).
const subscriptMarker = "__icesql_subscript"

// Functions over arrays, maps and structs, with Spark's semantics in its
// default (non-ANSI) mode, except that size and cardinality of NULL are
// NULL (ANSI) rather than -1.
func init() {
	for name, f := range map[string]funcBinder{
		subscriptMarker:    bindSubscript,
		"element_at":       bindElementAt,
		"size":             bindSize,
		"cardinality":      bindSize,
		"map_keys":         bindMapPart(true),
		"map_values":       bindMapPart(false),
		"map_contains_key": bindMapContainsKey,
		"array_contains":   bindArraySearch(false),
		"array_position":   bindArraySearch(true),
		"array_join":       bindArrayJoin,
		"sort_array":       bindSortArray,
		"array_distinct":   bindArrayDistinct,
		"array_min":        bindArrayExtreme(-1),
		"array_max":        bindArrayExtreme(1),
		"flatten":          bindFlatten,
		"slice":            bindSlice,
		"concat_ws":        bindConcatWS,
		"named_struct":     bindNamedStruct,
		"struct":           bindStruct,
		"array":            bindArrayNested,
		"map":              bindMapNested,
	} {
		functions[name] = f
	}
}

// nestedCall builds a Call evaluated over values in the
// exec.NestedValueAt form, so arguments and result may be nested.
func nestedCall(name string, args []Expr, t arrow.DataType, strict bool, fn RowFunc) *Call {
	return &Call{Name: name, Args: args, Type: t, NullStrict: strict, Fn: fn,
		Batch: func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error) {
			return exec.MapNestedRows(ec, t, n, arrs, func(v []any) (any, error) {
				if strict {
					for _, x := range v {
						if x == nil {
							return nil, nil
						}
					}
				}
				return fn(ec, v)
			})
		}}
}

// listElem returns the element type of an array type.
func listElem(t arrow.DataType) (arrow.DataType, bool) {
	switch x := t.(type) {
	case *arrow.ListType:
		return x.Elem(), true
	case *arrow.LargeListType:
		return x.Elem(), true
	}
	return nil, false
}

// sqlTypeName spells a type as SQL does, nested types included
// (ARRAY<INT>, MAP<STRING, BIGINT>, STRUCT<a: INT>), for errors.
func sqlTypeName(t arrow.DataType) string {
	switch x := t.(type) {
	case *arrow.MapType:
		return "MAP<" + sqlTypeName(x.KeyType()) + ", " + sqlTypeName(x.ItemType()) + ">"
	case *arrow.ListType:
		return "ARRAY<" + sqlTypeName(x.Elem()) + ">"
	case *arrow.LargeListType:
		return "ARRAY<" + sqlTypeName(x.Elem()) + ">"
	case *arrow.StructType:
		parts := make([]string, x.NumFields())
		for i, f := range x.Fields() {
			parts[i] = f.Name + ": " + sqlTypeName(f.Type)
		}
		return "STRUCT<" + strings.Join(parts, ", ") + ">"
	case *arrow.Decimal128Type:
		return fmt.Sprintf("DECIMAL(%d,%d)", x.Precision, x.Scale)
	}
	return typeName(t)
}

// argMismatch reports argument i (1-based) of a function having the
// wrong type, naming what was expected.
func argMismatch(name string, i int, want string, got Expr) error {
	return &TypeMismatchError{Op: fmt.Sprintf("%s (argument %d must be %s)", name, i, want), Types: []string{sqlTypeName(got.DataType())}}
}

func argCount(name string, args []Expr, lo, hi int) error {
	if len(args) >= lo && len(args) <= hi {
		return nil
	}
	switch {
	case lo == hi:
		return invalid("%s takes %d argument(s), got %d", name, lo, len(args))
	case hi > 1<<20:
		return invalid("%s takes at least %d argument(s), got %d", name, lo, len(args))
	}
	return invalid("%s takes %d to %d arguments, got %d", name, lo, hi, len(args))
}

// arrayArg checks that argument i of a call is an array and returns its
// element type; a NULL-typed argument reads as an array of NULLs.
func arrayArg(name string, args []Expr, i int) (Expr, arrow.DataType, error) {
	a := args[i]
	if a.DataType().ID() == arrow.NULL {
		return &Literal{Type: arrow.ListOf(typeNull)}, typeNull, nil
	}
	elem, ok := listElem(a.DataType())
	if !ok {
		return nil, nil, argMismatch(name, i+1, "an ARRAY", a)
	}
	return a, elem, nil
}

// arrayCallArg checks a call's argument count and that its first
// argument is an array, as arrayArg.
func arrayCallArg(name string, args []Expr, lo, hi int) (Expr, arrow.DataType, error) {
	if err := argCount(name, args, lo, hi); err != nil {
		return nil, nil, err
	}
	return arrayArg(name, args, 0)
}

// mapArg checks that argument i of a call is a map.
func mapArg(name string, args []Expr, i int) (*arrow.MapType, error) {
	mt, ok := args[i].DataType().(*arrow.MapType)
	if !ok {
		return nil, argMismatch(name, i+1, "a MAP", args[i])
	}
	return mt, nil
}

// mapCallArg checks a call's argument count and that its first argument
// is a map.
func mapCallArg(name string, args []Expr, lo, hi int) (*arrow.MapType, error) {
	if err := argCount(name, args, lo, hi); err != nil {
		return nil, err
	}
	return mapArg(name, args, 0)
}

// intArg converts argument i to BIGINT, accepting integers and NULL only.
func intArg(name string, args []Expr, i int) (Expr, error) {
	t := args[i].DataType()
	if !isInteger(t) && t.ID() != arrow.NULL {
		return nil, argMismatch(name, i+1, "an integer", args[i])
	}
	return coerce(args[i], typeLong), nil
}

// keyArg converts a lookup key to the map's key type, as Spark casts it.
func keyArg(name string, key Expr, kt arrow.DataType) (Expr, error) {
	mismatch := &TypeMismatchError{Op: name + " key", Types: []string{sqlTypeName(key.DataType()), sqlTypeName(kt)}}
	if isNested(kt) {
		if !arrow.TypeEqual(key.DataType(), kt) {
			return nil, mismatch
		}
		return key, nil
	}
	if isNested(key.DataType()) {
		return nil, mismatch
	}
	if _, ok := commonType(key.DataType(), kt); !ok && !(key.DataType().ID() == arrow.STRING && kt.ID() != arrow.BINARY) {
		return nil, mismatch
	}
	return checkArg(name, key, kt)
}

// nestedIndex returns the index of the first of xs equal to v, -1 when
// none is.
func nestedIndex(xs []any, v any) int {
	for i, x := range xs {
		if exec.CompareNested(x, v) == 0 {
			return i
		}
	}
	return -1
}

// mapLookup returns the value of key k in m, nil when absent.
func mapLookup(m exec.MapValue, k any) any {
	if i := nestedIndex(m.Keys, k); i >= 0 {
		return m.Values[i]
	}
	return nil
}

// bindSubscript binds x[k]: a map lookup (NULL when absent), a 0-based
// array index (NULL out of range) or a struct field named by a string
// literal.
func bindSubscript(_ string, args []Expr) (Expr, error) {
	const name = "subscript"
	if len(args) != 2 {
		return nil, invalid("malformed %s call", subscriptMarker)
	}
	switch t := args[0].DataType().(type) {
	case *arrow.MapType:
		return bindMapGet(name, args[0], args[1], t)
	case *arrow.StructType:
		return bindStructField(args[0], args[1], t)
	}
	if _, ok := listElem(args[0].DataType()); ok {
		return bindArrayGet(name, args, 0)
	}
	return nil, &TypeMismatchError{Op: "subscript [] (only arrays, maps and structs have elements)", Types: []string{sqlTypeName(args[0].DataType())}}
}

// bindElementAt binds element_at(map, key) and element_at(array, i) with
// a 1-based i counting from the end when negative.
func bindElementAt(name string, args []Expr) (Expr, error) {
	if err := argCount(name, args, 2, 2); err != nil {
		return nil, err
	}
	if mt, ok := args[0].DataType().(*arrow.MapType); ok {
		return bindMapGet(name, args[0], args[1], mt)
	}
	if _, ok := listElem(args[0].DataType()); !ok {
		return nil, argMismatch(name, 1, "an ARRAY or a MAP", args[0])
	}
	return bindArrayGet(name, args, 1)
}

func bindMapGet(name string, m, key Expr, mt *arrow.MapType) (Expr, error) {
	k, err := keyArg(name, key, mt.KeyType())
	if err != nil {
		return nil, err
	}
	return nestedCall(name, []Expr{m, k}, mt.ItemType(), true, func(_ *exec.EvalContext, v []any) (any, error) {
		return mapLookup(v[0].(exec.MapValue), v[1]), nil
	}), nil
}

// bindArrayGet binds an array index: base 0 is the subscript (negative
// or past the end gives NULL), base 1 is element_at (0 is an error,
// negative counts from the end).
func bindArrayGet(name string, args []Expr, base int64) (Expr, error) {
	elem, _ := listElem(args[0].DataType())
	idx, err := intArg(name, args, 1)
	if err != nil {
		return nil, err
	}
	return nestedCall(name, []Expr{args[0], idx}, elem, true, func(_ *exec.EvalContext, v []any) (any, error) {
		arr, i := v[0].([]any), v[1].(int64)
		n := int64(len(arr))
		if base == 1 {
			switch {
			case i == 0:
				return nil, invalid("%s: SQL array indices start at 1", name)
			case i < 0:
				i += n
			default:
				i--
			}
		}
		if i < 0 || i >= n {
			return nil, nil
		}
		return arr[i], nil
	}), nil
}

// bindSize binds size/cardinality: the element count of an array or map,
// NULL for NULL.
func bindSize(name string, args []Expr) (Expr, error) {
	if err := argCount(name, args, 1, 1); err != nil {
		return nil, err
	}
	t := args[0].DataType()
	_, isList := listElem(t)
	if !isList && t.ID() != arrow.MAP && t.ID() != arrow.NULL {
		return nil, argMismatch(name, 1, "an ARRAY or a MAP", args[0])
	}
	return nestedCall(name, args, typeInt, true, func(_ *exec.EvalContext, v []any) (any, error) {
		switch x := v[0].(type) {
		case []any:
			return int32(len(x)), nil
		case exec.MapValue:
			return int32(len(x.Keys)), nil
		}
		return nil, nil
	}), nil
}

// bindMapPart binds map_keys (keys true) and map_values.
func bindMapPart(keys bool) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		mt, err := mapCallArg(name, args, 1, 1)
		if err != nil {
			return nil, err
		}
		et := mt.ItemType()
		if keys {
			et = mt.KeyType()
		}
		return nestedCall(name, args, arrow.ListOf(et), true, func(_ *exec.EvalContext, v []any) (any, error) {
			m := v[0].(exec.MapValue)
			if keys {
				return append([]any{}, m.Keys...), nil
			}
			return append([]any{}, m.Values...), nil
		}), nil
	}
}

func bindMapContainsKey(name string, args []Expr) (Expr, error) {
	mt, err := mapCallArg(name, args, 2, 2)
	if err != nil {
		return nil, err
	}
	k, err := keyArg(name, args[1], mt.KeyType())
	if err != nil {
		return nil, err
	}
	return nestedCall(name, []Expr{args[0], k}, typeBool, true, func(_ *exec.EvalContext, v []any) (any, error) {
		return nestedIndex(v[0].(exec.MapValue).Keys, v[1]) >= 0, nil
	}), nil
}

// unmarkSubscripts turns the front end's subscript markers in restored
// SQL text back into x[k], so output column names read as written.
func unmarkSubscripts(s string) string {
	const open = subscriptMarker + "("
	for {
		at := strings.Index(s, open)
		if at < 0 {
			return s
		}
		start := at + len(open)
		comma, _, end := topLevelSplit(s, start)
		if end < 0 || comma < 0 {
			return s
		}
		s = s[:at] + s[start:comma] + "[" + strings.TrimSpace(s[comma+1:end]) + "]" + s[end+1:]
	}
}

// topLevelSplit finds, from start, the first and last commas and the
// closing parenthesis at depth 0, skipping quoted text (-1 when absent).
func topLevelSplit(s string, start int) (first, last, end int) {
	depth, first, last := 0, -1, -1
	var quote byte
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			depth++
		case c == ')' && depth == 0:
			return first, last, i
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last, -1
}
