package format

import (
	"errors"
	"fmt"
	"strings"
)

var (
	// ErrUnknownFormat matches an *UnknownFormatError.
	ErrUnknownFormat = errors.New("unknown output format")
	// ErrShape: a row whose width differs from the column count.
	ErrShape = errors.New("result row does not match its columns")
)

// UnknownFormatError names a format that does not exist.
type UnknownFormatError struct{ Name string }

func (e *UnknownFormatError) Error() string {
	return fmt.Sprintf("unknown output format %q (want one of %s)", e.Name, strings.Join(Names(), ", "))
}

func (e *UnknownFormatError) Unwrap() error { return ErrUnknownFormat }
