package expr

import (
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// Sentinel errors; test with errors.Is. Each wraps the root iceberg sentinel
// of its kind, so errors.Is(err, iceberg.ErrInvalidExpression) also holds.
var (
	// ErrInvalidLiteral: a literal cannot be converted to its column's type.
	ErrInvalidLiteral = fmt.Errorf("%w: invalid literal", iceberg.ErrInvalidExpression)
	// ErrInvalidPredicate: a predicate does not apply to its column (IsNaN on
	// an int, StartsWith on a long, a comparison on a struct).
	ErrInvalidPredicate = fmt.Errorf("%w: invalid predicate", iceberg.ErrInvalidExpression)
	// ErrInvalidBound: a column bound or partition summary in file metadata
	// cannot be decoded as its column's type.
	ErrInvalidBound = errors.New("iceberg: invalid metrics bound")
)

// BindError reports why a predicate could not be bound to a schema. Unwrap
// gives iceberg.ErrNoSuchField, ErrInvalidLiteral or ErrInvalidPredicate.
type BindError struct {
	Column    string // the column name as written in the expression
	Predicate string // the predicate, printed
	Reason    string
	Err       error
}

func (e *BindError) Error() string {
	return fmt.Sprintf("%v: column %q in %s: %s", e.Err, e.Column, e.Predicate, e.Reason)
}

func (e *BindError) Unwrap() error { return e.Err }

// BoundDecodeError reports a metrics bound or partition summary value that
// does not decode as its field's type.
type BoundDecodeError struct {
	FieldID int
	Type    iceberg.Type
	Bytes   int // length of the stored value
	Reason  string
}

func (e *BoundDecodeError) Error() string {
	return fmt.Sprintf("%v: field %d of type %s (%d bytes): %s", ErrInvalidBound, e.FieldID, e.Type, e.Bytes, e.Reason)
}

func (e *BoundDecodeError) Unwrap() error { return ErrInvalidBound }
