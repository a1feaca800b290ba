package planner

import (
	"errors"
	"fmt"
	"strings"
)

var (
	// ErrUnknownColumn is wrapped by *UnknownColumnError.
	ErrUnknownColumn = errors.New("unknown column")
	// ErrAmbiguousColumn is wrapped by *AmbiguousColumnError.
	ErrAmbiguousColumn = errors.New("ambiguous column")
	// ErrUnknownTable is wrapped by *UnknownTableError.
	ErrUnknownTable = errors.New("unknown table")
	// ErrUnknownFunction is wrapped by *UnknownFunctionError.
	ErrUnknownFunction = errors.New("unknown function")
	// ErrType reports operands of the wrong type; wrapped by *TypeMismatchError.
	ErrType = errors.New("type mismatch")
	// ErrUnsupported reports SQL the engine does not implement.
	ErrUnsupported = errors.New("unsupported")
	// ErrInvalidQuery reports SQL that is well-formed but meaningless
	// (aggregate misuse, wrong column counts, bad ORDER BY position...).
	ErrInvalidQuery = errors.New("invalid query")
)

// UnknownColumnError names a column that no table in scope has.
// Suggestion is a near-miss name in scope ("" when none is close).
type UnknownColumnError struct{ Qualifier, Name, Suggestion string }

func (e *UnknownColumnError) Error() string {
	if e.Qualifier != "" {
		return fmt.Sprintf("unknown column %s.%s%s", e.Qualifier, e.Name, didYouMean(e.Suggestion))
	}
	return "unknown column " + e.Name + didYouMean(e.Suggestion)
}
func (e *UnknownColumnError) Unwrap() error { return ErrUnknownColumn }

// AmbiguousColumnError names a column that several tables in scope have.
type AmbiguousColumnError struct {
	Name       string
	Candidates []string
}

func (e *AmbiguousColumnError) Error() string {
	return fmt.Sprintf("ambiguous column %s (could be %s)", e.Name, strings.Join(e.Candidates, ", "))
}
func (e *AmbiguousColumnError) Unwrap() error { return ErrAmbiguousColumn }

// UnknownTableError names a table the catalog does not have. Err is the
// catalog's error, when it has one (it matches iceberg.ErrNoSuchTable);
// Suggestion is a near-miss table name ("" when none is close).
type UnknownTableError struct {
	Name       string
	Suggestion string
	Err        error
}

func (e *UnknownTableError) Error() string {
	if e.Err != nil {
		return "table " + e.Name + " does not exist" + didYouMean(e.Suggestion)
	}
	return "unknown table " + e.Name + didYouMean(e.Suggestion)
}

func (e *UnknownTableError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrUnknownTable, e.Err}
	}
	return []error{ErrUnknownTable}
}

// UnknownFunctionError names a function the engine does not have.
// Suggestion is a near-miss function name ("" when none is close).
type UnknownFunctionError struct{ Name, Suggestion string }

func (e *UnknownFunctionError) Error() string {
	return "unknown function " + e.Name + didYouMean(e.Suggestion)
}
func (e *UnknownFunctionError) Unwrap() error { return ErrUnknownFunction }

// TypeMismatchError describes an operator applied to wrong types.
type TypeMismatchError struct {
	Op    string
	Types []string
}

func (e *TypeMismatchError) Error() string {
	return fmt.Sprintf("%s cannot be applied to %s", e.Op, strings.Join(e.Types, ", "))
}
func (e *TypeMismatchError) Unwrap() error { return ErrType }

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidQuery, fmt.Sprintf(format, args...))
}

// DuplicateColumnError names a column listed twice where each may appear
// once (an INSERT column list); it wraps ErrInvalidQuery.
type DuplicateColumnError struct{ Name string }

func (e *DuplicateColumnError) Error() string { return "column " + e.Name + " is listed twice" }
func (e *DuplicateColumnError) Unwrap() error { return ErrInvalidQuery }

// ValueError names the column and, for VALUES, the 1-based row (else 0)
// of an INSERT value that could not be converted to the column's type;
// Unwrap gives the cause (an *exec.CastError, for one).
type ValueError struct {
	Column string
	Type   string
	Row    int
	Err    error
}

func (e *ValueError) Error() string {
	if e.Row == 0 {
		return fmt.Sprintf("column %s (%s): %v", e.Column, e.Type, e.Err)
	}
	return fmt.Sprintf("column %s (%s), row %d: %v", e.Column, e.Type, e.Row, e.Err)
}
func (e *ValueError) Unwrap() error { return e.Err }
