package exec

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// GeneratorKind says which rows a Generate operator emits per element.
type GeneratorKind int

// Generator kinds (Spark's table-generating functions).
const (
	// GenExplode emits an array's element, or a map entry's key and value.
	GenExplode GeneratorKind = iota
	// GenPosExplode emits the 0-based position, then what GenExplode emits.
	GenPosExplode
	// GenInline emits the fields of each struct element of an array.
	GenInline
)

func (k GeneratorKind) String() string {
	switch k {
	case GenExplode:
		return "explode"
	case GenPosExplode:
		return "posexplode"
	case GenInline:
		return "inline"
	}
	return fmt.Sprintf("generator(%d)", int(k))
}

// ErrGenerator reports a generator applied to a value it cannot expand.
var ErrGenerator = errors.New("exec: generator argument")

// GeneratorError names the generator and the argument type it was given.
type GeneratorError struct {
	Kind GeneratorKind
	Type string
}

func (e *GeneratorError) Error() string {
	return fmt.Sprintf("%s cannot expand a value of type %s", e.Kind, e.Type)
}

func (e *GeneratorError) Unwrap() error { return ErrGenerator }

// Generate emits, for each input row, one row per element of the
// collection Arg evaluates to: the input columns followed by the
// generated columns. A NULL or empty collection emits no row, or with
// Outer one row whose generated columns are NULL. Out is the input schema
// followed by the generated fields. Output batches hold at most BatchRows
// rows (0: DefaultJoinBatchRows), however many elements one row has.
type Generate struct {
	Input     RecordIterator
	Arg       Expr
	Kind      GeneratorKind
	Outer     bool
	Out       *arrow.Schema
	EC        *EvalContext
	BatchRows int

	cur  arrow.RecordBatch
	coll array.ListLike
	row  int   // next input row of cur
	elem int64 // next element of that row (absolute index into the values)
}

func (g *Generate) Schema() *arrow.Schema { return g.Out }

func (g *Generate) Close() {
	g.releaseCur()
	g.Input.Close()
}

func (g *Generate) releaseCur() {
	if g.cur != nil {
		g.cur.Release()
		g.cur = nil
	}
	if g.coll != nil {
		g.coll.Release()
		g.coll = nil
	}
}

func (g *Generate) batchRows() int {
	if g.BatchRows > 0 {
		return g.BatchRows
	}
	return DefaultJoinBatchRows
}

func (g *Generate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if g.cur == nil {
			if err := g.load(ctx); err != nil || g.cur == nil {
				return nil, err
			}
		}
		rows, elems := g.plan()
		var out arrow.RecordBatch
		var err error
		if len(rows) > 0 {
			out, err = g.emit(ctx, rows, elems)
		}
		if g.row >= int(g.cur.NumRows()) {
			g.releaseCur()
		}
		if err != nil || out != nil {
			return out, err
		}
	}
}

// load reads the next input batch and evaluates the collection over it.
func (g *Generate) load(ctx context.Context) error {
	b, err := g.Input.Next(ctx)
	if err != nil || b == nil {
		return err
	}
	a, err := g.Arg.Eval(g.EC, b)
	if err != nil {
		b.Release()
		return err
	}
	ll, ok := a.(array.ListLike)
	if !ok || (g.Kind == GenInline && !isStructList(a)) {
		t := a.DataType().String()
		a.Release()
		b.Release()
		return &GeneratorError{Kind: g.Kind, Type: t}
	}
	g.cur, g.coll, g.row = b, ll, 0
	g.elem = -1
	return nil
}

// isStructList reports whether a is an array (not a map) of structs.
func isStructList(a arrow.Array) bool {
	if _, isMap := a.(*array.Map); isMap {
		return false
	}
	ll, ok := a.(array.ListLike)
	return ok && ll.ListValues().DataType().ID() == arrow.STRUCT
}

// plan picks the next output rows: the input row and the element index
// (-1: the NULL row of an OUTER generator) of each.
func (g *Generate) plan() (rows []int32, elems []int64) {
	limit := g.batchRows()
	n := int(g.cur.NumRows())
	for g.row < n && len(rows) < limit {
		start, end := g.coll.ValueOffsets(g.row)
		if g.coll.IsNull(g.row) || start >= end {
			if g.Outer {
				rows = append(rows, int32(g.row))
				elems = append(elems, -1)
			}
			g.row++
			continue
		}
		if g.elem < start {
			g.elem = start
		}
		for g.elem < end && len(rows) < limit {
			rows = append(rows, int32(g.row))
			elems = append(elems, g.elem)
			g.elem++
		}
		if g.elem >= end {
			g.row++
			g.elem = -1
		}
	}
	return rows, elems
}

// emit builds one output batch from the picked rows.
func (g *Generate) emit(ctx context.Context, rows []int32, elems []int64) (arrow.RecordBatch, error) {
	nIn := int(g.cur.NumCols())
	inSchema := arrow.NewSchema(g.Out.Fields()[:nIn], nil)
	in, err := TakeBatch(ctx, g.EC, inSchema, g.cur.Columns(), rows)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	gen, err := g.generated(ctx, rows, elems)
	if err != nil {
		return nil, err
	}
	defer ReleaseArrays(gen)
	cols := append(append([]arrow.Array{}, in.Columns()...), gen...)
	return NewBatch(g.EC, g.Out, cols, int64(len(rows)))
}

// generated builds the generated columns for the picked elements.
func (g *Generate) generated(ctx context.Context, rows []int32, elems []int64) ([]arrow.Array, error) {
	var out []arrow.Array
	fail := func(err error) ([]arrow.Array, error) {
		ReleaseArrays(out)
		return nil, err
	}
	if g.Kind == GenPosExplode {
		pb := array.NewInt32Builder(g.EC.Mem)
		pb.Reserve(len(elems))
		for i, e := range elems {
			if e < 0 {
				pb.UnsafeAppendBoolToBitmap(false)
				continue
			}
			start, _ := g.coll.ValueOffsets(int(rows[i]))
			pb.UnsafeAppend(int32(e - start))
		}
		out = append(out, pb.NewArray())
		pb.Release()
	}
	idx := make([]int32, len(elems))
	for i, e := range elems {
		idx[i] = int32(e)
	}
	var sources []arrow.Array
	switch c := g.coll.(type) {
	case *array.Map:
		sources = []arrow.Array{c.Keys(), c.Items()}
	default:
		values := c.ListValues()
		if g.Kind != GenInline {
			sources = []arrow.Array{values}
			break
		}
		st := values.(*array.Struct)
		// a NULL struct element yields a row of NULL fields
		for i, e := range idx {
			if e >= 0 && st.IsNull(int(e)) {
				idx[i] = -1
			}
		}
		for f := 0; f < st.NumField(); f++ {
			sources = append(sources, st.Field(f))
		}
	}
	for _, src := range sources {
		a, err := takeOrNull(ctx, g.EC, src, idx)
		if err != nil {
			return fail(err)
		}
		out = append(out, a)
	}
	return out, nil
}
