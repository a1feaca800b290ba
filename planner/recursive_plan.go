package planner

import (
	"fmt"
	"strings"
)

// WorkTable is the working table of one recursive CTE: the rows the
// previous iteration produced, which the recursive term reads. Its
// identity (the pointer) links a RecursiveCTE to the WorkTableScans in
// its recursive term.
type WorkTable struct {
	Name string
	Cols []Column
}

// WorkTableScan reads the working table of the enclosing RecursiveCTE.
type WorkTableScan struct{ Work *WorkTable }

func (w *WorkTableScan) Columns() []Column {
	out := make([]Column, len(w.Work.Cols))
	for i, c := range w.Work.Cols {
		out[i] = c
		out[i].Qualifier = w.Work.Name
	}
	return out
}
func (w *WorkTableScan) Children() []Plan { return nil }
func (w *WorkTableScan) String() string   { return explain(w) }
func (w *WorkTableScan) describe() string {
	return fmt.Sprintf("WorkTableScan %s [%s]", w.Work.Name, strings.Join(workColumnNames(w.Work.Cols), ", "))
}

// RecursiveCTE evaluates WITH RECURSIVE name AS (Anchor UNION [ALL]
// Recursive): the anchor's rows form the first working table, then the
// recursive term runs over the working table until it yields no new
// rows; every row produced is output. With Distinct (UNION) a row equal
// to one already produced is dropped, so cyclic data terminates.
// Recursive's columns are already cast to the anchor's types.
type RecursiveCTE struct {
	Work      *WorkTable
	Anchor    Plan
	Recursive Plan
	Distinct  bool
}

func (r *RecursiveCTE) Columns() []Column { return r.Work.Cols }
func (r *RecursiveCTE) Children() []Plan  { return []Plan{r.Anchor, r.Recursive} }
func (r *RecursiveCTE) String() string    { return explain(r) }
func (r *RecursiveCTE) describe() string {
	op := "union all"
	if r.Distinct {
		op = "union"
	}
	return fmt.Sprintf("RecursiveCTE %s [%s] %s", r.Work.Name, strings.Join(workColumnNames(r.Work.Cols), ", "), op)
}

func workColumnNames(cols []Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}
