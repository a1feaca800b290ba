package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// WindowCall is one window function of a Window node; Args are bound over
// the node's input.
type WindowCall struct {
	Func  exec.WindowFunc
	Agg   exec.AggFunc // for exec.WinAggregate
	Args  []Expr
	N     int64 // ntile buckets, lag/lead offset
	Frame exec.WindowFrame
	Type  arrow.DataType
	Name  string // the call as written, for EXPLAIN and column names
}

func (c WindowCall) String() string {
	name := c.Func.String()
	if c.Func == exec.WinAggregate {
		name = c.Agg.String()
	}
	d := fmt.Sprintf("%s(%s)", name, exprList(c.Args))
	if c.Func == exec.WinNtile || c.Func == exec.WinLag || c.Func == exec.WinLead {
		d = fmt.Sprintf("%s(%s; n=%d)", name, exprList(c.Args), c.N)
	}
	if c.Func.UsesFrame() {
		d += " " + c.Frame.String()
	}
	return d
}

// Window computes Calls over one window (Partition, Order). Its output is
// the input columns followed by one column per call; row order is the
// window's sort order.
type Window struct {
	Input     Plan
	Partition []Expr
	Order     []SortKey
	Calls     []WindowCall
}

func (w *Window) Columns() []Column {
	cols := append([]Column{}, w.Input.Columns()...)
	for _, c := range w.Calls {
		cols = append(cols, Column{Name: c.Name, Type: c.Type, Nullable: true})
	}
	return cols
}
func (w *Window) Children() []Plan { return []Plan{w.Input} }
func (w *Window) String() string   { return explain(w) }
func (w *Window) describe() string {
	calls := make([]string, len(w.Calls))
	for i, c := range w.Calls {
		calls[i] = c.String()
	}
	d := "Window"
	if len(w.Partition) > 0 {
		d += " partition=[" + exprList(w.Partition) + "]"
	}
	if len(w.Order) > 0 {
		d += " order=[" + sortKeyList(w.Order) + "]"
	}
	return d + " calls=[" + strings.Join(calls, ", ") + "]"
}

func sortKeyList(keys []SortKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
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
	return strings.Join(parts, ", ")
}

// windowExprs lists the expressions a Window node holds.
func windowExprs(w *Window) []Expr {
	out := append([]Expr{}, w.Partition...)
	for _, k := range w.Order {
		out = append(out, k.Expr)
	}
	for _, c := range w.Calls {
		out = append(out, c.Args...)
	}
	return out
}

// mapWindowExprs rebuilds w with f applied to its expressions.
func mapWindowExprs(w *Window, f func(Expr) (Expr, error)) (Plan, error) {
	c := *w
	var err error
	c.Partition = make([]Expr, len(w.Partition))
	for i, e := range w.Partition {
		if c.Partition[i], err = f(e); err != nil {
			return nil, err
		}
	}
	c.Order = append([]SortKey{}, w.Order...)
	for i := range c.Order {
		if c.Order[i].Expr, err = f(c.Order[i].Expr); err != nil {
			return nil, err
		}
	}
	c.Calls = append([]WindowCall{}, w.Calls...)
	for i := range c.Calls {
		args := make([]Expr, len(c.Calls[i].Args))
		for j, a := range c.Calls[i].Args {
			if args[j], err = f(a); err != nil {
				return nil, err
			}
		}
		c.Calls[i].Args = args
	}
	return &c, nil
}

func (b *builder) window(n *Window) (exec.RecordIterator, error) {
	return b.windowLimited(n, 0)
}

// windowLimited builds n; rowLimit > 0 lets it emit only each
// partition's first rowLimit rows (a filter above drops the others).
func (b *builder) windowLimited(n *Window, rowLimit int64) (exec.RecordIterator, error) {
	in, err := b.build(n.Input)
	if err != nil {
		return nil, err
	}
	calls := make([]exec.WindowCall, len(n.Calls))
	for i, c := range n.Calls {
		calls[i] = exec.WindowCall{Func: c.Func, Agg: c.Agg, Args: toExec(c.Args), N: c.N, Frame: c.Frame, Out: c.Type}
	}
	order := make([]exec.SortKey, len(n.Order))
	for i, k := range n.Order {
		order[i] = exec.SortKey{Expr: k.Expr, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return &exec.Window{Input: in, Partition: toExec(n.Partition), Order: order, Calls: calls,
		RowLimit: rowLimit, SerialKeys: exprsHaveSubquery(windowExprs(n)), Out: SchemaOf(n.Columns()), EC: b.ec}, nil
}
