package sqlexec

import (
	"context"
	"fmt"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
)

// explainAnalyze runs the statement, as Postgres does (a write under
// EXPLAIN ANALYZE commits like the write itself), discards its rows and
// prints each plan it built with what every operator did, then the
// planning and execution times.
func (s *Session) explainAnalyze(ctx context.Context, st *parser.ExplainStmt) (*Rows, error) {
	write := false
	switch x := st.Stmt.(type) {
	case *parser.TiDBStmt:
		switch x.Node.(type) {
		case *ast.SelectStmt, *ast.SetOprStmt:
		case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
			write = true
		default:
			return nil, notSupported("EXPLAIN ANALYZE of %s (it runs queries, INSERT, UPDATE, DELETE and MERGE)", firstWords(x.Text))
		}
	case *parser.MergeStmt, *parser.InsertOverwriteStmt:
		write = true
	default:
		return nil, notSupported("EXPLAIN ANALYZE of %s (it runs queries, INSERT, UPDATE, DELETE and MERGE)", firstWords(st.Stmt.String()))
	}
	an := planner.NewAnalysis()
	actx := planner.WithAnalysis(ctx, an)
	start := time.Now()
	var affected int64
	if write {
		res, err := s.execOne(actx, st.Stmt)
		if err != nil {
			return nil, err
		}
		affected = res.RowsAffected
	} else if err := s.drain(actx, st.Stmt); err != nil {
		return nil, err
	}
	end := time.Now()
	text := an.Render(planner.RenderOptions{NoTiming: st.NoTiming, NoBytes: st.NoBuffers})
	if write {
		text += fmt.Sprintf("Rows affected: %d\n", affected)
	}
	if !st.NoSummary {
		built := an.FirstBuild()
		if built.IsZero() {
			built = end
		}
		text += "Planning time: " + planner.FormatMillis(built.Sub(start)) + "\n"
		text += "Execution time: " + planner.FormatMillis(end.Sub(built)) + "\n"
	}
	return planRows(text)
}

// drain runs a query and discards its rows.
func (s *Session) drain(ctx context.Context, st parser.Statement) error {
	rows, err := s.queryOne(ctx, st)
	if err != nil {
		return err
	}
	defer rows.Close()
	for {
		b, err := rows.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		b.Release()
	}
}
