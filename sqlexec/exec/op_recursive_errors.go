package exec

import (
	"errors"
	"fmt"
)

// ErrRecursionLimit reports a recursive CTE stopped before it finished:
// it ran MaxRecursion iterations or its state outgrew the memory limit.
// *RecursionLimitError wraps it.
var ErrRecursionLimit = errors.New("exec: recursive CTE limit reached")

// RecursionLimitError names the recursive CTE and the bound it reached.
type RecursionLimitError struct {
	CTE string
	// Bound is "iterations" (Max is the iteration count, see
	// MaxRecursion) or "memory" (Max is the byte budget, the session's
	// memory_limit).
	Bound string
	Max   int64
}

func (e *RecursionLimitError) Error() string {
	if e.Bound == "memory" {
		return fmt.Sprintf("recursive CTE %s: its working rows exceed the memory limit of %d bytes (does the recursion terminate?)", e.CTE, e.Max)
	}
	return fmt.Sprintf("recursive CTE %s: still producing rows after %d iterations (the limit, exec.MaxRecursion); does its recursive term terminate?", e.CTE, e.Max)
}

// Unwrap makes errors.Is(err, ErrRecursionLimit) hold.
func (e *RecursionLimitError) Unwrap() error { return ErrRecursionLimit }
