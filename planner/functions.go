package planner

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/exec"
)

// funcBinder type-checks a call's bound arguments and builds the Expr.
type funcBinder func(name string, args []Expr) (Expr, error)

var functions map[string]funcBinder

func init() {
	functions = map[string]funcBinder{
		"lower":            strFunc(func(s string) any { return strings.ToLower(s) }),
		"lcase":            strFunc(func(s string) any { return strings.ToLower(s) }),
		"upper":            strFunc(func(s string) any { return strings.ToUpper(s) }),
		"ucase":            strFunc(func(s string) any { return strings.ToUpper(s) }),
		"length":           strIntFunc(func(s string) int64 { return int64(utf8.RuneCountInString(s)) }),
		"char_length":      strIntFunc(func(s string) int64 { return int64(utf8.RuneCountInString(s)) }),
		"character_length": strIntFunc(func(s string) int64 { return int64(utf8.RuneCountInString(s)) }),
		"ltrim":            strFunc(func(s string) any { return strings.TrimLeft(s, " ") }),
		"rtrim":            strFunc(func(s string) any { return strings.TrimRight(s, " ") }),
		"reverse": strFunc(func(s string) any {
			r := []rune(s)
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			return string(r)
		}),
		"substr":    bindSubstr,
		"substring": bindSubstr,
		"concat":    bindConcat,
		"replace": fixed(typeString, true, []arrow.DataType{typeString, typeString, typeString}, func(_ *exec.EvalContext, v []any) (any, error) {
			return strings.ReplaceAll(v[0].(string), v[1].(string), v[2].(string)), nil
		}),
		"starts_with": fixed(typeBool, true, []arrow.DataType{typeString, typeString}, func(_ *exec.EvalContext, v []any) (any, error) {
			return strings.HasPrefix(v[0].(string), v[1].(string)), nil
		}),
		"ends_with": fixed(typeBool, true, []arrow.DataType{typeString, typeString}, func(_ *exec.EvalContext, v []any) (any, error) {
			return strings.HasSuffix(v[0].(string), v[1].(string)), nil
		}),
		"contains": fixed(typeBool, true, []arrow.DataType{typeString, typeString}, func(_ *exec.EvalContext, v []any) (any, error) {
			return strings.Contains(v[0].(string), v[1].(string)), nil
		}),
		"trim":              bindTrim,
		"abs":               bindAbs,
		"round":             bindRound,
		"floor":             floatToLong(math.Floor),
		"ceil":              floatToLong(math.Ceil),
		"ceiling":           floatToLong(math.Ceil),
		"sqrt":              floatFunc(math.Sqrt),
		"exp":               floatFunc(math.Exp),
		"ln":                floatFunc(math.Log),
		"power":             fixed(typeDouble, true, []arrow.DataType{typeDouble, typeDouble}, func(_ *exec.EvalContext, v []any) (any, error) { return math.Pow(v[0].(float64), v[1].(float64)), nil }),
		"pow":               fixed(typeDouble, true, []arrow.DataType{typeDouble, typeDouble}, func(_ *exec.EvalContext, v []any) (any, error) { return math.Pow(v[0].(float64), v[1].(float64)), nil }),
		"mod":               bindMod,
		"year":              datePart(func(t time.Time) int32 { return int32(t.Year()) }),
		"month":             datePart(func(t time.Time) int32 { return int32(t.Month()) }),
		"day":               datePart(func(t time.Time) int32 { return int32(t.Day()) }),
		"dayofmonth":        datePart(func(t time.Time) int32 { return int32(t.Day()) }),
		"hour":              datePart(func(t time.Time) int32 { return int32(t.Hour()) }),
		"minute":            datePart(func(t time.Time) int32 { return int32(t.Minute()) }),
		"second":            datePart(func(t time.Time) int32 { return int32(t.Second()) }),
		"date_trunc":        bindDateTrunc,
		"current_date":      now(typeDate),
		"curdate":           now(typeDate),
		"current_timestamp": now(typeTimestamp),
		"now":               now(typeTimestamp),
		"date_add":          bindDateAdd(1),
		"adddate":           bindDateAdd(1),
		"date_sub":          bindDateAdd(-1),
		"subdate":           bindDateAdd(-1),
		"coalesce":          bindCoalesce,
		"ifnull":            bindCoalesce,
		"nvl":               bindCoalesce,
		"nullif":            bindNullIf,
		"if":                bindIf,
		// DATE '...', TIME '...' and TIMESTAMP '...' (a timestamptz)
		strings.ToLower(ast.DateLiteral):      typedLiteral("DATE", typeDate),
		strings.ToLower(ast.TimeLiteral):      typedLiteral("TIME", typeTime),
		strings.ToLower(ast.TimestampLiteral): timestampLiteral,
		"date": func(_ string, a []Expr) (Expr, error) {
			return oneArg("date", a, func(e Expr) (Expr, error) { return castTo(e, typeDate) })
		},
	}
}

func oneArg(name string, args []Expr, f func(Expr) (Expr, error)) (Expr, error) {
	if len(args) != 1 {
		return nil, invalid("%s takes 1 argument, got %d", name, len(args))
	}
	return f(args[0])
}

// checkArg converts an argument to want, accepting NULL and implicit
// widening but rejecting unrelated types.
func checkArg(name string, e Expr, want arrow.DataType) (Expr, error) {
	t := e.DataType()
	ok := arrow.TypeEqual(t, want) || t.ID() == arrow.NULL ||
		(isNumeric(t) && isNumeric(want)) || (isTemporal(t) && isTemporal(want)) ||
		(want.ID() == arrow.STRING && t.ID() != arrow.BINARY)
	if _, isLit := e.(*Literal); isLit && t.ID() == arrow.STRING {
		ok = true
	}
	if !ok {
		return nil, &TypeMismatchError{Op: name, Types: []string{typeName(t)}}
	}
	if _, isLit := e.(*Literal); isLit {
		return castTo(e, want)
	}
	return coerce(e, want), nil
}

// fixed binds a function with fixed argument types.
func fixed(ret arrow.DataType, strict bool, params []arrow.DataType, f RowFunc) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if len(args) != len(params) {
			return nil, invalid("%s takes %d arguments, got %d", name, len(params), len(args))
		}
		conv := make([]Expr, len(args))
		for i, a := range args {
			c, err := checkArg(name, a, params[i])
			if err != nil {
				return nil, err
			}
			conv[i] = c
		}
		return &Call{Name: name, Args: conv, Type: ret, Fn: f, NullStrict: strict}, nil
	}
}

func strFunc(f func(string) any) funcBinder {
	return fixed(typeString, true, []arrow.DataType{typeString}, func(_ *exec.EvalContext, v []any) (any, error) { return f(v[0].(string)), nil })
}

func strIntFunc(f func(string) int64) funcBinder {
	return fixed(typeLong, true, []arrow.DataType{typeString}, func(_ *exec.EvalContext, v []any) (any, error) { return f(v[0].(string)), nil })
}

func floatFunc(f func(float64) float64) funcBinder {
	return fixed(typeDouble, true, []arrow.DataType{typeDouble}, func(_ *exec.EvalContext, v []any) (any, error) {
		r := f(v[0].(float64))
		if math.IsNaN(r) {
			return nil, nil
		}
		return r, nil
	})
}

func floatToLong(f func(float64) float64) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if len(args) == 1 && isInteger(args[0].DataType()) {
			return coerce(args[0], typeLong), nil
		}
		return fixed(typeLong, true, []arrow.DataType{typeDouble}, func(_ *exec.EvalContext, v []any) (any, error) {
			r := f(v[0].(float64))
			if r >= 9.2e18 || r <= -9.2e18 || math.IsNaN(r) {
				return nil, exec.ErrOverflow
			}
			return int64(r), nil
		})(name, args)
	}
}

func bindAbs(name string, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, invalid("abs takes 1 argument")
	}
	if isInteger(args[0].DataType()) {
		return fixed(typeLong, true, []arrow.DataType{typeLong}, func(_ *exec.EvalContext, v []any) (any, error) {
			x := v[0].(int64)
			if x == math.MinInt64 {
				return nil, exec.ErrOverflow
			}
			if x < 0 {
				x = -x
			}
			return x, nil
		})(name, args)
	}
	return floatFunc(math.Abs)(name, args)
}

func bindRound(name string, args []Expr) (Expr, error) {
	if len(args) == 0 || len(args) > 2 {
		return nil, invalid("round takes 1 or 2 arguments")
	}
	if len(args) == 1 {
		args = append(args, &Literal{Value: int64(0), Type: typeLong})
	}
	if isInteger(args[0].DataType()) {
		return coerce(args[0], typeLong), nil
	}
	return fixed(typeDouble, true, []arrow.DataType{typeDouble, typeLong}, func(_ *exec.EvalContext, v []any) (any, error) {
		p := math.Pow(10, float64(v[1].(int64)))
		// half away from zero, as Spark's ROUND does
		return math.Round(v[0].(float64)*p) / p, nil
	})(name, args)
}

func bindMod(name string, args []Expr) (Expr, error) {
	if len(args) != 2 {
		return nil, invalid("mod takes 2 arguments")
	}
	return arithExprs(0, exec.ArithMod, args[0], args[1])
}

func datePart(f func(time.Time) int32) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if len(args) != 1 {
			return nil, invalid("%s takes 1 argument", name)
		}
		a, err := checkArg(name, args[0], typeTimestamp)
		if err != nil {
			return nil, err
		}
		return &Call{Name: name, Args: []Expr{a}, Type: typeInt, NullStrict: true, Fn: func(_ *exec.EvalContext, v []any) (any, error) {
			return f(v[0].(arrow.Timestamp).ToTime(arrow.Microsecond).UTC()), nil
		}}, nil
	}
}

func now(t arrow.DataType) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if len(args) > 1 {
			return nil, invalid("%s takes no arguments", name)
		}
		return &Call{Name: name, Type: t, Fn: func(ec *exec.EvalContext, _ []any) (any, error) {
			ts := arrow.Timestamp(ec.Now.UnixMicro())
			if t.ID() == arrow.DATE32 {
				return arrow.Date32FromTime(ec.Now), nil
			}
			return ts, nil
		}}, nil
	}
}

func bindDateTrunc(name string, args []Expr) (Expr, error) {
	if len(args) != 2 {
		return nil, invalid("date_trunc takes 2 arguments")
	}
	unit, ok := args[0].(*Literal)
	if !ok || unit.Type.ID() != arrow.STRING {
		return nil, invalid("date_trunc unit must be a string literal")
	}
	u := strings.ToLower(unit.Value.(string))
	switch u {
	case "year", "quarter", "month", "week", "day", "hour", "minute", "second":
	default:
		return nil, invalid("date_trunc unit %q is not one of year, quarter, month, week, day, hour, minute, second", u)
	}
	ts, err := checkArg(name, args[1], typeTimestamp)
	if err != nil {
		return nil, err
	}
	return &Call{Name: name, Args: []Expr{unit, ts}, Type: typeTimestamp, NullStrict: true, Fn: func(_ *exec.EvalContext, v []any) (any, error) {
		t := v[1].(arrow.Timestamp).ToTime(arrow.Microsecond).UTC()
		var r time.Time
		switch u {
		case "year":
			r = time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
		case "quarter":
			r = time.Date(t.Year(), (t.Month()-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
		case "month":
			r = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
		case "week":
			d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
			r = d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
		case "day":
			r = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		default:
			unit := map[string]time.Duration{"hour": time.Hour, "minute": time.Minute, "second": time.Second}[u]
			r = t.Truncate(unit)
		}
		return arrow.Timestamp(r.UnixMicro()), nil
	}}, nil
}

func bindDateAdd(sign int) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if len(args) != 3 {
			return nil, invalid("%s takes a date and an INTERVAL", name)
		}
		unit := args[2].(*Literal).Value.(string)
		base := args[0]
		if base.DataType().ID() == arrow.STRING {
			base = coerce(base, typeTimestamp)
		}
		if !isTemporal(base.DataType()) {
			return nil, &TypeMismatchError{Op: name, Types: []string{typeName(base.DataType())}}
		}
		n, err := checkArg(name, args[1], typeLong)
		if err != nil {
			return nil, err
		}
		rt := base.DataType()
		if rt.ID() == arrow.DATE32 && unit != "DAY" && unit != "WEEK" && unit != "MONTH" && unit != "YEAR" && unit != "QUARTER" {
			rt = typeTimestamp
			base = coerce(base, typeTimestamp)
		}
		return &Call{Name: name, Args: []Expr{base, n}, Type: rt, NullStrict: true, Fn: func(_ *exec.EvalContext, v []any) (any, error) {
			k := int(v[1].(int64)) * sign
			var t time.Time
			switch x := v[0].(type) {
			case arrow.Date32:
				t = x.ToTime()
			case arrow.Timestamp:
				t = x.ToTime(arrow.Microsecond).UTC()
			}
			switch unit {
			case "YEAR":
				t = addMonths(t, 12*k)
			case "QUARTER":
				t = addMonths(t, 3*k)
			case "MONTH":
				t = addMonths(t, k)
			case "WEEK":
				t = t.AddDate(0, 0, 7*k)
			case "DAY":
				t = t.AddDate(0, 0, k)
			case "HOUR":
				t = t.Add(time.Duration(k) * time.Hour)
			case "MINUTE":
				t = t.Add(time.Duration(k) * time.Minute)
			case "SECOND":
				t = t.Add(time.Duration(k) * time.Second)
			case "MICROSECOND":
				t = t.Add(time.Duration(k) * time.Microsecond)
			default:
				return nil, unsupported("INTERVAL unit %s", unit)
			}
			if rt.ID() == arrow.DATE32 {
				return arrow.Date32FromTime(t), nil
			}
			return arrow.Timestamp(t.UnixMicro()), nil
		}}, nil
	}
}

func bindCoalesce(name string, args []Expr) (Expr, error) {
	if len(args) == 0 {
		return nil, invalid("%s needs arguments", name)
	}
	t, err := commonTypeOf(name, args)
	if err != nil {
		return nil, err
	}
	conv := make([]Expr, len(args))
	for i, a := range args {
		conv[i] = coerce(a, t)
	}
	return coalesceExpr(conv, t), nil
}

func bindNullIf(name string, args []Expr) (Expr, error) {
	if len(args) != 2 {
		return nil, invalid("nullif takes 2 arguments")
	}
	eq, err := compareExprs(exec.CmpEQ, args[0], args[1])
	if err != nil {
		return nil, err
	}
	return &Case{Whens: []Expr{eq}, Thens: []Expr{&Literal{Type: args[0].DataType()}}, Else: args[0], Type: args[0].DataType()}, nil
}

func bindIf(name string, args []Expr) (Expr, error) {
	if len(args) != 3 {
		return nil, invalid("if takes 3 arguments")
	}
	cond, err := coerceBool(args[0], "IF")
	if err != nil {
		return nil, err
	}
	t, err := commonTypeOf("IF", args[1:])
	if err != nil {
		return nil, err
	}
	return &Case{Whens: []Expr{cond}, Thens: []Expr{coerce(args[1], t)}, Else: coerce(args[2], t), Type: t}, nil
}

func bindSubstr(name string, args []Expr) (Expr, error) {
	if len(args) == 2 {
		args = append(args, &Literal{Value: int64(math.MaxInt32), Type: typeLong})
	}
	return fixed(typeString, true, []arrow.DataType{typeString, typeLong, typeLong}, func(_ *exec.EvalContext, v []any) (any, error) {
		r := []rune(v[0].(string))
		pos, n := v[1].(int64), v[2].(int64)
		start := pos - 1
		if pos < 0 {
			start = int64(len(r)) + pos
		}
		if pos == 0 {
			start = 0
		}
		if start < 0 || start >= int64(len(r)) || n <= 0 {
			return "", nil
		}
		end := min(int64(len(r)), start+n)
		return string(r[start:end]), nil
	})(name, args)
}

// bindConcat binds concat and `||` as Spark does: strings (other scalars
// cast to string, booleans as true/false), or arrays of one element type
// joined into one array; NULL when any argument is NULL.
func bindConcat(name string, args []Expr) (Expr, error) {
	for _, a := range args {
		if isNested(a.DataType()) {
			return bindArrayConcat(name, args)
		}
	}
	conv := make([]Expr, len(args))
	for i, a := range args {
		if a.DataType().ID() == arrow.BOOL {
			a = &Call{Name: "string", Args: []Expr{a}, Type: typeString, NullStrict: true, Fn: func(_ *exec.EvalContext, v []any) (any, error) {
				return strconv.FormatBool(v[0].(bool)), nil
			}}
		}
		c, err := checkArg(name, a, typeString)
		if err != nil {
			return nil, err
		}
		conv[i] = c
	}
	return &Call{Name: name, Args: conv, Type: typeString, NullStrict: true, Fn: func(_ *exec.EvalContext, v []any) (any, error) {
		var sb strings.Builder
		for _, x := range v {
			sb.WriteString(x.(string))
		}
		return sb.String(), nil
	}}, nil
}

func bindTrim(name string, args []Expr) (Expr, error) {
	// TiDB passes trim(str [, remstr [, direction]])
	if len(args) == 0 || len(args) > 3 {
		return nil, invalid("trim takes 1 to 3 arguments")
	}
	dir := "BOTH"
	if len(args) == 3 {
		dir = args[2].(*Literal).Value.(string)
		args = args[:2]
	}
	if len(args) == 1 {
		args = append(args, &Literal{Value: " ", Type: typeString})
	}
	return fixed(typeString, true, []arrow.DataType{typeString, typeString}, func(_ *exec.EvalContext, v []any) (any, error) {
		s, cut := v[0].(string), v[1].(string)
		if cut == "" {
			return s, nil
		}
		if dir != "TRAILING" {
			for strings.HasPrefix(s, cut) {
				s = s[len(cut):]
			}
		}
		if dir != "LEADING" {
			for strings.HasSuffix(s, cut) {
				s = s[:len(s)-len(cut)]
			}
		}
		return s, nil
	})(name, args)
}

func (b *binder) bindCall(x *ast.FuncCallExpr, sc *scope) (Expr, error) {
	name := strings.ToLower(x.FnName.O)
	if name == castMarker {
		return b.bindSparkCast(x, sc)
	}
	f, ok := functions[name]
	if !ok {
		f, ok = constructorFuncs[name]
	}
	if !ok {
		return nil, &UnknownFunctionError{Name: name, Suggestion: suggestFunction(name)}
	}
	args := make([]Expr, 0, len(x.Args))
	for _, a := range x.Args {
		switch v := a.(type) {
		case *ast.TimeUnitExpr:
			args = append(args, &Literal{Value: strings.ToUpper(v.Unit.String()), Type: typeString})
			continue
		case *ast.TrimDirectionExpr:
			d := map[ast.TrimDirectionType]string{ast.TrimBoth: "BOTH", ast.TrimLeading: "LEADING", ast.TrimTrailing: "TRAILING", ast.TrimBothDefault: "BOTH"}[v.Direction]
			args = append(args, &Literal{Value: d, Type: typeString})
			continue
		}
		e, err := b.bindExpr(a, sc)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	return f(name, args)
}

// likeFunc matches SQL LIKE patterns (% and _, with an escape character).
func likeFunc(escape rune, fold bool) RowFunc {
	return func(_ *exec.EvalContext, v []any) (any, error) {
		s, p := v[0].(string), v[1].(string)
		if fold {
			s, p = strings.ToLower(s), strings.ToLower(p)
		}
		return likeMatch([]rune(s), []rune(p), escape), nil
	}
}

func likeMatch(s, p []rune, escape rune) bool {
	for len(p) > 0 {
		switch c := p[0]; {
		case c == escape && len(p) > 1:
			if len(s) == 0 || s[0] != p[1] {
				return false
			}
			s, p = s[1:], p[2:]
		case c == '%':
			for len(p) > 0 && p[0] == '%' {
				p = p[1:]
			}
			if len(p) == 0 {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if likeMatch(s[i:], p, escape) {
					return true
				}
			}
			return false
		case c == '_':
			if len(s) == 0 {
				return false
			}
			s, p = s[1:], p[1:]
		default:
			if len(s) == 0 || s[0] != c {
				return false
			}
			s, p = s[1:], p[1:]
		}
	}
	return len(s) == 0
}

// typedLiteral binds a typed literal such as DATE '2024-01-31': the text
// must parse as the type, at bind time.
func typedLiteral(sqlName string, t arrow.DataType) funcBinder {
	return func(_ string, args []Expr) (Expr, error) {
		if len(args) != 1 {
			return nil, invalid("%s literal takes one string", sqlName)
		}
		l, ok := args[0].(*Literal)
		if !ok || l.Type.ID() != arrow.STRING {
			return nil, invalid("%s must be followed by a string literal", sqlName)
		}
		return castTo(l, t)
	}
}

// timestampLiteral binds TIMESTAMP '...': a timestamptz, in nanoseconds
// when the text has digits finer than a microsecond, so they are kept.
func timestampLiteral(name string, args []Expr) (Expr, error) {
	t := arrow.DataType(typeTimestampTZ)
	if len(args) == 1 {
		if l, ok := args[0].(*Literal); ok {
			if s, ok := l.Value.(string); ok && hasSubMicroDigits(s) {
				t = typeTimestampTZNs
			}
		}
	}
	return typedLiteral("TIMESTAMP", t)(name, args)
}

// hasSubMicroDigits reports a fraction of seconds with a non-zero digit
// beyond the sixth.
func hasSubMicroDigits(s string) bool {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return false
	}
	digits := s[i+1:]
	if j := strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }); j >= 0 {
		digits = digits[:j]
	}
	return len(digits) > 6 && strings.Trim(digits[6:], "0") != ""
}

// addMonths moves t by k months, clamping the day to the target month's
// last day (Jan 31 + 1 month = Feb 28/29), as SQL engines do.
func addMonths(t time.Time, k int) time.Time {
	first := time.Date(t.Year(), t.Month(), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC).AddDate(0, k, 0)
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(t.Day(), last)-1)
}

// bindArrayConcat joins arrays of one element type (NULL arguments make
// the result NULL).
func bindArrayConcat(name string, args []Expr) (Expr, error) {
	var t arrow.DataType
	for i, a := range args {
		at := a.DataType()
		if at.ID() == arrow.NULL {
			continue
		}
		elem, ok := listElem(at)
		if !ok {
			return nil, argMismatch(name, i+1, "an ARRAY", a)
		}
		if t == nil {
			t = at
			continue
		}
		if prev, _ := listElem(t); !arrow.TypeEqual(prev, elem) {
			return nil, argMismatch(name, i+1, "an "+sqlTypeName(t), a)
		}
	}
	return nestedCall(name, args, t, true, func(_ *exec.EvalContext, v []any) (any, error) {
		out := []any{}
		for _, x := range v {
			out = append(out, x.([]any)...)
		}
		return out, nil
	}), nil
}
