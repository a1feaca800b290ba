package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/sqlexec/exec"
)

// Expr is a bound expression: typed, with column references resolved to
// input positions. Evaluation is vectorised over a batch.
type Expr interface {
	exec.Expr
	String() string
}

// ColumnRef reads input column Index.
type ColumnRef struct {
	Index int
	Name  string
	Type  arrow.DataType
}

func (c *ColumnRef) DataType() arrow.DataType { return c.Type }
func (c *ColumnRef) String() string           { return fmt.Sprintf("%s#%d", c.Name, c.Index) }
func (c *ColumnRef) Eval(_ *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	if c.Index >= int(b.NumCols()) {
		return nil, fmt.Errorf("planner: column %s#%d out of range for a batch of %d columns", c.Name, c.Index, b.NumCols())
	}
	a := b.Column(c.Index)
	a.Retain()
	return a, nil
}

// Literal is a constant; Value is in exec.ValueAt form, nil for NULL.
type Literal struct {
	Value any
	Type  arrow.DataType
}

func (l *Literal) DataType() arrow.DataType { return l.Type }
func (l *Literal) String() string {
	if l.Value == nil {
		return "NULL"
	}
	if s, ok := l.Value.(string); ok {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return exec.FormatValue(l.Value, l.Type)
}
func (l *Literal) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	return exec.ConstantArray(ec, l.Type, l.Value, int(b.NumRows()))
}

// Compare is L op R with NULL propagation; operands share a type.
type Compare struct {
	Op   exec.CmpOp
	L, R Expr
}

func (c *Compare) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (c *Compare) String() string           { return fmt.Sprintf("(%s %s %s)", c.L, c.Op, c.R) }
func (c *Compare) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	return evalBinary(ec, b, c.L, c.R, func(x, y arrow.Array) (arrow.Array, error) {
		return exec.Compare(ec, c.Op, x, y)
	})
}

func evalBinary(ec *exec.EvalContext, b arrow.RecordBatch, l, r Expr, f func(x, y arrow.Array) (arrow.Array, error)) (arrow.Array, error) {
	x, err := l.Eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	y, err := r.Eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer y.Release()
	return f(x, y)
}

// Arith is L op R over INT64 or FLOAT64 operands of the same type.
// Type is fixed when the node is built: asking L on every call makes
// typing a long chain 1 + 1 + ... quadratic.
type Arith struct {
	Op   exec.ArithOp
	L, R Expr
	Type arrow.DataType
}

func (a *Arith) DataType() arrow.DataType {
	if a.Type != nil {
		return a.Type
	}
	return a.L.DataType()
}
func (a *Arith) String() string { return fmt.Sprintf("(%s %s %s)", a.L, a.Op, a.R) }
func (a *Arith) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	return evalBinary(ec, b, a.L, a.R, func(x, y arrow.Array) (arrow.Array, error) {
		return exec.Arith(ec, a.Op, x, y)
	})
}

// Logic is AND or OR with three-valued semantics.
type Logic struct {
	Or   bool
	L, R Expr
}

func (l *Logic) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (l *Logic) String() string {
	op := "AND"
	if l.Or {
		op = "OR"
	}
	return fmt.Sprintf("(%s %s %s)", l.L, op, l.R)
}
func (l *Logic) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	return evalBinary(ec, b, l.L, l.R, func(x, y arrow.Array) (arrow.Array, error) {
		if l.Or {
			return exec.Or(ec, x, y), nil
		}
		return exec.And(ec, x, y), nil
	})
}

// Not negates a boolean.
type Not struct{ E Expr }

func (n *Not) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (n *Not) String() string           { return fmt.Sprintf("NOT %s", n.E) }
func (n *Not) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := n.E.Eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	return exec.Not(ec, x), nil
}

// IsNull is E IS [NOT] NULL.
type IsNull struct {
	E      Expr
	Negate bool
}

func (n *IsNull) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (n *IsNull) String() string {
	if n.Negate {
		return fmt.Sprintf("(%s IS NOT NULL)", n.E)
	}
	return fmt.Sprintf("(%s IS NULL)", n.E)
}
func (n *IsNull) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := n.E.Eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	return exec.IsNull(ec, x, n.Negate), nil
}

// Cast converts E to To. Column, when set, is the table column the value
// is written to (INSERT ... SELECT): a failing value's error names it.
type Cast struct {
	E      Expr
	To     arrow.DataType
	Column string
}

func (c *Cast) DataType() arrow.DataType { return c.To }
func (c *Cast) String() string           { return fmt.Sprintf("CAST(%s AS %s)", c.E, typeName(c.To)) }
func (c *Cast) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := c.E.Eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	out, err := exec.Cast(ec, x, c.To)
	if err != nil && c.Column != "" {
		return nil, &ValueError{Column: c.Column, Type: columnTypeName(c.To), Err: err}
	}
	return out, err
}

// RowFunc computes one row of a function from its argument values.
type RowFunc func(ec *exec.EvalContext, args []any) (any, error)

// Call is a scalar function evaluated row by row. NullStrict functions
// return NULL without calling Fn when any argument is NULL.
type Call struct {
	Name       string
	Args       []Expr
	Type       arrow.DataType
	Fn         RowFunc
	NullStrict bool
	// Volatile calls (current_timestamp is not: it is fixed per query)
	// must not be folded.
	Volatile bool
	// Batch, when set, computes the result from the whole argument
	// arrays (n rows) in place of Fn: functions over nested values use it.
	Batch func(ec *exec.EvalContext, args []arrow.Array, n int) (arrow.Array, error)
}

func (c *Call) DataType() arrow.DataType { return c.Type }
func (c *Call) String() string {
	parts := make([]string, len(c.Args))
	for i, a := range c.Args {
		parts[i] = a.String()
	}
	return fmt.Sprintf("%s(%s)", c.Name, strings.Join(parts, ", "))
}
func (c *Call) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	args := make([]arrow.Array, len(c.Args))
	defer func() { exec.ReleaseArrays(args) }()
	for i, a := range c.Args {
		x, err := a.Eval(ec, b)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	if c.Batch != nil {
		return c.Batch(ec, args, int(b.NumRows()))
	}
	return mapRows(ec, c.Type, int(b.NumRows()), args, func(vals []any) (any, error) {
		if c.NullStrict {
			for _, v := range vals {
				if v == nil {
					return nil, nil
				}
			}
		}
		return c.Fn(ec, vals)
	})
}

// mapRows is exec.MapRows, or exec.MapNestedRows when a list, map or
// struct is read or built: a CASE, coalesce or if over nested values
// passes them through whole (MapRows reads them only as text).
func mapRows(ec *exec.EvalContext, out arrow.DataType, n int, args []arrow.Array, fn func([]any) (any, error)) (arrow.Array, error) {
	nested := isNested(out)
	for _, a := range args {
		nested = nested || isNested(a.DataType())
	}
	if nested {
		return exec.MapNestedRows(ec, out, n, args, fn)
	}
	return exec.MapRows(ec, out, n, args, fn)
}

// Case is a searched CASE; a simple CASE is bound into this form.
type Case struct {
	Whens []Expr // boolean conditions
	Thens []Expr
	Else  Expr // nil means NULL
	Type  arrow.DataType
}

func (c *Case) DataType() arrow.DataType { return c.Type }
func (c *Case) String() string {
	var sb strings.Builder
	sb.WriteString("CASE")
	for i := range c.Whens {
		fmt.Fprintf(&sb, " WHEN %s THEN %s", c.Whens[i], c.Thens[i])
	}
	if c.Else != nil {
		fmt.Fprintf(&sb, " ELSE %s", c.Else)
	}
	sb.WriteString(" END")
	return sb.String()
}
func (c *Case) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	var arrs []arrow.Array
	defer func() { exec.ReleaseArrays(arrs) }()
	all := append(append([]Expr{}, c.Whens...), c.Thens...)
	if c.Else != nil {
		all = append(all, c.Else)
	}
	for _, e := range all {
		x, err := e.Eval(ec, b)
		if err != nil {
			return nil, err
		}
		arrs = append(arrs, x)
	}
	n := len(c.Whens)
	return mapRows(ec, c.Type, int(b.NumRows()), arrs, func(v []any) (any, error) {
		for i := 0; i < n; i++ {
			if t, ok := v[i].(bool); ok && t {
				return v[n+i], nil
			}
		}
		if c.Else != nil {
			return v[2*n], nil
		}
		return nil, nil
	})
}

// InList is E [NOT] IN (List...), with SQL NULL semantics: no match and a
// NULL in the list gives NULL.
type InList struct {
	E      Expr
	List   []Expr
	Negate bool
}

func (in *InList) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (in *InList) String() string {
	parts := make([]string, len(in.List))
	for i, a := range in.List {
		parts[i] = a.String()
	}
	not := ""
	if in.Negate {
		not = "NOT "
	}
	return fmt.Sprintf("(%s %sIN (%s))", in.E, not, strings.Join(parts, ", "))
}
func (in *InList) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	arrs := make([]arrow.Array, 0, len(in.List)+1)
	defer func() { exec.ReleaseArrays(arrs) }()
	for _, e := range append([]Expr{in.E}, in.List...) {
		x, err := e.Eval(ec, b)
		if err != nil {
			return nil, err
		}
		arrs = append(arrs, x)
	}
	return exec.MapRows(ec, arrow.FixedWidthTypes.Boolean, int(b.NumRows()), arrs, func(v []any) (any, error) {
		return inValues(v[0], v[1:], in.Negate), nil
	})
}

// inValues applies IN semantics to one probe value and candidate values.
// Nothing is in an empty set, not even NULL: x IN () is false and
// x NOT IN () true for every x (the standard's quantified comparison).
func inValues(x any, list []any, negate bool) any {
	if len(list) == 0 {
		return negate
	}
	if x == nil {
		return nil
	}
	sawNull := false
	for _, y := range list {
		if y == nil {
			sawNull = true
			continue
		}
		if exec.CompareValues(x, y) == 0 {
			return !negate
		}
	}
	if sawNull {
		return nil
	}
	return negate
}

// constArray is a helper for tests and folding: evaluates e over a one-row batch.
func evalConstant(ec *exec.EvalContext, e Expr) (any, error) {
	schema := arrow.NewSchema(nil, nil)
	b := array.NewRecordBatch(schema, nil, 1)
	defer b.Release()
	a, err := e.Eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return exec.ValueAt(a, 0), nil
}
