package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Names of the marker calls the SQL front end (sqlexec/parser) writes in
// place of NULLS FIRST / NULLS LAST, which TiDB cannot parse.
const (
	nullsFirstMarker = "__icesql_nulls_first"
	nullsLastMarker  = "__icesql_nulls_last"
)

// orderItem is one ORDER BY key as written.
type orderItem struct {
	expr       ast.ExprNode
	desc       bool
	nullsFirst bool
}

// orderItems reads ORDER BY items, applying NULLS FIRST/LAST markers to
// the item before them. Without one, NULLs sort as the smallest value.
func orderItems(items []*ast.ByItem) ([]orderItem, error) {
	var out []orderItem
	for _, it := range items {
		if call, ok := it.Expr.(*ast.FuncCallExpr); ok {
			name := strings.ToLower(call.FnName.O)
			if name == nullsFirstMarker || name == nullsLastMarker {
				if len(out) == 0 || len(call.Args) != 0 || it.Desc {
					return nil, invalid("NULLS FIRST/LAST must follow an ORDER BY expression")
				}
				out[len(out)-1].nullsFirst = name == nullsFirstMarker
				continue
			}
		}
		out = append(out, orderItem{expr: it.Expr, desc: it.Desc, nullsFirst: !it.Desc})
	}
	return out, nil
}
