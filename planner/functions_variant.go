package planner

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/parquet/variant"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/sqlexec/exec"
)

// Functions over Iceberg's variant type, with Spark's names and
// semantics: parse_json, try_parse_json, to_json, variant_get,
// try_variant_get and is_variant_null. The binary encoding is arrow-go's
// (parquet/variant).
func init() {
	for name, f := range map[string]funcBinder{
		"parse_json":      bindParseJSON(false),
		"try_parse_json":  bindParseJSON(true),
		"to_json":         bindToJSON,
		"variant_get":     bindVariantGet(false),
		"try_variant_get": bindVariantGet(true),
		"is_variant_null": bindIsVariantNull,
	} {
		functions[name] = f
	}
}

// typeVariant is the engine type of Iceberg's variant.
var typeVariant = mustArrow(iceberg.VariantType{})

func mustArrow(t iceberg.Type) arrow.DataType {
	at, err := arrowschema.TypeToArrow(t)
	if err != nil {
		panic(err)
	}
	return at
}

func variantArg(name string, i int, e Expr) error {
	if !exec.IsVariant(e.DataType()) && e.DataType().ID() != arrow.NULL {
		return argMismatch(name, i, "a VARIANT", e)
	}
	return nil
}

// batchCall is a Call computed over whole argument arrays.
func batchCall(name string, args []Expr, t arrow.DataType, fn func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error)) *Call {
	return &Call{Name: name, Args: args, Type: t, Batch: fn,
		Fn: func(*exec.EvalContext, []any) (any, error) {
			return nil, unsupported("%s evaluated row by row", name)
		}}
}

func bindParseJSON(try bool) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if err := argCount(name, args, 1, 1); err != nil {
			return nil, err
		}
		s, err := checkArg(name, args[0], typeString)
		if err != nil {
			return nil, err
		}
		s, err = castTo(s, typeString)
		if err != nil {
			return nil, err
		}
		return batchCall(name, []Expr{s}, typeVariant, func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error) {
			b := array.NewBuilder(ec.Mem, typeVariant).(*extensions.VariantBuilder)
			defer b.Release()
			strs, isStr := arrs[0].(*array.String)
			for i := range n {
				if !isStr || strs.IsNull(i) {
					b.AppendNull()
					continue
				}
				v, err := variant.ParseJSON(strs.Value(i), false)
				if err != nil {
					if try {
						b.AppendNull()
						continue
					}
					return nil, invalid("%s: malformed JSON %q: %v", name, truncate(strs.Value(i), 40), err)
				}
				b.Append(v)
			}
			return b.NewArray(), nil
		}), nil
	}
}

func bindToJSON(name string, args []Expr) (Expr, error) {
	if err := argCount(name, args, 1, 1); err != nil {
		return nil, err
	}
	if err := variantArg(name, 1, args[0]); err != nil {
		return nil, err
	}
	return batchCall(name, args, typeString, func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error) {
		if arrs[0].DataType().ID() == arrow.NULL {
			return array.MakeArrayOfNull(ec.Mem, typeString, n), nil
		}
		return exec.VariantToJSON(ec, arrs[0])
	}), nil
}

func bindIsVariantNull(name string, args []Expr) (Expr, error) {
	if err := argCount(name, args, 1, 1); err != nil {
		return nil, err
	}
	if err := variantArg(name, 1, args[0]); err != nil {
		return nil, err
	}
	return batchCall(name, args, typeBool, func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error) {
		b := array.NewBooleanBuilder(ec.Mem)
		defer b.Release()
		va, _ := arrs[0].(*extensions.VariantArray)
		for i := range n {
			// SQL NULL is not a variant null (Spark)
			if va == nil || va.Storage().IsNull(i) {
				b.Append(false)
				continue
			}
			v, err := va.Value(i)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			b.Append(v.Type() == variant.Null)
		}
		return b.NewArray(), nil
	}), nil
}

// bindVariantGet binds variant_get(v, path, type): the value at a JSON
// path ($, .field, ['field'], [index]) cast to type; NULL when the path is
// absent. A value that does not cast is an error, or NULL for
// try_variant_get.
func bindVariantGet(try bool) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if err := argCount(name, args, 2, 3); err != nil {
			return nil, err
		}
		if err := variantArg(name, 1, args[0]); err != nil {
			return nil, err
		}
		pathLit, ok := args[1].(*Literal)
		if !ok || pathLit.Type.ID() != arrow.STRING {
			return nil, invalid("%s: the path must be a string literal", name)
		}
		path, err := parseVariantPath(pathLit.Value.(string))
		if err != nil {
			return nil, invalid("%s: %v", name, err)
		}
		target := typeVariant
		if len(args) == 3 {
			tl, ok := args[2].(*Literal)
			if !ok || tl.Type.ID() != arrow.STRING {
				return nil, invalid("%s: the type must be a string literal", name)
			}
			if target, err = variantTargetType(tl.Value.(string)); err != nil {
				return nil, err
			}
		}
		return batchCall(name, args[:1], target, func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error) {
			b := array.NewBuilder(ec.Mem, target)
			defer b.Release()
			va, _ := arrs[0].(*extensions.VariantArray)
			for i := range n {
				if va == nil || va.Storage().IsNull(i) {
					b.AppendNull()
					continue
				}
				v, err := va.Value(i)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				leaf, found, err := v.GetByPath(path)
				if err != nil || !found {
					// a field of a non-object is absent, as in Spark
					b.AppendNull()
					continue
				}
				if err := appendVariantAs(b, leaf, target); err != nil {
					if try {
						b.AppendNull()
						continue
					}
					return nil, fmt.Errorf("%s: %w", name, err)
				}
			}
			return b.NewArray(), nil
		}), nil
	}
}

// appendVariantAs appends a variant value cast to target.
func appendVariantAs(b array.Builder, v variant.Value, target arrow.DataType) error {
	if vb, ok := b.(*extensions.VariantBuilder); ok {
		vb.Append(v.Clone())
		return nil
	}
	if v.Type() == variant.Null {
		b.AppendNull()
		return nil
	}
	var val any
	var from arrow.DataType
	switch x := v.Value().(type) {
	case bool:
		val, from = x, typeBool
	case int8:
		val, from = int32(x), typeInt
	case int16:
		val, from = int32(x), typeInt
	case int32:
		val, from = x, typeInt
	case int64:
		val, from = x, typeLong
	case float32:
		val, from = x, typeFloat
	case float64:
		val, from = x, typeDouble
	case string:
		val, from = strings.Clone(x), typeString
	case arrow.Date32:
		val, from = x, typeDate
	case []byte:
		val, from = append([]byte(nil), x...), typeBinary
	default:
		// objects, arrays, decimals, timestamps, uuids: through their JSON
		// text, which casts to STRING as is
		text, err := v.MarshalJSON()
		if err != nil {
			return err
		}
		s := string(text)
		if target.ID() != arrow.STRING {
			s = strings.Trim(s, `"`)
		}
		val, from = s, typeString
	}
	if target.ID() == arrow.STRING && from.ID() != arrow.STRING {
		// Spark renders non-string values as their JSON text
		text, err := v.MarshalJSON()
		if err != nil {
			return err
		}
		val, from = string(text), typeString
	}
	out, err := exec.CastValue(val, from, target)
	if err != nil {
		return err
	}
	return exec.AppendValue(b, out)
}

// variantTargetType maps variant_get's type argument to an engine type.
func variantTargetType(name string) (arrow.DataType, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "int", "integer":
		return typeInt, nil
	case "bigint", "long":
		return typeLong, nil
	case "float", "real":
		return typeFloat, nil
	case "double":
		return typeDouble, nil
	case "boolean", "bool":
		return typeBool, nil
	case "string":
		return typeString, nil
	case "binary":
		return typeBinary, nil
	case "date":
		return typeDate, nil
	case "timestamp":
		return typeTimestampTZ, nil
	case "timestamp_ntz":
		return typeTimestamp, nil
	case "variant":
		return typeVariant, nil
	}
	var p, s int
	if _, err := fmt.Sscanf(strings.ReplaceAll(n, " ", ""), "decimal(%d,%d)", &p, &s); err == nil && p >= 1 && p <= 38 && s >= 0 && s <= p {
		return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(s)}, nil
	}
	return nil, unsupported("variant_get type %q", name)
}

// parseVariantPath parses a JSON path: $ then .name, ['name'] or [index]
// steps.
func parseVariantPath(s string) (variant.VariantPath, error) {
	var p variant.VariantPath
	if !strings.HasPrefix(s, "$") {
		return p, errors.New("a path starts with $")
	}
	rest := s[1:]
	for rest != "" {
		switch rest[0] {
		case '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			name := rest[1 : 1+end]
			if name == "" {
				return p, fmt.Errorf("empty field name in path %q", s)
			}
			p = p.Field(name)
			rest = rest[1+end:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return p, fmt.Errorf("unclosed [ in path %q", s)
			}
			inner := rest[1:end]
			if len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0] {
				p = p.Field(inner[1 : len(inner)-1])
			} else {
				i, err := strconv.Atoi(inner)
				if err != nil || i < 0 {
					return p, fmt.Errorf("bad index %q in path %q", inner, s)
				}
				p = p.Index(i)
			}
			rest = rest[end+1:]
		default:
			return p, fmt.Errorf("unexpected %q in path %q", rest[0], s)
		}
	}
	return p, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
