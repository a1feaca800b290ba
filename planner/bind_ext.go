package planner

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/sqlexec/exec"
)

// castMarker is the call the SQL front end (sqlexec/parser) writes for
// CAST(x AS <Spark type>): __icesql_cast(x, '<Iceberg type name>').
const castMarker = "__icesql_cast"

// emptyInListMarker is the only item the SQL front end writes for the
// empty list of x IN () (TiDB needs one): the list is bound as empty.
const emptyInListMarker = "__icesql_empty_in_list"

// uuidType is Iceberg's uuid in Arrow form (the arrow.uuid extension
// type, distinct from fixed[16]).
var uuidType = arrowschema.UUIDType()

// castTarget maps the type name of a cast marker to an engine type and,
// for SMALLINT and TINYINT (stored as INT), the range values must fit.
func castTarget(name string) (t arrow.DataType, lo, hi int64, err error) {
	lo, hi = math.MinInt64, math.MaxInt64
	switch name {
	case "boolean":
		return typeBool, lo, hi, nil
	case "int":
		return typeInt, lo, hi, nil
	case "smallint":
		return typeInt, math.MinInt16, math.MaxInt16, nil
	case "tinyint":
		return typeInt, math.MinInt8, math.MaxInt8, nil
	case "long":
		return typeLong, lo, hi, nil
	case "float":
		return typeFloat, lo, hi, nil
	case "double":
		return typeDouble, lo, hi, nil
	case "string":
		return typeString, lo, hi, nil
	case "binary":
		return typeBinary, lo, hi, nil
	case "date":
		return typeDate, lo, hi, nil
	case "time":
		return typeTime, lo, hi, nil
	case "timestamp":
		return typeTimestamp, lo, hi, nil
	case "timestamptz":
		return typeTimestampTZ, lo, hi, nil
	case "unknown":
		// only NULL casts to it: values of unknown are always null
		return typeNull, lo, hi, nil
	case "timestamp_ns":
		return typeTimestampNs, lo, hi, nil
	case "timestamptz_ns":
		return typeTimestampTZNs, lo, hi, nil
	case "uuid":
		return uuidType, lo, hi, nil
	case "variant":
		return typeVariant, lo, hi, nil
	}
	var p, s, n int
	if _, e := fmt.Sscanf(name, "decimal(%d,%d)", &p, &s); e == nil && p >= 1 && p <= 38 && s >= 0 && s <= p {
		return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(s)}, lo, hi, nil
	}
	if _, e := fmt.Sscanf(name, "fixed[%d]", &n); e == nil && n > 0 {
		return &arrow.FixedSizeBinaryType{ByteWidth: n}, lo, hi, nil
	}
	return nil, lo, hi, unsupported("CAST to %s", name)
}

func (b *binder) bindSparkCast(x *ast.FuncCallExpr, sc *scope) (Expr, error) {
	var name string
	if len(x.Args) == 2 {
		if v, ok := x.Args[1].(*driver.ValueExpr); ok && v.Kind() == driver.KindString {
			name = v.GetString()
		}
	}
	if name == "" {
		return nil, invalid("malformed %s call", castMarker)
	}
	t, lo, hi, err := castTarget(name)
	if err != nil {
		return nil, err
	}
	e, err := b.bindExpr(x.Args[0], sc)
	if err != nil {
		return nil, err
	}
	if lo == math.MinInt64 {
		return castTo(e, t)
	}
	// SMALLINT / TINYINT: an INT checked against the narrower range
	wide, err := castTo(e, typeLong)
	if err != nil {
		return nil, err
	}
	check := &Call{Name: "cast_" + name, Args: []Expr{wide}, Type: typeInt, NullStrict: true,
		Fn: func(_ *exec.EvalContext, v []any) (any, error) {
			i := v[0].(int64)
			if i < lo || i > hi {
				return nil, &exec.CastError{Value: fmt.Sprint(i), From: "bigint", To: name}
			}
			return int32(i), nil
		}}
	if l, ok := wide.(*Literal); ok && l.Value != nil {
		// fold now so an out-of-range literal fails at bind, like other casts
		v, err := check.Fn(nil, []any{l.Value})
		if err != nil {
			return nil, err
		}
		return &Literal{Value: v, Type: typeInt}, nil
	}
	return check, nil
}

// bindArray binds ARRAY(a, b, ...): a list of the elements' common type.
func bindArray(name string, args []Expr) (Expr, error) {
	elem := arrow.DataType(typeNull)
	var err error
	if len(args) > 0 {
		if elem, err = commonTypeOf("array", args); err != nil {
			return nil, err
		}
	} else {
		elem = typeString // Spark types array() as array<string> too (void there)
	}
	if isNested(elem) {
		return nil, unsupported("ARRAY of %s", typeName(elem))
	}
	cargs := make([]Expr, len(args))
	for i, a := range args {
		cargs[i] = coerce(a, elem)
	}
	return &Call{Name: "array", Args: cargs, Type: arrow.ListOf(elem),
		Fn: func(_ *exec.EvalContext, v []any) (any, error) {
			return append([]any{}, v...), nil
		}}, nil
}

// bindMap binds MAP(k1, v1, k2, v2, ...); keys must be non-NULL and
// distinct, as Spark requires.
func bindMap(name string, args []Expr) (Expr, error) {
	if len(args)%2 != 0 {
		return nil, invalid("map() needs key/value pairs, got %d arguments", len(args))
	}
	var keys, vals []Expr
	for i := 0; i < len(args); i += 2 {
		keys, vals = append(keys, args[i]), append(vals, args[i+1])
	}
	kt, vt := arrow.DataType(typeString), arrow.DataType(typeString)
	var err error
	if len(keys) > 0 {
		if kt, err = commonTypeOf("map key", keys); err != nil {
			return nil, err
		}
		if vt, err = commonTypeOf("map value", vals); err != nil {
			return nil, err
		}
	}
	if isNested(kt) || isNested(vt) {
		return nil, unsupported("MAP of %s to %s", typeName(kt), typeName(vt))
	}
	cargs := make([]Expr, len(args))
	for i, a := range args {
		t := kt
		if i%2 == 1 {
			t = vt
		}
		cargs[i] = coerce(a, t)
	}
	return &Call{Name: "map", Args: cargs, Type: arrow.MapOf(kt, vt),
		Fn: func(_ *exec.EvalContext, v []any) (any, error) {
			m := exec.MapValue{}
			for i := 0; i < len(v); i += 2 {
				if v[i] == nil {
					return nil, &exec.CastError{Value: "NULL", From: "map key", To: typeName(kt)}
				}
				for _, k := range m.Keys {
					if exec.CompareValues(k, v[i]) == 0 {
						return nil, fmt.Errorf("%w: duplicate map key %s", ErrInvalidQuery, exec.FormatValue(v[i], kt))
					}
				}
				m.Keys, m.Values = append(m.Keys, v[i]), append(m.Values, v[i+1])
			}
			return m, nil
		}}, nil
}

var constructorFuncs = map[string]funcBinder{"array": bindArray, "map": bindMap}

func isNested(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.STRUCT:
		return true
	}
	return false
}

// unmarkRestored turns the front end's cast markers in restored SQL text
// back into CAST(x AS type), so output column names read as written.
func unmarkRestored(s string) string {
	const open = castMarker + "("
	for {
		at := strings.Index(s, open)
		if at < 0 {
			return s
		}
		start := at + len(open)
		_, comma, end := topLevelSplit(s, start)
		if end < 0 || comma < 0 {
			return s
		}
		typ := strings.TrimSpace(s[comma+1 : end])
		typ = strings.TrimPrefix(typ, "_utf8mb4")
		typ = strings.Trim(typ, "'")
		s = s[:at] + "cast(" + s[start:comma] + " as " + typ + ")" + s[end+1:]
	}
}
