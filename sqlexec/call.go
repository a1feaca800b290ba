package sqlexec

import (
	"context"

	"github.com/icesql/icesql/sqlexec/parser"
)

// call runs CALL [catalog.]system.<procedure>(args) and returns the
// procedure's result set.
func (s *Session) call(ctx context.Context, st *parser.CallStmt) (*Rows, error) {
	return nil, notSupported("CALL %s", parser.QuoteName(st.Name))
}

// callExec runs a CALL for its effect, discarding the result rows.
func (s *Session) callExec(ctx context.Context, st *parser.CallStmt) (Result, error) {
	rows, err := s.call(ctx, st)
	if err != nil {
		return Result{}, err
	}
	return Result{}, rows.Close()
}
