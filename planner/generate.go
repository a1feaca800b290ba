package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// Generate emits, for each input row, one row per element of the array or
// map Arg evaluates to (Spark's LATERAL VIEW and generators in the select
// list): the input columns followed by Cols. A NULL or empty collection
// emits no row, or with Outer one row whose generated columns are NULL.
type Generate struct {
	Input Plan
	Kind  exec.GeneratorKind
	Func  string // the generator as written, for EXPLAIN
	Arg   Expr   // bound over Input
	Outer bool
	Cols  []Column
}

func (g *Generate) Columns() []Column {
	return append(append([]Column{}, g.Input.Columns()...), g.Cols...)
}
func (g *Generate) Children() []Plan { return []Plan{g.Input} }
func (g *Generate) String() string   { return explain(g) }
func (g *Generate) describe() string {
	names := make([]string, len(g.Cols))
	for i, c := range g.Cols {
		names[i] = c.Name
	}
	d := fmt.Sprintf("Generate %s(%s)", g.Func, g.Arg)
	if c, ok := g.Arg.(*Call); ok && c.Name == g.Func {
		d = "Generate " + c.String() // stack and json_tuple build their rows in one call
	}
	if g.Outer && !strings.HasSuffix(g.Func, "_outer") {
		d += " outer"
	}
	d += " AS "
	if q := g.qualifier(); q != "" {
		d += q
	}
	return d + "(" + strings.Join(names, ", ") + ")"
}

// qualifier is the lateral view's table alias as the user wrote it.
func (g *Generate) qualifier() string {
	if len(g.Cols) == 0 || g.Cols[0].Qualifier == liftedGeneratorQualifier {
		return ""
	}
	return g.Cols[0].Qualifier
}

// operator builds the physical operator of g over its built input.
func (g *Generate) operator(in exec.RecordIterator, ec *exec.EvalContext) exec.RecordIterator {
	return &exec.Generate{Input: in, Arg: g.Arg, Kind: g.Kind, Outer: g.Outer, Out: SchemaOf(g.Columns()), EC: ec}
}

func (b *builder) generate(g *Generate) (exec.RecordIterator, error) {
	in, err := b.build(g.Input)
	if err != nil {
		return nil, err
	}
	return g.operator(in, b.ec), nil
}

// pruneGenerate keeps every generated column (they decide the row count
// together) and reads from the input only what is needed above or by Arg.
func pruneGenerate(g *Generate, needed []int) (Plan, []int) {
	nIn := len(g.Input.Columns())
	used := map[int]bool{}
	for _, i := range needed {
		if i < nIn {
			used[i] = true
		}
	}
	columnsUsed(g.Arg, used)
	in, m := prune(g.Input, sortedKeys(used))
	c := *g
	c.Input = in
	c.Arg = remapColumns(g.Arg, toMap(m))
	mapping := append([]int{}, m...)
	newIn := len(in.Columns())
	for j := range g.Cols {
		mapping = append(mapping, newIn+j)
	}
	return &c, mapping
}

// pushIntoGenerate moves the predicates that read only input columns
// below g: a row they reject would only have been expanded to be dropped.
func pushIntoGenerate(g *Generate, preds []Expr) Plan {
	nIn := len(g.Input.Columns())
	var down, above []Expr
	for _, e := range preds {
		used := map[int]bool{}
		columnsUsed(e, used)
		inputOnly := true
		for i := range used {
			if i >= nIn {
				inputOnly = false
			}
		}
		if inputOnly {
			down = append(down, e)
		} else {
			above = append(above, e)
		}
	}
	c := *g
	c.Input = pushInto(g.Input, down)
	return wrapFilter(&c, above)
}

// generatorResult is what a generator produces from an argument type.
func generatorResult(fn string, kind exec.GeneratorKind, t arrow.DataType) ([]Column, error) {
	var cols []Column
	if kind == exec.GenPosExplode {
		cols = append(cols, Column{Name: "pos", Type: typeInt, Nullable: true})
	}
	switch x := t.(type) {
	case *arrow.MapType:
		if kind == exec.GenInline {
			break
		}
		return append(cols, Column{Name: "key", Type: x.KeyType(), Nullable: true},
			Column{Name: "value", Type: x.ItemType(), Nullable: true}), nil
	case *arrow.ListType:
		if kind != exec.GenInline {
			return append(cols, Column{Name: "col", Type: x.Elem(), Nullable: true}), nil
		}
		st, ok := x.Elem().(*arrow.StructType)
		if !ok {
			break
		}
		for _, f := range st.Fields() {
			cols = append(cols, Column{Name: f.Name, Type: f.Type, Nullable: true})
		}
		return cols, nil
	}
	want := "an array or a map"
	if kind == exec.GenInline {
		want = "an array of structs"
	}
	return nil, &GeneratorError{Func: fn, Problem: fmt.Sprintf("needs %s, not %s", want, sqlTypeName(t)), typ: true}
}
