package planner

import (
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// searchArgs unifies an array and a value searched for in it: the value
// converts to the element type, or both to a wider common type.
func searchArgs(name string, args []Expr) (arr, val Expr, err error) {
	arr, elem, err := arrayArg(name, args, 0)
	if err != nil {
		return nil, nil, err
	}
	val = args[1]
	vt := val.DataType()
	mismatch := func() error {
		return &TypeMismatchError{Op: name, Types: []string{sqlTypeName(arr.DataType()), sqlTypeName(vt)}}
	}
	if isNested(elem) || isNested(vt) {
		if !arrow.TypeEqual(elem, vt) && vt.ID() != arrow.NULL {
			return nil, nil, mismatch()
		}
		return arr, coerce(val, elem), nil
	}
	t, ok := commonType(elem, vt)
	if !ok {
		return nil, nil, mismatch()
	}
	if !arrow.TypeEqual(t, elem) {
		arr = coerce(arr, arrow.ListOf(t))
	}
	return arr, coerce(val, t), nil
}

// bindArraySearch binds array_contains (position false: true, false, or
// NULL when absent but the array holds a NULL) and array_position (the
// 1-based position of the first match, 0 when absent).
func bindArraySearch(position bool) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if err := argCount(name, args, 2, 2); err != nil {
			return nil, err
		}
		arr, val, err := searchArgs(name, args)
		if err != nil {
			return nil, err
		}
		t := arrow.DataType(typeBool)
		if position {
			t = typeLong
		}
		return nestedCall(name, []Expr{arr, val}, t, true, func(_ *exec.EvalContext, v []any) (any, error) {
			sawNull := false
			for i, x := range v[0].([]any) {
				if x == nil {
					sawNull = true
				} else if exec.CompareNested(x, v[1]) == 0 {
					if position {
						return int64(i + 1), nil
					}
					return true, nil
				}
			}
			switch {
			case position:
				return int64(0), nil
			case sawNull:
				return nil, nil
			}
			return false, nil
		}), nil
	}
}

// bindArrayJoin binds array_join(array<string>, sep[, nullReplacement]):
// NULL elements are skipped unless a replacement is given.
func bindArrayJoin(name string, args []Expr) (Expr, error) {
	arr, elem, err := arrayCallArg(name, args, 2, 3)
	if err != nil {
		return nil, err
	}
	if elem.ID() != arrow.STRING && elem.ID() != arrow.NULL {
		return nil, argMismatch(name, 1, "an ARRAY<STRING>", args[0])
	}
	conv := []Expr{arr}
	for i, a := range args[1:] {
		if a.DataType().ID() != arrow.STRING && a.DataType().ID() != arrow.NULL {
			return nil, argMismatch(name, i+2, "a STRING", a)
		}
		conv = append(conv, coerce(a, typeString))
	}
	return nestedCall(name, conv, typeString, true, func(_ *exec.EvalContext, v []any) (any, error) {
		var sb strings.Builder
		first := true
		for _, x := range v[0].([]any) {
			if x == nil {
				if len(v) < 3 {
					continue
				}
				x = v[2]
			}
			if !first {
				sb.WriteString(v[1].(string))
			}
			first = false
			sb.WriteString(x.(string))
		}
		return sb.String(), nil
	}), nil
}

// orderable rejects arrays whose elements have no order.
func orderable(name string, arr Expr, elem arrow.DataType) error {
	if elem.ID() == arrow.MAP {
		return argMismatch(name, 1, "an ARRAY of orderable elements", arr)
	}
	return nil
}

// bindSortArray binds sort_array(arr[, ascending]): NULLs first when
// ascending, last when descending; the order must be a boolean literal.
func bindSortArray(name string, args []Expr) (Expr, error) {
	arr, elem, err := arrayCallArg(name, args, 1, 2)
	if err != nil {
		return nil, err
	}
	if err := orderable(name, arr, elem); err != nil {
		return nil, err
	}
	asc := true
	if len(args) == 2 {
		// TiDB reads TRUE and FALSE as the integers 1 and 0
		l, ok := args[1].(*Literal)
		switch v := literalValue(l, ok).(type) {
		case bool:
			asc = v
		case int64:
			asc = v != 0
		default:
			return nil, argMismatch(name, 2, "a boolean literal", args[1])
		}
	}
	return nestedCall(name, []Expr{arr}, arr.DataType(), true, func(_ *exec.EvalContext, v []any) (any, error) {
		out := slices.Clone(v[0].([]any))
		slices.SortStableFunc(out, func(a, b any) int {
			if asc {
				return exec.CompareNested(a, b)
			}
			return exec.CompareNested(b, a)
		})
		return out, nil
	}), nil
}

func literalValue(l *Literal, ok bool) any {
	if !ok {
		return nil
	}
	return l.Value
}

// distinctKey is a comparable stand-in for a primitive value, so
// array_distinct runs in linear time; ok is false for nested values.
func distinctKey(v any) (any, bool) {
	switch x := v.(type) {
	case []byte:
		return string(x), true
	case float64:
		if math.IsNaN(x) {
			return "NaN", true // NaN equals NaN here, as in Spark
		}
	case float32:
		if math.IsNaN(float64(x)) {
			return "NaN", true
		}
	case []any, exec.MapValue, exec.StructValue:
		return nil, false
	}
	return v, true
}

func bindArrayDistinct(name string, args []Expr) (Expr, error) {
	arr, _, err := arrayCallArg(name, args, 1, 1)
	if err != nil {
		return nil, err
	}
	return nestedCall(name, []Expr{arr}, arr.DataType(), true, func(_ *exec.EvalContext, v []any) (any, error) {
		in := v[0].([]any)
		out := make([]any, 0, len(in))
		seen := make(map[any]bool, len(in))
		sawNull := false
	next:
		for _, x := range in {
			if x == nil {
				if !sawNull {
					out = append(out, nil)
				}
				sawNull = true
				continue
			}
			if k, ok := distinctKey(x); ok {
				if !seen[k] {
					seen[k] = true
					out = append(out, x)
				}
				continue
			}
			for _, y := range out {
				if y != nil && exec.CompareNested(x, y) == 0 {
					continue next
				}
			}
			out = append(out, x)
		}
		return out, nil
	}), nil
}

// bindArrayExtreme binds array_min (sign -1) and array_max (sign 1):
// NULL elements are skipped; an empty or all-NULL array gives NULL.
func bindArrayExtreme(sign int) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		arr, elem, err := arrayCallArg(name, args, 1, 1)
		if err != nil {
			return nil, err
		}
		if err := orderable(name, arr, elem); err != nil {
			return nil, err
		}
		return nestedCall(name, []Expr{arr}, elem, true, func(_ *exec.EvalContext, v []any) (any, error) {
			var best any
			for _, x := range v[0].([]any) {
				if x != nil && (best == nil || exec.CompareNested(x, best)*sign > 0) {
					best = x
				}
			}
			return best, nil
		}), nil
	}
}

// bindFlatten binds flatten(array<array<T>>): NULL when the outer array
// or any inner array is NULL.
func bindFlatten(name string, args []Expr) (Expr, error) {
	arr, elem, err := arrayCallArg(name, args, 1, 1)
	if err != nil {
		return nil, err
	}
	if _, ok := listElem(elem); !ok {
		return nil, argMismatch(name, 1, "an ARRAY of ARRAYs", args[0])
	}
	return nestedCall(name, []Expr{arr}, elem, true, func(_ *exec.EvalContext, v []any) (any, error) {
		var out []any
		for _, x := range v[0].([]any) {
			if x == nil {
				return nil, nil
			}
			out = append(out, x.([]any)...)
		}
		if out == nil {
			out = []any{}
		}
		return out, nil
	}), nil
}

// bindSlice binds slice(arr, start, length): start is 1-based (negative
// counts from the end, 0 is an error), length must not be negative.
func bindSlice(name string, args []Expr) (Expr, error) {
	arr, _, err := arrayCallArg(name, args, 3, 3)
	if err != nil {
		return nil, err
	}
	start, err := intArg(name, args, 1)
	if err != nil {
		return nil, err
	}
	length, err := intArg(name, args, 2)
	if err != nil {
		return nil, err
	}
	return nestedCall(name, []Expr{arr, start, length}, arr.DataType(), true, func(_ *exec.EvalContext, v []any) (any, error) {
		in, s, n := v[0].([]any), v[1].(int64), v[2].(int64)
		size := int64(len(in))
		switch {
		case s == 0:
			return nil, invalid("%s: start must not be 0 (SQL array indices start at 1)", name)
		case n < 0:
			return nil, invalid("%s: length must be at least 0, got %d", name, n)
		case s < 0:
			s += size
		default:
			s--
		}
		if s < 0 || s >= size {
			return []any{}, nil
		}
		end := s + min(n, size-s)
		return slices.Clone(in[s:end]), nil
	}), nil
}

// bindConcatWS binds concat_ws(sep, ...): strings and arrays of strings
// joined by sep, skipping NULLs (NULL only when sep is NULL).
func bindConcatWS(name string, args []Expr) (Expr, error) {
	if err := argCount(name, args, 1, math.MaxInt32); err != nil {
		return nil, err
	}
	conv := make([]Expr, len(args))
	for i, a := range args {
		t := a.DataType()
		if elem, ok := listElem(t); ok && i > 0 {
			if elem.ID() != arrow.STRING && elem.ID() != arrow.NULL {
				return nil, argMismatch(name, i+1, "a STRING or an ARRAY<STRING>", a)
			}
			conv[i] = a
			continue
		}
		if isNested(t) || t.ID() == arrow.BINARY {
			return nil, argMismatch(name, i+1, "a STRING or an ARRAY<STRING>", a)
		}
		conv[i] = coerce(a, typeString)
	}
	return nestedCall(name, conv, typeString, false, func(_ *exec.EvalContext, v []any) (any, error) {
		if v[0] == nil {
			return nil, nil
		}
		sep := v[0].(string)
		var parts []string
		for _, x := range v[1:] {
			switch y := x.(type) {
			case string:
				parts = append(parts, y)
			case []any:
				for _, e := range y {
					if s, ok := e.(string); ok {
						parts = append(parts, s)
					}
				}
			}
		}
		return strings.Join(parts, sep), nil
	}), nil
}
