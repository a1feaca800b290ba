package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// Column describes one output column of a plan node.
type Column struct {
	Qualifier string // table name or alias the column is reachable by
	Name      string
	Type      arrow.DataType
	Nullable  bool
}

// Plan is a logical plan node. Nodes are immutable once built; optimizer
// passes build new nodes. String renders the subtree as EXPLAIN does.
type Plan interface {
	Columns() []Column
	Children() []Plan
	String() string
	describe() string
}

func explain(p Plan) string {
	var sb strings.Builder
	var walk func(p Plan, depth int, note string)
	walk = func(p Plan, depth int, note string) {
		sb.WriteString(strings.Repeat("  ", depth))
		sb.WriteString(p.describe())
		sb.WriteString(note)
		sb.WriteByte('\n')
		for _, c := range p.Children() {
			walk(c, depth+1, childNote(p, c))
		}
	}
	walk(p, 0, "")
	return sb.String()
}

func exprList(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// Scan reads Cols (indexes into the table schema) of a table; Filters are
// pushed predicates over the table schema, Limit a pushed row limit (-1 none).
type Scan struct {
	Table   Table
	Alias   string
	Cols    []int
	Filters []Expr
	Limit   int64
}

func (s *Scan) Columns() []Column {
	sch := s.Table.Schema()
	out := make([]Column, len(s.Cols))
	for i, c := range s.Cols {
		f := sch.Field(c)
		out[i] = Column{Qualifier: s.Alias, Name: f.Name, Type: f.Type, Nullable: f.Nullable}
	}
	return out
}
func (s *Scan) Children() []Plan { return nil }
func (s *Scan) String() string   { return explain(s) }
func (s *Scan) describe() string {
	names := make([]string, len(s.Cols))
	for i, c := range s.Cols {
		names[i] = s.Table.Schema().Field(c).Name
	}
	d := fmt.Sprintf("Scan %s", s.Table.Name())
	if s.Alias != "" && !strings.EqualFold(s.Alias, s.Table.Name()) {
		d += " AS " + s.Alias
	}
	d += " [" + strings.Join(names, ", ") + "]"
	if len(s.Filters) > 0 {
		d += " filters=[" + exprList(s.Filters) + "]"
	}
	if s.Limit >= 0 {
		d += fmt.Sprintf(" limit=%d", s.Limit)
	}
	return d
}

// Filter keeps rows where Pred is TRUE.
type Filter struct {
	Input Plan
	Pred  Expr
}

func (f *Filter) Columns() []Column { return f.Input.Columns() }
func (f *Filter) Children() []Plan  { return []Plan{f.Input} }
func (f *Filter) String() string    { return explain(f) }
func (f *Filter) describe() string  { return "Filter " + f.Pred.String() }

// Project computes Exprs, naming them by Cols.
type Project struct {
	Input Plan
	Exprs []Expr
	Cols  []Column
}

func (p *Project) Columns() []Column { return p.Cols }
func (p *Project) Children() []Plan  { return []Plan{p.Input} }
func (p *Project) String() string    { return explain(p) }
func (p *Project) describe() string {
	parts := make([]string, len(p.Exprs))
	for i, e := range p.Exprs {
		parts[i] = e.String() + " AS " + p.Cols[i].Name
	}
	return "Project " + strings.Join(parts, ", ")
}

// AggCall is one aggregate in an Aggregate node.
type AggCall struct {
	Func     exec.AggFunc
	Arg      Expr // nil for count(*)
	Distinct bool
	Type     arrow.DataType
}

func (a AggCall) String() string {
	if a.Arg == nil {
		return "count(*)"
	}
	d := ""
	if a.Distinct {
		d = "DISTINCT "
	}
	return fmt.Sprintf("%s(%s%s)", a.Func, d, a.Arg)
}

// Aggregate groups by Groups; output is the groups then the aggregates.
type Aggregate struct {
	Input  Plan
	Groups []Expr
	Aggs   []AggCall
	Cols   []Column
}

func (a *Aggregate) Columns() []Column { return a.Cols }
func (a *Aggregate) Children() []Plan  { return []Plan{a.Input} }
func (a *Aggregate) String() string    { return explain(a) }
func (a *Aggregate) describe() string {
	aggs := make([]string, len(a.Aggs))
	for i, c := range a.Aggs {
		aggs[i] = c.String()
	}
	return fmt.Sprintf("Aggregate groups=[%s] aggs=[%s]", exprList(a.Groups), strings.Join(aggs, ", "))
}

// SortKey orders by an expression over the input.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// Sort orders its input.
type Sort struct {
	Input Plan
	Keys  []SortKey
}

func (s *Sort) Columns() []Column { return s.Input.Columns() }
func (s *Sort) Children() []Plan  { return []Plan{s.Input} }
func (s *Sort) String() string    { return explain(s) }
func (s *Sort) describe() string {
	parts := make([]string, len(s.Keys))
	for i, k := range s.Keys {
		dir := "ASC"
		if k.Desc {
			dir = "DESC"
		}
		nulls := "NULLS LAST"
		if k.NullsFirst {
			nulls = "NULLS FIRST"
		}
		parts[i] = fmt.Sprintf("%s %s %s", k.Expr, dir, nulls)
	}
	return "Sort " + strings.Join(parts, ", ")
}

// Limit skips Offset rows and keeps Count (-1: all).
type Limit struct {
	Input         Plan
	Offset, Count int64
}

func (l *Limit) Columns() []Column { return l.Input.Columns() }
func (l *Limit) Children() []Plan  { return []Plan{l.Input} }
func (l *Limit) String() string    { return explain(l) }
func (l *Limit) describe() string  { return fmt.Sprintf("Limit offset=%d count=%d", l.Offset, l.Count) }

// Distinct removes duplicate rows (NULLs equal).
type Distinct struct{ Input Plan }

func (d *Distinct) Columns() []Column { return d.Input.Columns() }
func (d *Distinct) Children() []Plan  { return []Plan{d.Input} }
func (d *Distinct) String() string    { return explain(d) }
func (d *Distinct) describe() string  { return "Distinct" }

// Join combines Left and Right on LeftKeys[i] = RightKeys[i] (keys bound
// over their own side) and Residual (bound over Left++Right columns).
// Semi and Anti joins output only Left's columns.
type Join struct {
	Left, Right         Plan
	Type                exec.JoinType
	LeftKeys, RightKeys []Expr
	Residual            Expr
	NullAware           bool
	// Unread marks the output columns no ancestor reads (set by projection
	// pruning; nil: all are read): the join need not gather their values.
	Unread []bool
}

// numColumns is len(p.Columns()) without building the list: a join
// builds its list from its inputs' on every call, so counting that way
// down a deep join tree (a 20-table join) is quadratic in allocations.
func numColumns(p Plan) int {
	switch x := p.(type) {
	case *Join:
		if x.Type == exec.JoinSemi || x.Type == exec.JoinAnti {
			return numColumns(x.Left)
		}
		return numColumns(x.Left) + numColumns(x.Right)
	case *Filter:
		return numColumns(x.Input)
	case *Sort:
		return numColumns(x.Input)
	case *Limit:
		return numColumns(x.Input)
	}
	return len(p.Columns())
}

func (j *Join) Columns() []Column {
	l := j.Left.Columns()
	if j.Type == exec.JoinSemi || j.Type == exec.JoinAnti {
		return l
	}
	r := j.Right.Columns()
	out := make([]Column, 0, len(l)+len(r))
	for _, c := range l {
		if j.Type == exec.JoinRight || j.Type == exec.JoinFull {
			c.Nullable = true
		}
		out = append(out, c)
	}
	for _, c := range r {
		if j.Type == exec.JoinLeft || j.Type == exec.JoinFull {
			c.Nullable = true
		}
		out = append(out, c)
	}
	return out
}
func (j *Join) Children() []Plan { return []Plan{j.Left, j.Right} }
func (j *Join) String() string   { return explain(j) }
func (j *Join) describe() string {
	d := "Join " + j.Type.String()
	if len(j.LeftKeys) > 0 {
		parts := make([]string, len(j.LeftKeys))
		for i := range j.LeftKeys {
			parts[i] = fmt.Sprintf("%s = %s", j.LeftKeys[i], j.RightKeys[i])
		}
		d += " keys=[" + strings.Join(parts, ", ") + "]"
	}
	if j.Residual != nil {
		d += " on=" + j.Residual.String()
	}
	if j.NullAware {
		d += " null-aware"
	}
	return d
}

// SetKind is UNION, INTERSECT or EXCEPT.
type SetKind int

// Set operation kinds.
const (
	SetUnion SetKind = iota
	SetIntersect
	SetExcept
)

// SetOp combines two inputs with identical column types.
type SetOp struct {
	Kind        SetKind
	All         bool
	Left, Right Plan
}

func (s *SetOp) Columns() []Column {
	l, r := s.Left.Columns(), s.Right.Columns()
	out := make([]Column, len(l))
	for i := range l {
		out[i] = Column{Name: l[i].Name, Type: l[i].Type, Nullable: l[i].Nullable || r[i].Nullable}
	}
	return out
}
func (s *SetOp) Children() []Plan { return []Plan{s.Left, s.Right} }
func (s *SetOp) String() string   { return explain(s) }
func (s *SetOp) describe() string {
	d := [...]string{"Union", "Intersect", "Except"}[s.Kind]
	if s.All {
		d += " all"
	}
	return d
}

// Values produces constant rows.
type Values struct {
	Rows [][]Expr
	Cols []Column
	// strictNulls makes NULL in a non-nullable column an error (INSERT).
	strictNulls bool
}

func (v *Values) Columns() []Column { return v.Cols }
func (v *Values) Children() []Plan  { return nil }
func (v *Values) String() string    { return explain(v) }
func (v *Values) describe() string  { return fmt.Sprintf("Values rows=%d", len(v.Rows)) }
