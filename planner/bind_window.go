package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/icesql/icesql/sqlexec/exec"
)

// winCtx collects the window calls of one SELECT. Calls bind to winRef
// placeholders because the Window nodes' input width is known only after
// every aggregate of the select list has been seen.
type winCtx struct {
	named  map[string]*ast.WindowSpec
	groups []*winGroup
}

// winGroup is the calls sharing one window (partition and order).
type winGroup struct {
	key       string
	partition []Expr
	order     []SortKey
	calls     []WindowCall
	refs      []*winRef
}

// winRef stands for a window call's output column until the Window nodes
// are placed.
type winRef struct {
	Type  arrow.DataType
	Name  string
	index int // set by place: the column in the last Window's output
}

func (w *winRef) DataType() arrow.DataType { return w.Type }
func (w *winRef) String() string           { return w.Name }
func (w *winRef) Eval(*exec.EvalContext, arrow.RecordBatch) (arrow.Array, error) {
	return nil, fmt.Errorf("%w: window call %s evaluated before planning", ErrInvalidQuery, w.Name)
}

func newWinCtx(specs []ast.WindowSpec) (*winCtx, error) {
	wc := &winCtx{named: map[string]*ast.WindowSpec{}}
	for i := range specs {
		name := strings.ToLower(specs[i].Name.O)
		if _, dup := wc.named[name]; dup {
			return nil, invalid("window %s is defined twice", specs[i].Name.O)
		}
		wc.named[name] = &specs[i]
	}
	return wc, nil
}

// resolveSpec merges a window specification with the named window it
// refers to (OVER w, or OVER (w ORDER BY ...)).
func (wc *winCtx) resolveSpec(s *ast.WindowSpec) (*ast.WindowSpec, error) {
	ref := s.Ref.O
	if s.OnlyAlias {
		ref = s.Name.O
	}
	if ref == "" {
		return s, nil
	}
	base, ok := wc.named[strings.ToLower(ref)]
	if !ok {
		return nil, invalid("window %s is not defined", ref)
	}
	base, err := wc.resolveSpec(base)
	if err != nil {
		return nil, err
	}
	if s.OnlyAlias {
		return base, nil
	}
	if s.PartitionBy != nil {
		return nil, invalid("a window referring to %s cannot have its own PARTITION BY", ref)
	}
	out := *base
	if s.OrderBy != nil {
		if base.OrderBy != nil {
			return nil, invalid("window %s already has an ORDER BY", ref)
		}
		out.OrderBy = s.OrderBy
	}
	if s.Frame != nil {
		out.Frame = s.Frame
	}
	return &out, nil
}

// bindWindowCall binds a window call in sc (whose win is wc) and returns
// its placeholder column.
func (b *binder) bindWindowCall(x *ast.WindowFuncExpr, sc *scope) (Expr, error) {
	wc := sc.win
	inner := *sc
	inner.win = nil // window calls do not nest
	spec, err := wc.resolveSpec(&x.Spec)
	if err != nil {
		return nil, err
	}
	var partition []Expr
	var keyParts []string
	if spec.PartitionBy != nil {
		for _, it := range spec.PartitionBy.Items {
			e, err := b.bindExpr(it.Expr, &inner)
			if err != nil {
				return nil, err
			}
			partition = append(partition, e)
			keyParts = append(keyParts, e.String())
		}
	}
	var order []SortKey
	keyParts = append(keyParts, "|")
	if spec.OrderBy != nil {
		items, err := orderItems(spec.OrderBy.Items)
		if err != nil {
			return nil, err
		}
		for _, o := range items {
			e, err := b.bindExpr(o.expr, &inner)
			if err != nil {
				return nil, err
			}
			order = append(order, SortKey{Expr: e, Desc: o.desc, NullsFirst: o.nullsFirst})
		}
		keyParts = append(keyParts, sortKeyList(order))
	}
	call, err := b.bindWindowFunc(x, &inner, spec, order)
	if err != nil {
		return nil, err
	}
	call.Name = restore(x)
	key := strings.Join(keyParts, ",")
	var g *winGroup
	for _, h := range wc.groups {
		if h.key == key {
			g = h
		}
	}
	if g == nil {
		g = &winGroup{key: key, partition: partition, order: order}
		wc.groups = append(wc.groups, g)
	}
	ref := &winRef{Type: call.Type, Name: call.Name}
	g.calls = append(g.calls, call)
	g.refs = append(g.refs, ref)
	return ref, nil
}

func (b *binder) bindWindowFunc(x *ast.WindowFuncExpr, sc *scope, spec *ast.WindowSpec, order []SortKey) (WindowCall, error) {
	name := strings.ToLower(x.Name)
	if x.IgnoreNull || x.FromLast {
		return WindowCall{}, unsupported("IGNORE NULLS / FROM LAST in %s", name)
	}
	frame, err := b.bindFrame(spec, order, sc)
	if err != nil {
		return WindowCall{}, err
	}
	call := WindowCall{Frame: frame}
	nargs := func(lo, hi int) error {
		if len(x.Args) < lo || len(x.Args) > hi {
			return invalid("%s takes %d to %d arguments, got %d", name, lo, hi, len(x.Args))
		}
		return nil
	}
	args := make([]Expr, len(x.Args))
	for i, a := range x.Args {
		if args[i], err = b.bindExpr(a, sc); err != nil {
			return WindowCall{}, err
		}
	}
	ranking := map[string]exec.WindowFunc{"row_number": exec.WinRowNumber, "rank": exec.WinRank,
		"dense_rank": exec.WinDenseRank, "percent_rank": exec.WinPercentRank, "cume_dist": exec.WinCumeDist}
	if f, ok := ranking[name]; ok {
		if err := nargs(0, 0); err != nil {
			return WindowCall{}, err
		}
		call.Func, call.Type = f, typeLong
		if f == exec.WinPercentRank || f == exec.WinCumeDist {
			call.Type = typeDouble
		}
		return call, nil
	}
	switch name {
	case "ntile":
		if err := nargs(1, 1); err != nil {
			return WindowCall{}, err
		}
		n, ok := intLiteral(x.Args[0])
		if !ok || n <= 0 {
			return WindowCall{}, invalid("ntile takes a positive integer literal")
		}
		call.Func, call.Type, call.N = exec.WinNtile, typeLong, n
	case "lag", "lead":
		if err := nargs(1, 3); err != nil {
			return WindowCall{}, err
		}
		call.Func, call.N = exec.WinLag, 1
		if name == "lead" {
			call.Func = exec.WinLead
		}
		if len(x.Args) > 1 {
			n, ok := intLiteral(x.Args[1])
			if !ok || n < 0 {
				return WindowCall{}, invalid("%s offset must be a non-negative integer literal", name)
			}
			call.N = n
		}
		t := args[0].DataType()
		call.Args = args[:1]
		if len(args) == 3 {
			if t, err = commonTypeOf(name, []Expr{args[0], args[2]}); err != nil {
				return WindowCall{}, err
			}
			call.Args = []Expr{coerce(args[0], t), coerce(args[2], t)}
		}
		call.Type = t
	case "first_value", "last_value":
		if err := nargs(1, 1); err != nil {
			return WindowCall{}, err
		}
		call.Func, call.Args, call.Type = exec.WinFirstValue, args, args[0].DataType()
		if name == "last_value" {
			call.Func = exec.WinLastValue
		}
	case "sum", "count", "avg", "min", "max":
		if x.Distinct {
			return WindowCall{}, unsupported("DISTINCT in window aggregate %s", name)
		}
		agg, err := b.bindAggCall(&ast.AggregateFuncExpr{F: name, Args: x.Args}, sc)
		if err != nil {
			return WindowCall{}, err
		}
		if _, dec := agg.Type.(*arrow.Decimal128Type); dec && (agg.Func == exec.AggSum || agg.Func == exec.AggAvg) {
			return WindowCall{}, unsupported("window %s over DECIMAL", name)
		}
		call.Func, call.Agg, call.Type = exec.WinAggregate, agg.Func, agg.Type
		if agg.Arg != nil {
			arg := agg.Arg
			if agg.Func == exec.AggAvg && arg.DataType().ID() != arrow.NULL {
				arg = coerce(arg, typeDouble)
			}
			call.Args = []Expr{arg}
		}
	default:
		return WindowCall{}, &UnknownFunctionError{Name: name}
	}
	return call, nil
}

func intLiteral(n ast.ExprNode) (int64, bool) {
	v, ok := n.(*driver.ValueExpr)
	if !ok {
		return 0, false
	}
	switch v.Kind() {
	case driver.KindInt64:
		return v.GetInt64(), true
	case driver.KindUint64:
		u := v.GetUint64()
		return int64(u), u <= 1<<62
	}
	return 0, false
}

// bindFrame converts the written frame; without one SQL's default applies.
// RANGE offsets are converted to the units of order's single key.
func (b *binder) bindFrame(spec *ast.WindowSpec, order []SortKey, sc *scope) (exec.WindowFrame, error) {
	f := spec.Frame
	if f == nil {
		return exec.DefaultFrame, nil
	}
	out := exec.WindowFrame{}
	switch f.Type {
	case ast.Rows:
		out.Rows = true
	case ast.Ranges:
	default:
		return out, unsupported("GROUPS window frames")
	}
	text := restore(f)
	var err error
	if out.Start, err = b.bindBound(f.Extent.Start, false, out.Rows, order, text, sc); err != nil {
		return out, err
	}
	if out.End, err = b.bindBound(f.Extent.End, true, out.Rows, order, text, sc); err != nil {
		return out, err
	}
	if err := out.Validate(); err != nil {
		return out, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return out, nil
}

func (b *binder) bindBound(fb ast.FrameBound, end, rows bool, order []SortKey, frame string, sc *scope) (exec.FrameBound, error) {
	switch {
	case fb.Type == ast.CurrentRow:
		return exec.FrameBound{Kind: exec.BoundCurrentRow}, nil
	case fb.UnBounded && fb.Type == ast.Preceding:
		return exec.FrameBound{Kind: exec.BoundUnboundedPreceding}, nil
	case fb.UnBounded:
		return exec.FrameBound{Kind: exec.BoundUnboundedFollowing}, nil
	}
	dir := "PRECEDING"
	kind := exec.BoundPreceding
	if fb.Type == ast.Following {
		dir, kind = "FOLLOWING", exec.BoundFollowing
	}
	if !rows {
		return b.bindRangeBound(fb, kind, end, order, frame, sc)
	}
	n, ok := intLiteral(fb.Expr)
	if !ok || n < 0 || fb.Unit != ast.TimeUnitInvalid {
		return exec.FrameBound{}, unsupported("ROWS frame bound %s %s (want a non-negative integer literal)", restore(fb.Expr), dir)
	}
	return exec.FrameBound{Kind: kind, Offset: n}, nil
}

// place stacks one Window node per distinct window over input and points
// every winRef at its output column.
func (wc *winCtx) place(input Plan) Plan {
	width := len(input.Columns())
	for _, g := range wc.groups {
		input = &Window{Input: input, Partition: g.partition, Order: g.order, Calls: g.calls}
		for i, r := range g.refs {
			r.index = width + i
		}
		width += len(g.calls)
	}
	return input
}

// resolveWinRefs replaces placeholders by column references.
func resolveWinRefs(e Expr) Expr {
	out, _ := transformExpr(e, func(x Expr) (Expr, error) {
		if r, ok := x.(*winRef); ok {
			return &ColumnRef{Index: r.index, Name: r.Name, Type: r.Type}, nil
		}
		return x, nil
	})
	return out
}
