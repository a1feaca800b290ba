package load

import (
	"errors"
	"fmt"
)

var (
	// ErrBadValue matches a *ValueError: a value that does not convert to
	// its column's type.
	ErrBadValue = errors.New("bad value")
	// ErrBadInput matches an *InputError: a malformed record or file.
	ErrBadInput = errors.New("bad input")
	// ErrBadCommand: a \copy command that does not parse.
	ErrBadCommand = errors.New("bad \\copy command")
	// ErrUnsupportedType: a column type the loader cannot fill.
	ErrUnsupportedType = errors.New("unsupported column type")
)

// ValueError names the first value that failed to convert. Line is the
// 1-based line of a CSV or JSON lines file, or the 1-based row of a
// Parquet file (RowBased set).
type ValueError struct {
	File     string
	Line     int64
	RowBased bool
	Column   string
	Field    int // 1-based position of the column in the input
	Value    string
	Type     string
	Err      error
}

func (e *ValueError) Error() string {
	where := "line"
	if e.RowBased {
		where = "row"
	}
	return fmt.Sprintf("%s: %s %d, column %d (%s): cannot read %q as %s: %v", e.File, where, e.Line, e.Field, e.Column, e.Value, e.Type, e.Err)
}

func (e *ValueError) Unwrap() []error { return []error{ErrBadValue, e.Err} }

// InputError is a structural problem at a place in the input: a record
// with the wrong number of fields, malformed JSON, an unknown column.
type InputError struct {
	File string
	Line int64 // 0 when the problem is the whole file
	Msg  string
	Err  error
}

func (e *InputError) Error() string {
	s := e.File + ": "
	if e.Line > 0 {
		s += fmt.Sprintf("line %d: ", e.Line)
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *InputError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrBadInput, e.Err}
	}
	return []error{ErrBadInput}
}
