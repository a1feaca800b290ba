package iceberg

import (
	"errors"
	"fmt"
)

// Sentinel errors of views; test with errors.Is.
var (
	// ErrInvalidViewMetadata: a view metadata file (or a value about to
	// be written as one) breaks the View Spec.
	ErrInvalidViewMetadata = errors.New("iceberg: invalid view metadata")
	// ErrNoSuchView: no view of that name in the catalog.
	ErrNoSuchView = errors.New("iceberg: no such view")
	// ErrViewAlreadyExists: a view of that name is already in the catalog.
	ErrViewAlreadyExists = errors.New("iceberg: view already exists")
)

// ViewFieldError names the part of a view metadata file that is wrong
// ("versions[2].representations"); Unwrap gives ErrInvalidViewMetadata.
type ViewFieldError struct {
	Field  string
	Reason string
}

func (e *ViewFieldError) Error() string {
	return fmt.Sprintf("%v: %s: %s", ErrInvalidViewMetadata, e.Field, e.Reason)
}

func (e *ViewFieldError) Unwrap() error { return ErrInvalidViewMetadata }

func viewErrorf(field, format string, args ...any) error {
	return &ViewFieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
