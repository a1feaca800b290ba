package sqlexec

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

// argKind is a procedure parameter's type, as Spark declares it.
type argKind int

const (
	argString argKind = iota
	argInt
	argLong
	argBool
	argTimestamp
	argLongArray
	argStringMap
	argStringArray
)

func (k argKind) String() string {
	return [...]string{"a string", "an int", "a long", "a boolean", "a timestamp",
		"an array of longs", "a map of strings", "an array of strings"}[k]
}

// procParam is one parameter of a procedure, in Spark's positional order.
type procParam struct {
	name     string
	kind     argKind
	required bool
	// unsupported marks a Spark parameter this engine does not implement:
	// giving it is an error rather than being silently ignored.
	unsupported bool
}

// callArgs are a CALL's arguments after binding: by parameter name, typed
// per argKind (string, int64, bool, time.Time, []int64, map[string]string,
// []string). NULL arguments are absent, as in Spark.
type callArgs map[string]any

func (a callArgs) str(name string) (string, bool) {
	v, ok := a[name].(string)
	return v, ok
}

func (a callArgs) long(name string) (int64, bool) {
	v, ok := a[name].(int64)
	return v, ok
}

func (a callArgs) boolean(name string) bool {
	v, _ := a[name].(bool)
	return v
}

func (a callArgs) timestamp(name string) (time.Time, bool) {
	v, ok := a[name].(time.Time)
	return v, ok
}

// bindCallArgs matches the written arguments to the procedure's
// parameters and evaluates each to its parameter's type.
func (s *Session) bindCallArgs(ctx context.Context, p *procedure, args []parser.CallArg) (callArgs, error) {
	bad := argErrorf(p.name)
	given := map[string]*parser.Expr{}
	for i, a := range args {
		var prm *procParam
		if a.Name == "" {
			if i >= len(p.params) {
				return nil, bad(fmt.Sprintf("#%d", i+1), "too many arguments: %s takes at most %d", p.name, len(p.params))
			}
			prm = &p.params[i]
		} else {
			prm = p.param(a.Name)
			if prm == nil {
				return nil, bad(a.Name, "unknown argument (%s takes %s)", p.name, p.paramNames())
			}
		}
		if _, dup := given[prm.name]; dup {
			return nil, bad(prm.name, "given more than once")
		}
		given[prm.name] = a.Value
	}
	out := callArgs{}
	for i := range p.params {
		prm := &p.params[i]
		e, ok := given[prm.name]
		if !ok {
			if prm.required {
				return nil, bad(prm.name, "missing (required)")
			}
			continue
		}
		if prm.unsupported {
			return nil, bad(prm.name, "not supported by this engine")
		}
		v, err := s.evalCallArg(ctx, prm.kind, e.Node)
		if err != nil {
			return nil, bad(prm.name, "%v", err)
		}
		if v == nil {
			if prm.required {
				return nil, bad(prm.name, "must not be NULL")
			}
			continue
		}
		out[prm.name] = v
	}
	return out, nil
}

// evalCallArg evaluates an argument expression to the Go form of kind.
// ARRAY(...) / MAP(...) are taken apart here (the query engine has no
// collection constructors); everything else is a constant expression.
func (s *Session) evalCallArg(ctx context.Context, kind argKind, e ast.ExprNode) (any, error) {
	switch kind {
	case argLongArray, argStringArray:
		if v, isValue := e.(ast.ValueExpr); isValue && v.GetValue() == nil {
			return nil, nil // NULL: the argument is not given
		}
		var items []ast.ExprNode
		switch x := e.(type) {
		case *ast.FuncCallExpr:
			if x.FnName.L == "array" {
				items = x.Args
			}
		case *ast.RowExpr:
			items = x.Values
		}
		if items == nil {
			items = []ast.ExprNode{e} // a lone value is a one-element array
		}
		elem := argLong
		if kind == argStringArray {
			elem = argString
		}
		var longs []int64
		var strs []string
		for i, it := range items {
			v, err := s.evalCallArg(ctx, elem, it)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i+1, err)
			}
			switch x := v.(type) {
			case nil:
				return nil, fmt.Errorf("element %d is NULL", i+1)
			case int64:
				longs = append(longs, x)
			case string:
				strs = append(strs, x)
			}
		}
		if kind == argStringArray {
			return strs, nil
		}
		return longs, nil
	case argStringMap:
		if v, isValue := e.(ast.ValueExpr); isValue && v.GetValue() == nil {
			return nil, nil // NULL: the argument is not given
		}
		f, ok := e.(*ast.FuncCallExpr)
		if !ok || f.FnName.L != "map" {
			return nil, fmt.Errorf("must be %s, written map('key', 'value', ...)", kind)
		}
		if len(f.Args)%2 != 0 {
			return nil, fmt.Errorf("map() needs key/value pairs, got %d values", len(f.Args))
		}
		m := make(map[string]string, len(f.Args)/2)
		for i := 0; i < len(f.Args); i += 2 {
			k, err := s.evalCallArg(ctx, argString, f.Args[i])
			if err != nil || k == nil {
				return nil, fmt.Errorf("map key %d must be a non-NULL string", i/2+1)
			}
			v, err := s.evalCallArg(ctx, argString, f.Args[i+1])
			if err != nil || v == nil {
				return nil, fmt.Errorf("map value for %q must be a non-NULL string", k)
			}
			if _, dup := m[k.(string)]; dup {
				return nil, fmt.Errorf("map key %q given twice", k)
			}
			m[k.(string)] = v.(string)
		}
		return m, nil
	}
	v, t, err := s.evalConst(ctx, e)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	return convertCallArg(kind, v, t)
}

// convertCallArg converts an evaluated constant to kind. Conversions are
// strict (no string to number), except that timestamps may be written as
// strings and booleans as MySQL's 0/1 (TRUE is 1 to the parser).
func convertCallArg(kind argKind, v any, t arrow.DataType) (any, error) {
	wrong := func() error { return fmt.Errorf("must be %s, got %s", kind, describeValue(v, t)) }
	switch kind {
	case argString:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case argInt, argLong:
		var n int64
		switch x := v.(type) {
		case int32:
			n = int64(x)
		case int64:
			n = x
		default:
			return nil, wrong()
		}
		if kind == argInt && (n < -1<<31 || n > 1<<31-1) {
			return nil, fmt.Errorf("%d is out of range for an int", n)
		}
		return n, nil
	case argBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			if x == 0 || x == 1 {
				return x == 1, nil
			}
		}
	case argTimestamp:
		switch x := v.(type) {
		case arrow.Timestamp:
			unit := arrow.Microsecond
			if tt, ok := t.(*arrow.TimestampType); ok {
				unit = tt.Unit
			}
			return x.ToTime(unit), nil
		case arrow.Date32:
			return x.ToTime(), nil
		case string:
			out, err := exec.CastValue(x, arrow.BinaryTypes.String, tTimestamp)
			if err != nil {
				return nil, fmt.Errorf("%q is not a timestamp: %v", x, err)
			}
			ts, ok := out.(arrow.Timestamp)
			if !ok {
				return nil, wrong()
			}
			return ts.ToTime(tTimestamp.(*arrow.TimestampType).Unit), nil
		}
	}
	return nil, wrong()
}

func describeValue(v any, t arrow.DataType) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("the string %q", s)
	}
	name := "a value"
	if t != nil {
		name = strings.ToLower(t.String())
	}
	return fmt.Sprintf("%v (%s)", v, name)
}

// evalConst evaluates a constant expression (placeholders already bound).
func (s *Session) evalConst(ctx context.Context, e ast.ExprNode) (any, arrow.DataType, error) {
	sel := &ast.SelectStmt{Kind: ast.SelectStmtKindSelect, Fields: &ast.FieldList{Fields: []*ast.SelectField{{Expr: e}}}}
	q, err := s.bindQuery(ctx, sel, nil)
	if err != nil {
		return nil, nil, err
	}
	it, err := q.run(ctx)
	if err != nil {
		return nil, nil, err
	}
	batches, err := exec.Collect(ctx, it)
	if err != nil {
		return nil, nil, err
	}
	defer exec.ReleaseAll(batches)
	if len(batches) == 0 || batches[0].NumRows() != 1 {
		return nil, nil, fmt.Errorf("must be a single constant value")
	}
	col := batches[0].Column(0)
	return exec.ValueAt(col, 0), col.DataType(), nil
}
