package planner

import "fmt"

// RecursiveCTEError explains why a WITH RECURSIVE query cannot be
// evaluated. It wraps Err: ErrInvalidQuery, ErrType (the recursive term
// yields a value its column's type cannot hold) or ErrUnsupported (valid
// SQL the engine lacks, such as ORDER BY of the recursive union).
type RecursiveCTEError struct {
	CTE    string
	Reason string
	Err    error
}

func (e *RecursiveCTEError) Error() string {
	return fmt.Sprintf("recursive CTE %s: %s", e.CTE, e.Reason)
}

// Unwrap makes errors.Is hold for e.Err (ErrInvalidQuery when unset).
func (e *RecursiveCTEError) Unwrap() error {
	if e.Err == nil {
		return ErrInvalidQuery
	}
	return e.Err
}

func recursiveErr(cte, format string, args ...any) error {
	return &RecursiveCTEError{CTE: cte, Reason: fmt.Sprintf(format, args...)}
}
