package planner

import "fmt"

// RecursiveCTEError explains why a WITH RECURSIVE query cannot be
// evaluated. It wraps ErrInvalidQuery, or ErrUnsupported for valid SQL
// the engine does not implement (ORDER BY of the recursive union).
type RecursiveCTEError struct {
	CTE    string
	Reason string
	// Unsupported marks a query the standard allows but the engine lacks.
	Unsupported bool
}

func (e *RecursiveCTEError) Error() string {
	return fmt.Sprintf("recursive CTE %s: %s", e.CTE, e.Reason)
}

// Unwrap makes errors.Is hold for ErrInvalidQuery or ErrUnsupported.
func (e *RecursiveCTEError) Unwrap() error {
	if e.Unsupported {
		return ErrUnsupported
	}
	return ErrInvalidQuery
}

func recursiveErr(cte, format string, args ...any) error {
	return &RecursiveCTEError{CTE: cte, Reason: fmt.Sprintf(format, args...)}
}
