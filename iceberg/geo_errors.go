package iceberg

import (
	"errors"
	"fmt"
)

// ErrInvalidGeometry is wrapped by every malformed WKB or WKT error.
var ErrInvalidGeometry = errors.New("invalid geometry")

// GeometryError names what is wrong with a WKB or WKT value and where.
type GeometryError struct {
	Format string // "WKB" or "WKT"
	Offset int    // byte offset of the problem in the input
	Reason string
}

func (e *GeometryError) Error() string {
	return fmt.Sprintf("invalid %s at byte %d: %s", e.Format, e.Offset, e.Reason)
}

func (e *GeometryError) Unwrap() error { return ErrInvalidGeometry }
