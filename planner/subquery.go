package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/sqlexec/exec"
)

type subqueryRunner func(p Plan) ([]arrow.RecordBatch, error)

type subqueryExpr interface {
	setRunner(subqueryRunner)
}

// OuterRef reads column Index of the current outer row while a correlated
// subquery runs once per outer row.
type OuterRef struct {
	Slot  *OuterRow
	Index int
	Name  string
	Type  arrow.DataType
}

// OuterRow holds the outer row a correlated subquery is evaluated for.
type OuterRow struct {
	Values []any
}

func (o *OuterRef) DataType() arrow.DataType { return o.Type }
func (o *OuterRef) String() string           { return fmt.Sprintf("outer(%s#%d)", o.Name, o.Index) }
func (o *OuterRef) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	var v any
	if o.Index < len(o.Slot.Values) {
		v = o.Slot.Values[o.Index]
	}
	return exec.ConstantArray(ec, o.Type, v, int(b.NumRows()))
}

// subqueryBase runs Plan once if uncorrelated, else once per outer row.
type subqueryBase struct {
	Plan Plan
	// OuterCols are expressions over the outer input whose values the
	// subquery's OuterRefs read, by position; empty when uncorrelated.
	OuterCols  []Expr
	Correlated *OuterRow
	run        subqueryRunner
	cached     [][]any
	haveCache  bool
}

func (s *subqueryBase) setRunner(r subqueryRunner) { s.run = r }

// forEachRow calls f with the subquery's result for each row of b.
func (s *subqueryBase) forEachRow(ec *exec.EvalContext, b arrow.RecordBatch, f func(i int, res [][]any) (any, error), out arrow.DataType) (arrow.Array, error) {
	if s.run == nil {
		return nil, fmt.Errorf("planner: subquery evaluated before it was prepared")
	}
	bld := array.NewBuilder(ec.Mem, out)
	defer bld.Release()
	n := int(b.NumRows())
	outer := make([]arrow.Array, len(s.OuterCols))
	defer func() { exec.ReleaseArrays(outer) }()
	for i, e := range s.OuterCols {
		a, err := e.Eval(ec, b)
		if err != nil {
			return nil, err
		}
		outer[i] = a
	}
	for i := 0; i < n; i++ {
		var res [][]any
		if s.Correlated == nil {
			if !s.haveCache {
				r, err := s.runRows()
				if err != nil {
					return nil, err
				}
				s.cached, s.haveCache = r, true
			}
			res = s.cached
		} else {
			vals := make([]any, len(outer))
			for c := range vals {
				vals[c] = exec.ValueAt(outer[c], i)
			}
			s.Correlated.Values = vals
			r, err := s.runRows()
			if err != nil {
				return nil, err
			}
			res = r
		}
		v, err := f(i, res)
		if err != nil {
			return nil, err
		}
		if err := exec.AppendValue(bld, v); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}

// runRows runs the subquery and returns its rows as values.
func (s *subqueryBase) runRows() ([][]any, error) {
	bs, err := s.run(s.Plan)
	if err != nil {
		return nil, err
	}
	defer exec.ReleaseAll(bs)
	var rows [][]any
	for _, b := range bs {
		for r := 0; r < int(b.NumRows()); r++ {
			row := make([]any, b.NumCols())
			for c := range row {
				row[c] = exec.ValueAt(b.Column(c), r)
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// ScalarSubquery yields the single value of a one-column subquery, NULL
// for no rows, and an error for more than one.
type ScalarSubquery struct {
	subqueryBase
	Type arrow.DataType
}

func (s *ScalarSubquery) DataType() arrow.DataType { return s.Type }
func (s *ScalarSubquery) String() string           { return "(scalar subquery)" }
func (s *ScalarSubquery) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	return s.forEachRow(ec, b, func(_ int, res [][]any) (any, error) {
		switch len(res) {
		case 0:
			return nil, nil
		case 1:
			return res[0][0], nil
		}
		return nil, exec.ErrScalarSubqueryRows
	}, s.Type)
}

// Exists is [NOT] EXISTS (subquery).
type Exists struct {
	subqueryBase
	Negate bool
}

func (e *Exists) DataType() arrow.DataType { return typeBool }
func (e *Exists) String() string {
	if e.Negate {
		return "NOT EXISTS(subquery)"
	}
	return "EXISTS(subquery)"
}
func (e *Exists) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	return e.forEachRow(ec, b, func(_ int, res [][]any) (any, error) {
		return (len(res) > 0) != e.Negate, nil
	}, typeBool)
}

// InSubquery is E [NOT] IN (subquery) with IN's NULL semantics.
type InSubquery struct {
	subqueryBase
	E      Expr
	Negate bool
}

func (in *InSubquery) DataType() arrow.DataType { return typeBool }
func (in *InSubquery) String() string {
	if in.Negate {
		return fmt.Sprintf("(%s NOT IN (subquery))", in.E)
	}
	return fmt.Sprintf("(%s IN (subquery))", in.E)
}
func (in *InSubquery) Eval(ec *exec.EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := in.E.Eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	var list []any
	listFor := -1
	return in.forEachRow(ec, b, func(i int, res [][]any) (any, error) {
		if in.Correlated != nil || listFor < 0 {
			list = list[:0]
			for _, r := range res {
				list = append(list, r[0])
			}
			listFor = i
		}
		return inValues(exec.ValueAt(x, i), list, in.Negate), nil
	}, typeBool)
}
