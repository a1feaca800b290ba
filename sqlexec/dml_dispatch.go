package sqlexec

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/dml"
	"github.com/icesql/icesql/sqlexec/parser"
)

// dmlRunner runs row-level statements with this session's tables.
func (s *Session) dmlRunner() *dml.Runner {
	return &dml.Runner{
		Load:      s.loadTable,
		Txn:       s.Txn(),
		Isolation: s.TxIsolation(),
		Manifests: s.engine.manifests,
		Catalog:   &resolver{s: s, cache: map[string]planner.Table{}},
		Prepare:   s.applyWAP,
	}
}

func (s *Session) dmlDelete(ctx context.Context, w *parser.TiDBStmt, del *ast.DeleteStmt) (Result, error) {
	if err := s.checkWritable(); err != nil {
		return Result{}, err
	}
	n, err := s.dmlRunner().Delete(ctx, w, del)
	return Result{RowsAffected: n}, err
}

func (s *Session) dmlUpdate(ctx context.Context, w *parser.TiDBStmt, upd *ast.UpdateStmt) (Result, error) {
	if err := s.checkWritable(); err != nil {
		return Result{}, err
	}
	n, err := s.dmlRunner().Update(ctx, w, upd)
	return Result{RowsAffected: n}, err
}

func (s *Session) dmlMerge(ctx context.Context, st *parser.MergeStmt) (Result, error) {
	n, err := s.dmlRunner().Merge(ctx, st)
	return Result{RowsAffected: n}, err
}
