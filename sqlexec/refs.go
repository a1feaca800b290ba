package sqlexec

import (
	"context"

	"github.com/icesql/icesql/sqlexec/parser"
)

// isRefAction reports whether an ALTER TABLE action creates or drops a
// branch or tag.
func isRefAction(a parser.AlterAction) bool {
	switch a.(type) {
	case parser.CreateRefAction, parser.DropRefAction:
		return true
	}
	return false
}

// alterRef runs ALTER TABLE t CREATE/REPLACE/DROP BRANCH|TAG.
func (s *Session) alterRef(ctx context.Context, st *parser.AlterTableStmt) (Result, error) {
	return Result{}, notSupported("ALTER TABLE ... %s", firstWords(st.Action.String()))
}
