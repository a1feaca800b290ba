package planner

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/exec"
)

// PlanQuery binds and optimizes a SELECT / set-operation statement.
func PlanQuery(ctx context.Context, cat Catalog, stmt ast.Node, opts BindOptions) (Plan, error) {
	p, err := Bind(ctx, cat, stmt, opts)
	if err != nil {
		return nil, err
	}
	return Optimize(p)
}

// Execute builds the physical operators for an optimized plan.
func Execute(ctx context.Context, ec *exec.EvalContext, p Plan) (exec.RecordIterator, error) {
	return Build(ctx, ec, p)
}

// Explain renders an optimized plan, with table pushdown details where
// tables implement Explainer.
func Explain(ctx context.Context, p Plan) (string, error) {
	out := p.String()
	var extra string
	var err error
	var walk func(p Plan)
	walk = func(p Plan) {
		if s, ok := p.(*Scan); ok {
			if ex, ok := s.Table.(Explainer); ok && err == nil {
				var d string
				d, err = ex.ExplainScan(ctx, ScanRequest{Columns: s.Cols, Filters: s.Filters, Limit: s.Limit})
				extra += s.Table.Name() + ": " + d + "\n"
			}
		}
		for _, c := range p.Children() {
			walk(c)
		}
	}
	walk(p)
	return out + extra, err
}
