package dml

import (
	"errors"
	"fmt"
)

var (
	// ErrCardinalityViolation: a MERGE matched one target row with several
	// source rows; nothing is written.
	ErrCardinalityViolation = errors.New("dml: MERGE cardinality violation")
	// ErrUnsupported is a statement form this package does not run.
	ErrUnsupported = errors.New("dml: not supported")
	// ErrInvalid is a statement that cannot run as written.
	ErrInvalid = errors.New("dml: invalid statement")
	// ErrBadProperty is an unknown write mode or isolation level.
	ErrBadProperty = errors.New("dml: bad table property")
)

// CardinalityError names the target row matched more than once.
type CardinalityError struct {
	Table    string
	FilePath string
	Position int64
}

func (e *CardinalityError) Error() string {
	return fmt.Sprintf("dml: MERGE_CARDINALITY_VIOLATION: the ON condition of the MERGE into %s matched the row at position %d of %s with more than one source row",
		e.Table, e.Position, e.FilePath)
}

func (e *CardinalityError) Unwrap() error { return ErrCardinalityViolation }

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnsupported}, args...)...)
}

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}
