package exec

import (
	"errors"
	"fmt"
)

var (
	// ErrOverflow reports an integer result outside its type's range.
	ErrOverflow = errors.New("exec: integer overflow")
	// ErrUnsupportedType reports a kernel applied to a type it does not handle.
	ErrUnsupportedType = errors.New("exec: unsupported type")
	// ErrInvalidCast reports a value that cannot be converted to the target type.
	ErrInvalidCast = errors.New("exec: invalid cast")
	// ErrScalarSubqueryRows reports a scalar subquery producing more than one row.
	ErrScalarSubqueryRows = errors.New("exec: scalar subquery returned more than one row")
	// ErrNullViolation reports a NULL written into a non-nullable column.
	ErrNullViolation = errors.New("exec: NULL in non-nullable column")
	// ErrBatchMismatch reports operator output whose columns do not fit
	// the declared schema (a planning bug surfaced as an error).
	ErrBatchMismatch = errors.New("exec: batch does not match its schema")
)

// CastError describes a value that could not be cast; it wraps ErrInvalidCast.
type CastError struct {
	Value string
	From  string
	To    string
}

func (e *CastError) Error() string {
	return fmt.Sprintf("cannot cast %s value %q to %s", e.From, e.Value, e.To)
}

// Unwrap makes errors.Is(err, ErrInvalidCast) hold.
func (e *CastError) Unwrap() error { return ErrInvalidCast }

// NullViolationError names the non-nullable column a NULL was written
// into and, when known, the 1-based row of the statement's input; it
// wraps ErrNullViolation.
type NullViolationError struct {
	Column string
	Row    int
}

func (e *NullViolationError) Error() string {
	if e.Row > 0 {
		return fmt.Sprintf("NULL in non-nullable column %s (row %d)", e.Column, e.Row)
	}
	return "NULL in non-nullable column " + e.Column
}

// Unwrap makes errors.Is(err, ErrNullViolation) hold.
func (e *NullViolationError) Unwrap() error { return ErrNullViolation }

// TypeError describes a kernel given operands of a type it cannot handle.
type TypeError struct {
	Op   string
	Type string
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("%s is not supported for type %s", e.Op, e.Type)
}

// Unwrap makes errors.Is(err, ErrUnsupportedType) hold.
func (e *TypeError) Unwrap() error { return ErrUnsupportedType }

// BatchTypeError describes an output column whose type differs from its
// schema field's; it wraps ErrBatchMismatch.
type BatchTypeError struct {
	Column string
	Want   string
	Got    string
}

func (e *BatchTypeError) Error() string {
	return fmt.Sprintf("column %q has type %s, the output schema wants %s", e.Column, e.Got, e.Want)
}

// Unwrap makes errors.Is(err, ErrBatchMismatch) hold.
func (e *BatchTypeError) Unwrap() error { return ErrBatchMismatch }

// BatchShapeError describes output with the wrong column or row count;
// it wraps ErrBatchMismatch.
type BatchShapeError struct {
	Column  string
	Problem string
	Want    int
	Got     int
}

func (e *BatchShapeError) Error() string {
	if e.Column == "" {
		return fmt.Sprintf("output %s is %d, the schema wants %d", e.Problem, e.Got, e.Want)
	}
	return fmt.Sprintf("column %q %s is %d, want %d", e.Column, e.Problem, e.Got, e.Want)
}

// Unwrap makes errors.Is(err, ErrBatchMismatch) hold.
func (e *BatchShapeError) Unwrap() error { return ErrBatchMismatch }

// ErrWindowFrame marks an unsupported or malformed window frame.
var ErrWindowFrame = errors.New("exec: unsupported window frame")

// FrameError names a window frame the operator cannot compute.
type FrameError struct {
	Frame  string
	Reason string
}

func (e *FrameError) Error() string {
	return fmt.Sprintf("exec: window frame %s: %s", e.Frame, e.Reason)
}

func (e *FrameError) Unwrap() error { return ErrWindowFrame }

// ErrWindowCall marks a window call the operator was handed malformed
// (wrong argument count or type); the planner should have rejected it.
var ErrWindowCall = errors.New("exec: malformed window call")

// ErrSpill marks a failure writing or reading an operator's spill file.
var ErrSpill = errors.New("exec: spill file")

// SpillError names the spill file and the operation that failed; it
// wraps ErrSpill and the underlying error.
type SpillError struct {
	Op   string
	Path string
	Err  error
}

func (e *SpillError) Error() string {
	return fmt.Sprintf("exec: spill file %s: %s: %v", e.Path, e.Op, e.Err)
}

// Unwrap makes errors.Is hold for ErrSpill and the cause.
func (e *SpillError) Unwrap() []error { return []error{ErrSpill, e.Err} }
