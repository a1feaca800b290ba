package sqlexec

import (
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/pushdown"
)

// wholeFileFilter finds the scan of an optimized SELECT * ... WHERE plan
// and converts its pushed filters exactly; a filter left above the scan
// or not convertible gives false.
func wholeFileFilter(p planner.Plan) (expr.Expr, bool) {
	var scan *planner.Scan
	ok := true
	var walk func(p planner.Plan)
	walk = func(p planner.Plan) {
		switch n := p.(type) {
		case *planner.Filter:
			ok = false
		case *planner.Scan:
			scan = n
		}
		for _, c := range p.Children() {
			walk(c)
		}
	}
	walk(p)
	if !ok || scan == nil {
		return nil, false
	}
	it, isIceberg := scan.Table.(*icebergTable)
	if !isIceberg {
		return nil, false
	}
	return pushdown.Exact(it.arrow, scan.Filters)
}
