package planner

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/sqlexec/exec"
)

// NewEvalContext returns an evaluation context for one query, with the
// memory limit and spill directory ctx carries (exec.WithMemoryConfig).
func NewEvalContext(ctx context.Context, mem memory.Allocator) *exec.EvalContext {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	ec := &exec.EvalContext{Mem: mem, Ctx: ctx, Now: time.Now().UTC()}
	if cfg, ok := exec.MemoryConfigFrom(ctx); ok {
		ec.MemoryLimit, ec.SpillDir = cfg.Limit, cfg.SpillDir
	}
	return ec
}

// SchemaOf converts plan columns to an Arrow schema.
func SchemaOf(cols []Column) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: c.Nullable}
	}
	return arrow.NewSchema(fields, nil)
}

// Build turns a logical plan into a physical iterator tree.
func Build(ctx context.Context, ec *exec.EvalContext, p Plan) (exec.RecordIterator, error) {
	b := &builder{ctx: ctx, ec: ec, an: analysisFrom(ctx)}
	if b.an != nil {
		b.an.addRoot(p)
	}
	return b.build(p)
}

type builder struct {
	ctx context.Context
	ec  *exec.EvalContext
	// work holds the rows each recursive CTE's work table scans read
	// in the step being built; joinBuilds are build sides a recursive
	// CTE's steps share (recursive_physical.go).
	work       map[*WorkTable][]arrow.RecordBatch
	joinBuilds map[*Join]*exec.JoinBuild
	// an is set under EXPLAIN ANALYZE: operators are wrapped in counters.
	an *Analysis
}

// build is buildNode's operator for p, counted under EXPLAIN ANALYZE.
func (b *builder) build(p Plan) (exec.RecordIterator, error) {
	it, err := b.buildNode(p)
	if err != nil || b.an == nil {
		return it, err
	}
	return b.an.wrap(p, it), nil
}

// scanRequest is what a Scan node asks of its table.
func (b *builder) scanRequest(s *Scan) ScanRequest {
	req := ScanRequest{Columns: s.Cols, Filters: s.Filters, Limit: s.Limit}
	if b.an != nil {
		req.Analysis = b.an.scan(s)
	}
	return req
}

func (b *builder) buildNode(p Plan) (exec.RecordIterator, error) {
	if err := b.prepareExprs(p); err != nil {
		return nil, err
	}
	switch n := p.(type) {
	case *Scan:
		return b.scan(n)
	case *Filter:
		if w, ok := n.Input.(*Window); ok {
			if k := windowRowLimit(n.Pred, w); k > 0 {
				if err := b.prepareExprs(w); err != nil {
					return nil, err
				}
				in, err := b.windowLimited(w, k)
				if err != nil {
					return nil, err
				}
				in = b.an.wrap(w, in)
				return &exec.Filter{Input: in, Pred: n.Pred, EC: b.ec}, nil
			}
		}
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		return &exec.Filter{Input: in, Pred: n.Pred, EC: b.ec}, nil
	case *Project:
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		return &exec.Project{Input: in, Exprs: toExec(n.Exprs), Out: SchemaOf(n.Cols), EC: b.ec}, nil
	case *Aggregate:
		if r := distinctAsGroups(n); r != nil {
			return b.build(r)
		}
		aggs := make([]exec.AggSpec, len(n.Aggs))
		for i, a := range n.Aggs {
			aggs[i] = exec.AggSpec{Func: a.Func, Distinct: a.Distinct, Out: a.Type}
			if a.Arg != nil {
				aggs[i].Arg = a.Arg
			}
		}
		if par, err := b.parallelAggregate(n, aggs); par != nil || err != nil {
			return par, err
		}
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		return &exec.HashAggregate{Input: in, Groups: toExec(n.Groups), Aggs: aggs, Out: SchemaOf(n.Cols), EC: b.ec}, nil
	case *Distinct:
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		return b.distinct(in, n.Columns()), nil
	case *Sort:
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		return &exec.Sort{Input: in, Keys: sortKeys(n), EC: b.ec}, nil
	case *Limit:
		if s, ok := n.Input.(*Sort); ok && n.Count >= 0 {
			return b.topN(n, s)
		}
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		return &exec.Limit{Input: in, Offset: n.Offset, Count: n.Count}, nil
	case *Join:
		if jb, ok := b.joinBuilds[n]; ok {
			return b.sharedJoin(n, jb)
		}
		l, r, err := b.build2(n.Left, n.Right)
		if err != nil {
			return nil, err
		}
		j := &exec.HashJoin{Left: l, Right: r, LeftKeys: toExec(n.LeftKeys), RightKeys: toExec(n.RightKeys),
			Type: n.Type, NullAware: n.NullAware, Out: SchemaOf(n.Columns()), EC: b.ec, Unread: n.Unread}
		if n.Residual != nil {
			j.Residual = n.Residual
		}
		return j, nil
	case *Window:
		return b.window(n)
	case *Generate:
		return b.generate(n)
	case *SetOp:
		return b.setOp(n)
	case *Values:
		return b.values(n)
	case *RecursiveCTE:
		return b.recursiveCTE(n)
	case *WorkTableScan:
		return b.workTableScan(n)
	case *MetadataAggregate:
		return b.metadataAggregate(n)
	}
	return nil, unsupported("plan node %T", p)
}

func sortKeys(s *Sort) []exec.SortKey {
	keys := make([]exec.SortKey, len(s.Keys))
	for i, k := range s.Keys {
		keys[i] = exec.SortKey{Expr: k.Expr, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return keys
}

// topN keeps only the OFFSET+LIMIT first rows of a sort (a heap), not all.
func (b *builder) topN(l *Limit, s *Sort) (exec.RecordIterator, error) {
	if err := b.prepareExprs(s); err != nil {
		return nil, err
	}
	in, err := b.build(s.Input)
	if err != nil {
		return nil, err
	}
	top := b.an.wrap(s, &exec.TopN{Input: in, Keys: sortKeys(s), N: saturatingAdd(l.Offset, l.Count), EC: b.ec})
	return &exec.Limit{Input: top, Offset: l.Offset, Count: l.Count}, nil
}

func (b *builder) build2(l, r Plan) (exec.RecordIterator, exec.RecordIterator, error) {
	li, err := b.build(l)
	if err != nil {
		return nil, nil, err
	}
	ri, err := b.build(r)
	if err != nil {
		li.Close()
		return nil, nil, err
	}
	return li, ri, nil
}

func toExec(es []Expr) []exec.Expr {
	out := make([]exec.Expr, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

func allColumnRefs(cols []Column) []exec.Expr {
	out := make([]exec.Expr, len(cols))
	for i, c := range cols {
		out[i] = &ColumnRef{Index: i, Name: c.Name, Type: c.Type}
	}
	return out
}

func (b *builder) distinct(in exec.RecordIterator, cols []Column) exec.RecordIterator {
	return &exec.HashAggregate{Input: in, Groups: allColumnRefs(cols), Out: SchemaOf(cols), EC: b.ec}
}

func (b *builder) scan(s *Scan) (exec.RecordIterator, error) {
	req := b.scanRequest(s)
	it, err := s.Table.Scan(b.ctx, req)
	if err != nil {
		return nil, err
	}
	if residual := b.scanResidual(s, req); residual != nil {
		return &exec.Filter{Input: it, Pred: residual, EC: b.ec}, nil
	}
	return it, nil
}

// scanResidual is the conjunction of the scan's filters the table does
// not apply exactly, over the scan's output columns (nil: none).
func (b *builder) scanResidual(s *Scan, req ScanRequest) Expr {
	var exact []bool
	if ef, ok := s.Table.(ExactFilterer); ok {
		exact = ef.ExactFilters(req)
	}
	var residual Expr
	pos := map[int]int{}
	for i, c := range s.Cols {
		pos[c] = i
	}
	for i, f := range s.Filters {
		if i < len(exact) && exact[i] {
			continue
		}
		re := remapColumns(f, pos)
		if residual == nil {
			residual = re
		} else {
			residual = &Logic{L: residual, R: re}
		}
	}
	return residual
}

func (b *builder) setOp(n *SetOp) (exec.RecordIterator, error) {
	l, r, err := b.build2(n.Left, n.Right)
	if err != nil {
		return nil, err
	}
	cols := n.Columns()
	out := SchemaOf(cols)
	switch n.Kind {
	case SetUnion:
		u := &exec.Union{Inputs: []exec.RecordIterator{l, r}, Out: out}
		if n.All {
			return u, nil
		}
		return b.distinct(u, cols), nil
	}
	t := exec.JoinSemi
	if n.Kind == SetExcept {
		t = exec.JoinAnti
	}
	if n.All {
		// number duplicate rows on both sides and match (row, number)
		numbered := append(append([]Column{}, cols...), Column{Name: "occurrence", Type: typeLong})
		ns := SchemaOf(numbered)
		keys := allColumnRefs(numbered)
		j := &exec.HashJoin{Left: &exec.Occurrence{Input: l, Out: ns, EC: b.ec}, Right: &exec.Occurrence{Input: r, Out: ns, EC: b.ec},
			LeftKeys: keys, RightKeys: keys, Type: t, NullsEqual: true, Out: ns, EC: b.ec}
		return &exec.Project{Input: j, Exprs: allColumnRefs(cols), Out: out, EC: b.ec}, nil
	}
	keys := allColumnRefs(cols)
	j := &exec.HashJoin{Left: l, Right: r, LeftKeys: keys, RightKeys: keys, Type: t, NullsEqual: true, Out: out, EC: b.ec}
	return b.distinct(j, cols), nil
}

func (b *builder) values(v *Values) (exec.RecordIterator, error) {
	out := SchemaOf(v.Cols)
	empty := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer empty.Release()
	builders := make([]array.Builder, len(v.Cols))
	for i, c := range v.Cols {
		builders[i] = array.NewBuilder(b.ec.Mem, c.Type)
		defer builders[i].Release()
	}
	// nested values have no Go value form: their one-row arrays are kept
	// and concatenated
	nested := make([][]arrow.Array, len(v.Cols))
	defer func() {
		for _, as := range nested {
			exec.ReleaseArrays(as)
		}
	}()
	for r, row := range v.Rows {
		for i, e := range row {
			a, err := e.Eval(b.ec, empty)
			if err != nil {
				if v.strictNulls && len(v.Cols[i].Name) > 0 {
					// INSERT ... VALUES: say which value failed.
					err = &ValueError{Column: v.Cols[i].Name, Type: columnTypeName(v.Cols[i].Type), Row: r + 1, Err: err}
				}
				return nil, err
			}
			if a.IsNull(0) && !v.Cols[i].Nullable && v.Cols[i].Type.ID() != arrow.NULL && len(v.Cols[i].Name) > 0 && v.strictNulls {
				a.Release()
				return nil, &exec.NullViolationError{Column: v.Cols[i].Name, Row: r + 1}
			}
			if isNested(v.Cols[i].Type) {
				c, err := exec.Cast(b.ec, a, v.Cols[i].Type)
				a.Release()
				if err != nil {
					return nil, err
				}
				nested[i] = append(nested[i], c)
				continue
			}
			val := exec.ValueAt(a, 0)
			a.Release()
			if err := exec.AppendValue(builders[i], val); err != nil {
				return nil, err
			}
		}
	}
	cols := make([]arrow.Array, len(builders))
	defer func() { exec.ReleaseArrays(cols) }()
	for i, bl := range builders {
		if len(nested[i]) == 0 {
			cols[i] = bl.NewArray()
			continue
		}
		c, err := array.Concatenate(nested[i], b.ec.Mem)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	rb, err := exec.NewBatch(b.ec, out, cols, int64(len(v.Rows)))
	if err != nil {
		return nil, err
	}
	return &exec.Values{Out: out, Batches: []arrow.RecordBatch{rb}}, nil
}

// prepareExprs gives subquery expressions in p what they need to run.
func (b *builder) prepareExprs(p Plan) error {
	for _, e := range planExprs(p) {
		walkExpr(e, func(x Expr) {
			if sq, ok := x.(subqueryExpr); ok {
				sq.setRunner(b.runSubquery)
			}
		})
	}
	return nil
}

func (b *builder) runSubquery(p Plan) ([]arrow.RecordBatch, error) {
	it, err := b.build(p)
	if err != nil {
		return nil, err
	}
	return exec.Collect(b.ctx, it)
}
