package sqlexec

import (
	"errors"
	"fmt"
)

var (
	// ErrNotSupported: SQL the session understands but cannot run yet.
	ErrNotSupported = errors.New("sqlexec: not supported yet")
	// ErrNoIcebergFeature: SQL for a feature Iceberg tables do not have
	// (indexes, triggers, unique constraints, REPLACE INTO); refused by
	// design, not a gap to be filled.
	ErrNoIcebergFeature = errors.New("sqlexec: not supported")
	// ErrReadOnly: a write through an engine opened read-only.
	ErrReadOnly = errors.New("sqlexec: engine is read-only")
	// ErrParams: the arguments do not match the statement's placeholders.
	ErrParams = errors.New("sqlexec: wrong parameters")
	// ErrClosed: the engine or session was closed.
	ErrClosed = errors.New("sqlexec: closed")
	// ErrInvalidStatement: a statement that is well-formed but cannot apply
	// to the table it names (unknown column, bad partition term, ...).
	ErrInvalidStatement = errors.New("sqlexec: invalid statement")
	// ErrTxnOpen: BEGIN while a transaction is already open.
	ErrTxnOpen = errors.New("sqlexec: a transaction is already open")
	// ErrNoTxn: COMMIT or ROLLBACK without an open transaction.
	ErrNoTxn = errors.New("sqlexec: no transaction is open")
	// ErrDDLInTxn: a catalog change (CREATE, DROP, ALTER, CALL) inside a
	// transaction; DDL is not transactional and is refused there.
	ErrDDLInTxn = errors.New("sqlexec: DDL is not allowed inside a transaction")
	// ErrInvalidSessionProperty: a SET value or combination the engine
	// cannot use.
	ErrInvalidSessionProperty = errors.New("sqlexec: invalid session property")
	// ErrTxnReadOnly: a write inside a read-only transaction.
	ErrTxnReadOnly = errors.New("sqlexec: transaction is read-only")
	// ErrIsolationLevel: an isolation level the engine cannot provide.
	ErrIsolationLevel = errors.New("sqlexec: unsupported isolation level")
	// ErrReadOptionsWrite: per-query snapshot options on a statement that
	// writes; they only choose what reads see.
	ErrReadOptionsWrite = errors.New("sqlexec: snapshot read options apply to queries only")
)

// ParamError says which placeholder argument is unusable.
type ParamError struct {
	Index int    // 1-based placeholder position ($n for $n); 0 for a count mismatch
	Name  string // of a named argument or placeholder
	Msg   string
}

func (e *ParamError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("sqlexec: parameter :%s: %s", e.Name, e.Msg)
	}
	if e.Index == 0 {
		return "sqlexec: parameters: " + e.Msg
	}
	return fmt.Sprintf("sqlexec: parameter %d: %s", e.Index, e.Msg)
}

func (e *ParamError) Unwrap() error { return ErrParams }

// StatementError names the statement kind an error happened in; Unwrap
// gives the cause (iceberg sentinels, planner errors, ...).
type StatementError struct {
	Stmt string // e.g. "CREATE TABLE db.t"
	Err  error
}

func (e *StatementError) Error() string { return e.Stmt + ": " + e.Err.Error() }

func (e *StatementError) Unwrap() error { return e.Err }

func notSupported(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrNotSupported}, args...)...)
}

// noIcebergFeature refuses SQL for a feature Iceberg has no equivalent of:
// "sqlexec: not supported: Iceberg has no indexes (CREATE INDEX)".
func noIcebergFeature(feature, what string) error {
	return fmt.Errorf("%w: Iceberg has no %s (%s)", ErrNoIcebergFeature, feature, what)
}

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidStatement}, args...)...)
}

// PositionError points an error about a name (an unknown table, column or
// function, an ambiguous column) at where the statement writes it: Line
// and Col (1-based) and Context, the statement's line with a caret under
// the name. Unwrap gives the error itself.
type PositionError struct {
	Err       error
	Line, Col int
	Context   string
}

func (e *PositionError) Error() string { return e.Err.Error() + "\n" + e.Context }

func (e *PositionError) Unwrap() error { return e.Err }
