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
