package planner

import (
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/sqlexec/exec"
)

// restore renders an AST expression as canonical SQL text; the binder
// matches GROUP BY and ORDER BY expressions by it.
func restore(n ast.Node) string {
	s, _ := restoreUpTo(n, -1)
	return s
}

// restoreUpTo is restore stopping once the text passes limit bytes (-1:
// no limit); complete says whether it did not. Passes that restore every
// node of a tree (column names of nested subqueries, group lookups) would
// otherwise render each subtree again: quadratic time, and memory for the
// texts kept.
func restoreUpTo(n ast.Node, limit int) (text string, complete bool) {
	raw, complete := restoreRaw(n, limit)
	if !complete {
		return raw, false
	}
	return unmarkSubscripts(unmarkRestored(raw)), true
}

// restoreRaw is the text Restore writes, before the markers of the
// parser's rewrites are undone, up to limit bytes.
func restoreRaw(n ast.Node, limit int) (text string, complete bool) {
	w := &limitedBuilder{limit: limit}
	defer func() {
		if p := recover(); p != nil {
			if p != errRestoreLimit {
				panic(p)
			}
			text, complete = w.sb.String(), false
		}
	}()
	_ = n.Restore(format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreStringWithoutCharset|
		format.RestoreKeyWordLowercase|format.RestoreNameLowercase, w))
	return w.sb.String(), true
}

// errRestoreLimit unwinds a Restore that passed its limit (Restore has no
// way to stop early: it ignores its writer's errors).
var errRestoreLimit = &struct{ string }{"restore limit"}

type limitedBuilder struct {
	sb    strings.Builder
	limit int
}

func (w *limitedBuilder) Write(p []byte) (int, error) {
	w.check(len(p))
	return w.sb.Write(p)
}

func (w *limitedBuilder) WriteString(s string) (int, error) {
	w.check(len(s))
	return w.sb.WriteString(s)
}

func (w *limitedBuilder) check(n int) {
	if w.limit >= 0 && w.sb.Len()+n > w.limit {
		panic(errRestoreLimit)
	}
}

// bindExpr binds an AST expression against a scope.
func (b *binder) bindExpr(n ast.ExprNode, sc *scope) (Expr, error) {
	if b.depth++; b.depth > MaxExprDepth {
		b.depth--
		return nil, &TooDeepError{What: "expression", Limit: MaxExprDepth}
	}
	defer func() { b.depth-- }()
	if b.exprNodes++; b.exprNodes%1024 == 0 && b.ctx != nil {
		if err := b.ctx.Err(); err != nil {
			return nil, err
		}
	}
	if sc.agg != nil {
		if c, ok := n.(*ast.ColumnNameExpr); ok {
			if item, ok := sc.havingAlias(c); ok {
				inner := *sc
				inner.aliases = nil
				return b.bindExpr(item, &inner)
			}
		}
		if e, ok, err := sc.agg.lookup(b, n); ok || err != nil {
			return e, err
		}
	}
	switch x := n.(type) {
	case *ast.ParenthesesExpr:
		return b.bindExpr(x.Expr, sc)
	case *ast.ColumnNameExpr:
		if sc.agg != nil {
			return nil, invalid("column %s must appear in GROUP BY or be used in an aggregate function", x.Name.Name.O)
		}
		return resolveColumnPath(sc, x.Name)
	case *driver.ValueExpr:
		return literalOf(x)
	case *ast.BinaryOperationExpr:
		return b.bindBinary(x, sc)
	case *ast.UnaryOperationExpr:
		if v, ok := x.V.(*driver.ValueExpr); ok && x.Op == opcode.Minus && v.Kind() == driver.KindUint64 && v.GetUint64() == 1<<63 {
			// -9223372036854775808 is the smallest BIGINT, not a double
			return &Literal{Value: int64(math.MinInt64), Type: typeLong}, nil
		}
		e, err := b.bindExpr(x.V, sc)
		if err != nil {
			return nil, err
		}
		switch x.Op {
		case opcode.Not, opcode.Not2:
			e, err = coerceBool(e, "NOT")
			if err != nil {
				return nil, err
			}
			return &Not{E: e}, nil
		case opcode.Minus:
			if !isNumeric(e.DataType()) {
				return nil, &TypeMismatchError{Op: "unary -", Types: []string{typeName(e.DataType())}}
			}
			if d, ok := e.DataType().(*arrow.Decimal128Type); ok {
				zero := &Literal{Value: decimal128.Num{}, Type: &arrow.Decimal128Type{Precision: 1}}
				return &DecimalArith{Op: exec.ArithSub, L: zero, R: e, Type: d}, nil
			}
			t := arithType(e.DataType())
			return &Arith{Op: exec.ArithSub, L: &Literal{Value: zeroOf(t), Type: t}, R: coerce(e, t), Type: t}, nil
		case opcode.Plus:
			return e, nil
		}
		return nil, unsupported("unary operator %s", x.Op)
	case *ast.IsNullExpr:
		e, err := b.bindExpr(x.Expr, sc)
		if err != nil {
			return nil, err
		}
		return &IsNull{E: e, Negate: x.Not}, nil
	case *ast.IsTruthExpr:
		e, err := b.bindExpr(x.Expr, sc)
		if err != nil {
			return nil, err
		}
		if e, err = coerceBool(e, "IS TRUE"); err != nil {
			return nil, err
		}
		// x IS TRUE is never NULL: coalesce(x = want, false)
		want := &Literal{Value: x.True != 0, Type: typeBool}
		eq := &Compare{Op: exec.CmpEQ, L: e, R: want}
		var r Expr = coalesceExpr([]Expr{eq, &Literal{Value: false, Type: typeBool}}, typeBool)
		if x.Not {
			r = &Not{E: r}
		}
		return r, nil
	case *ast.BetweenExpr:
		v, err := b.bindExpr(x.Expr, sc)
		if err != nil {
			return nil, err
		}
		lo, err := b.bindExpr(x.Left, sc)
		if err != nil {
			return nil, err
		}
		hi, err := b.bindExpr(x.Right, sc)
		if err != nil {
			return nil, err
		}
		ge, err := compareExprs(exec.CmpGE, v, lo)
		if err != nil {
			return nil, err
		}
		le, err := compareExprs(exec.CmpLE, v, hi)
		if err != nil {
			return nil, err
		}
		var r Expr = &Logic{L: ge, R: le}
		if x.Not {
			r = &Not{E: r}
		}
		return r, nil
	case *ast.PatternLikeOrIlikeExpr:
		return b.bindLike(x, sc)
	case *ast.PatternInExpr:
		return b.bindIn(x, sc)
	case *ast.CaseExpr:
		return b.bindCase(x, sc)
	case *ast.FuncCastExpr:
		e, err := b.bindExpr(x.Expr, sc)
		if err != nil {
			return nil, err
		}
		t, err := FieldTypeToArrow(x.Tp)
		if err != nil {
			return nil, err
		}
		return castTo(e, t)
	case *ast.FuncCallExpr:
		return b.bindCall(x, sc)
	case *ast.AggregateFuncExpr:
		return nil, invalid("aggregate function %s is not allowed here", strings.ToLower(x.F))
	case *ast.WindowFuncExpr:
		if sc.win == nil {
			return nil, invalid("window function %s is not allowed here", strings.ToLower(x.Name))
		}
		return b.bindWindowCall(x, sc)
	case *ast.SubqueryExpr:
		return b.bindScalarSubquery(x, sc)
	case *ast.ExistsSubqueryExpr:
		sq, ok := x.Sel.(*ast.SubqueryExpr)
		if !ok {
			return nil, unsupported("EXISTS over %T", x.Sel)
		}
		base, err := b.bindSubqueryPlan(sq.Query, sc)
		if err != nil {
			return nil, err
		}
		return &Exists{subqueryBase: *base, Negate: x.Not}, nil
	case *ast.CompareSubqueryExpr:
		return nil, unsupported("ANY/ALL subqueries")
	case *ast.DefaultExpr:
		return nil, unsupported("DEFAULT")
	}
	return nil, unsupported("expression %s", restore(n))
}

func zeroOf(t arrow.DataType) any {
	if t.ID() == arrow.FLOAT64 {
		return float64(0)
	}
	return int64(0)
}

func literalOf(v *driver.ValueExpr) (Expr, error) {
	switch v.Kind() {
	case driver.KindNull:
		return &Literal{Type: typeNull}, nil
	case driver.KindInt64:
		if mysql.HasIsBooleanFlag(v.Type.GetFlag()) {
			// TRUE and FALSE are booleans, as in Spark (the MySQL grammar
			// makes them the integers 1 and 0).
			return &Literal{Value: v.GetInt64() != 0, Type: typeBool}, nil
		}
		return &Literal{Value: v.GetInt64(), Type: typeLong}, nil
	case driver.KindUint64:
		u := v.GetUint64()
		if u > 1<<63-1 {
			return &Literal{Value: float64(u), Type: typeDouble}, nil
		}
		return &Literal{Value: int64(u), Type: typeLong}, nil
	case driver.KindFloat32:
		return &Literal{Value: float64(v.GetFloat32()), Type: typeDouble}, nil
	case driver.KindFloat64:
		return &Literal{Value: v.GetFloat64(), Type: typeDouble}, nil
	case driver.KindString:
		return &Literal{Value: v.GetString(), Type: typeString}, nil
	case driver.KindBytes:
		return &Literal{Value: string(v.GetBytes()), Type: typeString}, nil
	case driver.KindMysqlDecimal:
		return decimalLiteral(v.GetMysqlDecimal().String())
	case driver.KindBinaryLiteral:
		return &Literal{Value: string(v.GetBinaryLiteral()), Type: typeString}, nil
	}
	return nil, unsupported("literal of kind %d", v.Kind())
}

// coerce converts e to t, folding casts of literals right away.
func coerce(e Expr, t arrow.DataType) Expr {
	if arrow.TypeEqual(e.DataType(), t) {
		return e
	}
	if l, ok := e.(*Literal); ok {
		if v, err := exec.CastValue(l.Value, l.Type, t); err == nil {
			return &Literal{Value: v, Type: t}
		}
	}
	return &Cast{E: e, To: t}
}

// castTo is an explicit CAST; literal casts fail at bind time.
func castTo(e Expr, t arrow.DataType) (Expr, error) {
	// A variant is built over a batch (exec.Cast), not folded as a value.
	if l, ok := e.(*Literal); ok && !exec.IsVariant(t) {
		v, err := exec.CastValue(l.Value, l.Type, t)
		if err != nil {
			return nil, err
		}
		return &Literal{Value: v, Type: t}, nil
	}
	if !castAllowed(e.DataType(), t) {
		return nil, &TypeMismatchError{Op: "CAST to " + typeName(t), Types: []string{typeName(e.DataType())}}
	}
	return &Cast{E: e, To: t}, nil
}

func castAllowed(from, to arrow.DataType) bool {
	f, t := from.ID(), to.ID()
	switch {
	case f == t, f == arrow.NULL:
		return true
	case exec.IsVariant(to):
		return exec.CastsToVariant(from)
	case isNested(from) || isNested(to):
		return false
	case f == arrow.STRING, t == arrow.STRING:
		return true
	case isNumeric(from) && (isNumeric(to) || t == arrow.BOOL):
		return true
	case f == arrow.BOOL && isNumeric(to):
		return true
	case isTemporal(from) && isTemporal(to):
		return true
	case f == arrow.BINARY && t == arrow.STRING:
		return true
	case f == arrow.BINARY && t == arrow.FIXED_SIZE_BINARY, f == arrow.FIXED_SIZE_BINARY && t == arrow.BINARY:
		return true
	case arrowschema.IsUUID(to) && (f == arrow.BINARY || f == arrow.FIXED_SIZE_BINARY),
		arrowschema.IsUUID(from) && (t == arrow.BINARY || t == arrow.FIXED_SIZE_BINARY):
		// 16 bytes either way (checked per value)
		return true
	}
	return false
}

func coerceBool(e Expr, op string) (Expr, error) {
	switch e.DataType().ID() {
	case arrow.BOOL:
		return e, nil
	case arrow.NULL:
		return coerce(e, typeBool), nil
	}
	if isNumeric(e.DataType()) {
		return &Compare{Op: exec.CmpNE, L: coerce(e, typeDouble), R: &Literal{Value: float64(0), Type: typeDouble}}, nil
	}
	return nil, &TypeMismatchError{Op: op, Types: []string{typeName(e.DataType())}}
}

// unify converts two operands to their common type; a string literal
// compared with a typed value is cast to that type.
func unify(op string, l, r Expr) (Expr, Expr, error) {
	lt, rt := l.DataType(), r.DataType()
	if lt.ID() == arrow.STRING && rt.ID() != arrow.STRING && rt.ID() != arrow.NULL {
		if _, ok := l.(*Literal); ok {
			c, err := castTo(l, rt)
			return c, r, err
		}
	}
	if rt.ID() == arrow.STRING && lt.ID() != arrow.STRING && lt.ID() != arrow.NULL {
		if _, ok := r.(*Literal); ok {
			c, err := castTo(r, lt)
			return l, c, err
		}
	}
	t, ok := commonType(lt, rt)
	if !ok {
		return nil, nil, &TypeMismatchError{Op: op, Types: []string{typeName(lt), typeName(rt)}}
	}
	if t.ID() == arrow.NULL {
		t = typeBool
	}
	return coerce(l, t), coerce(r, t), nil
}

func compareExprs(op exec.CmpOp, l, r Expr) (Expr, error) {
	l, r = narrowComparison(l, r)
	l, r, err := unify(op.String(), l, r)
	if err != nil {
		return nil, err
	}
	return &Compare{Op: op, L: l, R: r}, nil
}

// arithType is the type integer and floating arithmetic is done in.
func arithType(t arrow.DataType) arrow.DataType {
	if isInteger(t) {
		return typeLong
	}
	return typeDouble
}

var cmpOps = map[opcode.Op]exec.CmpOp{
	opcode.EQ: exec.CmpEQ, opcode.NE: exec.CmpNE, opcode.LT: exec.CmpLT,
	opcode.LE: exec.CmpLE, opcode.GT: exec.CmpGT, opcode.GE: exec.CmpGE,
}

var arithOps = map[opcode.Op]exec.ArithOp{
	opcode.Plus: exec.ArithAdd, opcode.Minus: exec.ArithSub, opcode.Mul: exec.ArithMul,
	opcode.Div: exec.ArithDiv, opcode.IntDiv: exec.ArithDiv, opcode.Mod: exec.ArithMod,
}

func (b *binder) bindBinary(x *ast.BinaryOperationExpr, sc *scope) (Expr, error) {
	l, err := b.bindExpr(x.L, sc)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(x.R, sc)
	if err != nil {
		return nil, err
	}
	switch x.Op {
	case opcode.LogicAnd, opcode.LogicOr:
		if l, err = coerceBool(l, x.Op.String()); err != nil {
			return nil, err
		}
		if r, err = coerceBool(r, x.Op.String()); err != nil {
			return nil, err
		}
		return &Logic{Or: x.Op == opcode.LogicOr, L: l, R: r}, nil
	case opcode.NullEQ:
		l, r, err := unify("<=>", l, r)
		if err != nil {
			return nil, err
		}
		// a <=> b: both NULL, or both non-NULL and equal
		eq := &Compare{Op: exec.CmpEQ, L: l, R: r}
		bothNull := &Logic{L: &IsNull{E: l}, R: &IsNull{E: r}}
		return coalesceExpr([]Expr{&Logic{Or: true, L: bothNull, R: eq}, &Literal{Value: false, Type: typeBool}}, typeBool), nil
	}
	if op, ok := cmpOps[x.Op]; ok {
		return compareExprs(op, l, r)
	}
	if op, ok := arithOps[x.Op]; ok {
		return arithExprs(x.Op, op, l, r)
	}
	return nil, unsupported("operator %s", x.Op)
}

func arithExprs(raw opcode.Op, op exec.ArithOp, l, r Expr) (Expr, error) {
	lt, rt := l.DataType(), r.DataType()
	if lt.ID() == arrow.NULL && rt.ID() == arrow.NULL {
		return &Literal{Type: typeLong}, nil
	}
	if lt.ID() == arrow.NULL {
		lt = rt
	}
	if rt.ID() == arrow.NULL {
		rt = lt
	}
	if !isNumeric(lt) || !isNumeric(rt) {
		return nil, &TypeMismatchError{Op: raw.String(), Types: []string{typeName(l.DataType()), typeName(r.DataType())}}
	}
	exact := func(t arrow.DataType) bool { return isInteger(t) || t.ID() == arrow.DECIMAL128 }
	if (lt.ID() == arrow.DECIMAL128 || rt.ID() == arrow.DECIMAL128) && exact(lt) && exact(rt) {
		l, r = coerce(l, lt), coerce(r, rt)
		var e Expr = decimalArith(op, l, r)
		if raw == opcode.IntDiv {
			e = &Cast{E: e, To: typeLong}
		}
		return e, nil
	}
	t := typeDouble
	if isInteger(lt) && isInteger(rt) && raw != opcode.Div {
		t = typeLong
	}
	var e Expr = &Arith{Op: op, L: coerce(l, t), R: coerce(r, t), Type: t}
	if raw == opcode.IntDiv && t.ID() == arrow.FLOAT64 {
		e = &Cast{E: e, To: typeLong}
	}
	return e, nil
}

func (b *binder) bindLike(x *ast.PatternLikeOrIlikeExpr, sc *scope) (Expr, error) {
	e, err := b.bindExpr(x.Expr, sc)
	if err != nil {
		return nil, err
	}
	p, err := b.bindExpr(x.Pattern, sc)
	if err != nil {
		return nil, err
	}
	for _, a := range []Expr{e, p} {
		if id := a.DataType().ID(); id != arrow.STRING && id != arrow.NULL {
			return nil, &TypeMismatchError{Op: "LIKE", Types: []string{typeName(e.DataType()), typeName(p.DataType())}}
		}
	}
	escape := rune(x.Escape)
	if escape == 0 {
		escape = '\\'
	}
	// like(s, p) is LIKE with the default escape, like(s, p, escape) with
	// another; ilike(...) folds case. Filter pushdown reads these forms.
	c := &Call{Name: "like", Args: []Expr{coerce(e, typeString), coerce(p, typeString)}, Type: typeBool, NullStrict: true,
		Fn: likeFunc(escape, !x.IsLike)}
	if escape != '\\' {
		c.Args = append(c.Args, &Literal{Value: string(escape), Type: typeString})
	}
	if x.IsLike {
		c.Batch = likeBatch(escape)
	} else {
		c.Name = "ilike"
	}
	var r Expr = c
	if x.Not {
		r = &Not{E: r}
	}
	return r, nil
}

// bindIn binds E [NOT] IN (list) and E [NOT] IN (subquery). Operands
// are unified as comparisons are (a string literal takes the other
// side's type); when a string meets a number, date or timestamp that it
// does not convert to, the IN compares as text, as Spark's IN does (its
// wider common type of a string and an atomic type is string): so
// 'hello' IN (SELECT int_col ...) is false, not an error. An untyped
// NULL operand takes the type of the others.
func (b *binder) bindIn(x *ast.PatternInExpr, sc *scope) (Expr, error) {
	e, err := b.bindExpr(x.Expr, sc)
	if err != nil {
		return nil, err
	}
	if x.Sel != nil {
		return b.bindInSubquery(x, e, sc)
	}
	if len(x.List) == 1 && isEmptyInListMarker(x.List[0]) {
		return &InList{E: e, Negate: x.Not}, nil
	}
	list := make([]Expr, len(x.List))
	for i, item := range x.List {
		if list[i], err = b.bindExpr(item, sc); err != nil {
			return nil, err
		}
	}
	if e.DataType().ID() == arrow.NULL {
		if t := lenientCommonType(list); t.ID() != arrow.NULL {
			e = coerce(e, t)
		}
	}
	t := e.DataType()
	for i := range list {
		_, r, err := unify("IN", e, list[i])
		if err != nil {
			if !inAsText(e, list) {
				return nil, err
			}
			for i := range list {
				list[i] = coerce(list[i], typeString)
			}
			return &InList{E: coerce(e, typeString), List: list, Negate: x.Not}, nil
		}
		if nt, ok := commonType(t, r.DataType()); ok {
			t = nt
		}
		list[i] = r
	}
	if t.ID() == arrow.NULL {
		t = typeBool
	}
	if narrow, ok := narrowInList(e, list); ok {
		return &InList{E: e, List: narrow, Negate: x.Not}, nil
	}
	for i := range list {
		list[i] = coerce(list[i], t)
	}
	return &InList{E: coerce(e, t), List: list, Negate: x.Not}, nil
}

func (b *binder) bindInSubquery(x *ast.PatternInExpr, e Expr, sc *scope) (Expr, error) {
	sq, ok := x.Sel.(*ast.SubqueryExpr)
	if !ok {
		return nil, unsupported("IN over %T", x.Sel)
	}
	base, err := b.bindSubqueryPlan(sq.Query, sc)
	if err != nil {
		return nil, err
	}
	p := base.Plan
	cols := p.Columns()
	if len(cols) != 1 {
		return nil, invalid("IN subquery returns %d columns, want 1", len(cols))
	}
	col := &ColumnRef{Index: 0, Name: cols[0].Name, Type: cols[0].Type}
	l, r, err := unify("IN", e, col)
	if err != nil {
		if !inAsText(e, []Expr{col}) {
			return nil, err
		}
		l, r = coerce(e, typeString), coerce(col, typeString)
	}
	if !arrow.TypeEqual(r.DataType(), cols[0].Type) {
		p = &Project{Input: p, Exprs: []Expr{r}, Cols: []Column{{Name: cols[0].Name, Type: r.DataType(), Nullable: true}}}
	}
	base.Plan = p
	return &InSubquery{subqueryBase: *base, E: l, Negate: x.Not}, nil
}

// inAsText reports whether an IN whose operands do not unify compares as
// text: some operand is a string and every other is a string, a number,
// a date or a timestamp (Spark's string promotion leaves out binary and
// boolean).
func inAsText(e Expr, list []Expr) bool {
	sawString := false
	for _, x := range append([]Expr{e}, list...) {
		t := x.DataType()
		switch {
		case t.ID() == arrow.STRING:
			sawString = true
		case t.ID() == arrow.NULL, isNumeric(t), isTemporal(t):
		default:
			return false
		}
	}
	return sawString
}

// lenientCommonType is the common type of es' types, skipping those that
// have none with the rest (NULL when all are untyped NULLs).
func lenientCommonType(es []Expr) arrow.DataType {
	var t arrow.DataType = arrow.Null
	for _, x := range es {
		if nt, ok := commonType(t, x.DataType()); ok {
			t = nt
		}
	}
	return t
}

// isEmptyInListMarker reports the parser's stand-in for the empty list of
// x IN ().
func isEmptyInListMarker(n ast.ExprNode) bool {
	f, ok := n.(*ast.FuncCallExpr)
	return ok && len(f.Args) == 0 && f.FnName.L == emptyInListMarker
}

func (b *binder) bindCase(x *ast.CaseExpr, sc *scope) (Expr, error) {
	var value Expr
	var err error
	if x.Value != nil {
		if value, err = b.bindExpr(x.Value, sc); err != nil {
			return nil, err
		}
	}
	c := &Case{}
	var results []Expr
	for _, w := range x.WhenClauses {
		cond, err := b.bindExpr(w.Expr, sc)
		if err != nil {
			return nil, err
		}
		if value != nil {
			if cond, err = compareExprs(exec.CmpEQ, value, cond); err != nil {
				return nil, err
			}
		} else if cond, err = coerceBool(cond, "CASE WHEN"); err != nil {
			return nil, err
		}
		res, err := b.bindExpr(w.Result, sc)
		if err != nil {
			return nil, err
		}
		c.Whens = append(c.Whens, cond)
		results = append(results, res)
	}
	if x.ElseClause != nil {
		e, err := b.bindExpr(x.ElseClause, sc)
		if err != nil {
			return nil, err
		}
		results = append(results, e)
	}
	t, err := commonTypeOf("CASE", results)
	if err != nil {
		return nil, err
	}
	for i := range results {
		results[i] = coerce(results[i], t)
	}
	c.Thens = results[:len(c.Whens)]
	if x.ElseClause != nil {
		c.Else = results[len(c.Whens)]
	}
	c.Type = t
	return c, nil
}

// commonTypeOf finds one type all exprs convert to (NULL-only gives STRING... no: BOOLEAN is avoided; NULL-only stays NULL-typed as STRING).
func commonTypeOf(op string, es []Expr) (arrow.DataType, error) {
	var t arrow.DataType = typeNull
	for _, e := range es {
		nt, ok := commonType(t, e.DataType())
		if !ok {
			names := make([]string, len(es))
			for i, x := range es {
				names[i] = typeName(x.DataType())
			}
			return nil, &TypeMismatchError{Op: op, Types: names}
		}
		t = nt
	}
	if t.ID() == arrow.NULL {
		t = typeString
	}
	return t, nil
}

func coalesceExpr(args []Expr, t arrow.DataType) Expr {
	return &Call{Name: "coalesce", Args: args, Type: t, Fn: func(_ *exec.EvalContext, v []any) (any, error) {
		for _, x := range v {
			if x != nil {
				return x, nil
			}
		}
		return nil, nil
	}}
}

// decimalLiteral types a numeric literal with a point exactly: 1.25 is
// DECIMAL(3,2). Literals beyond 38 digits fall back to DOUBLE.
func decimalLiteral(text string) (Expr, error) {
	digits := strings.TrimLeft(text, "-+")
	intPart, frac, _ := strings.Cut(digits, ".")
	intPart = strings.TrimLeft(intPart, "0")
	scale := int32(len(frac))
	prec := max(int32(len(intPart))+scale, 1)
	if prec > 38 {
		f, err := exec.CastValue(text, typeString, typeDouble)
		if err != nil {
			return nil, invalid("bad numeric literal %s", text)
		}
		return &Literal{Value: f, Type: typeDouble}, nil
	}
	t := &arrow.Decimal128Type{Precision: prec, Scale: scale}
	n, err := decimal128.FromString(text, prec, scale)
	if err != nil {
		return nil, invalid("bad numeric literal %s", text)
	}
	return &Literal{Value: n, Type: t}, nil
}
