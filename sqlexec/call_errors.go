package sqlexec

import (
	"errors"
	"fmt"
)

var (
	// ErrUnknownProcedure: CALL names no procedure of the system namespace.
	ErrUnknownProcedure = errors.New("sqlexec: unknown procedure")
	// ErrProcedureArgument: a CALL argument is unknown, missing, given
	// twice, of the wrong type or out of range; *ProcedureArgError says
	// which.
	ErrProcedureArgument = errors.New("sqlexec: bad procedure argument")
)

// ProcedureArgError names the procedure argument a CALL got wrong; it
// matches ErrProcedureArgument.
type ProcedureArgError struct {
	Procedure string // e.g. "expire_snapshots"
	Argument  string // e.g. "retain_last"; a position ("#3") when unnamed
	Reason    string
	Err       error // the cause, if any (e.g. one matching ErrLocation)
}

func (e *ProcedureArgError) Error() string {
	return fmt.Sprintf("sqlexec: CALL %s: argument %s: %s", e.Procedure, e.Argument, e.Reason)
}

func (e *ProcedureArgError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrProcedureArgument, e.Err}
	}
	return []error{ErrProcedureArgument}
}

// argErrorf returns the constructor of proc's argument errors.
func argErrorf(proc string) func(arg, format string, v ...any) error {
	return func(arg, format string, v ...any) error {
		return &ProcedureArgError{Procedure: proc, Argument: arg, Reason: fmt.Sprintf(format, v...)}
	}
}
