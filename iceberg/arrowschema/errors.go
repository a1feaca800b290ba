package arrowschema

import (
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// ErrNoFieldID is returned by FromArrow when an Arrow field carries no
// usable PARQUET:field_id metadata.
var ErrNoFieldID = errors.New("arrowschema: arrow field has no field id")

// ErrUnsupportedType is returned for Arrow types with no Iceberg equivalent.
var ErrUnsupportedType = errors.New("arrowschema: unsupported arrow type")

// ColumnError names the column (dotted path) a conversion failed on; Unwrap
// gives the cause (e.g. iceberg.ErrNotNullViolation, iceberg.ErrTypeMismatch).
type ColumnError struct {
	Column string
	Err    error
}

func (e *ColumnError) Error() string {
	if e.Err == iceberg.ErrNotNullViolation {
		return "NULL in non-nullable column " + e.Column
	}
	return fmt.Sprintf("column %q: %v", e.Column, e.Err)
}

func (e *ColumnError) Unwrap() error { return e.Err }
