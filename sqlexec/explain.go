package sqlexec

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
)

// explain prints the optimized plan of a query, one line per row, with
// the files each Iceberg scan plans and prunes.
func (s *Session) explain(ctx context.Context, st *parser.ExplainStmt) (*Rows, error) {
	if st.Analyze {
		return s.explainAnalyze(ctx, st)
	}
	w, ok := st.Stmt.(*parser.TiDBStmt)
	if !ok {
		return nil, notSupported("EXPLAIN of %s", firstWords(st.Stmt.String()))
	}
	var node ast.Node
	switch n := w.Node.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		node = n
	case *ast.InsertStmt:
		if n.Select == nil {
			return nil, notSupported("EXPLAIN INSERT ... VALUES")
		}
		node = n.Select
	default:
		return nil, notSupported("EXPLAIN of %s", firstWords(w.Text))
	}
	q, err := s.bindQuery(ctx, node, w.Refs)
	if err != nil {
		return nil, err
	}
	text, err := planner.Explain(ctx, q.plan)
	if err != nil {
		return nil, err
	}
	return planRows(text)
}

// planRows is EXPLAIN's result: one text column, one row per line.
func planRows(text string) (*Rows, error) {
	var rows [][]any
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		rows = append(rows, []any{line})
	}
	return memRows(schemaOf(field("plan", tString, false)), rows)
}
