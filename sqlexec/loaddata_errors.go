package sqlexec

import (
	"errors"
	"fmt"
)

// ErrLoadData matches a *LoadDataError: LOAD DATA input that does not
// fit the table.
var ErrLoadData = errors.New("sqlexec: LOAD DATA input rejected")

// LoadDataError names the first place of a LOAD DATA file that could not
// be loaded; nothing of the file is committed.
type LoadDataError struct {
	File   string
	Line   int64  // 1-based line of the file
	Field  int    // 1-based field of the record; 0 for the whole record
	Column string // the table column of the field, when known
	Value  string
	Msg    string
	Err    error // the conversion error, if any
}

func (e *LoadDataError) Error() string {
	s := fmt.Sprintf("LOAD DATA %s: line %d", e.File, e.Line)
	if e.Field > 0 {
		s += fmt.Sprintf(", field %d", e.Field)
	}
	if e.Column != "" {
		s += fmt.Sprintf(" (column %s)", e.Column)
	}
	s += ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *LoadDataError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrLoadData, e.Err}
	}
	return []error{ErrLoadData}
}
