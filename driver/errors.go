package driver

import (
	"errors"
	"fmt"
)

var (
	// ErrBadDSN matches every DSN parsing error.
	ErrBadDSN = errors.New("iceberg driver: bad DSN")
	// ErrReadOnly: a write on a connection opened with mode=ro.
	ErrReadOnly = errors.New("iceberg driver: connection is read-only")
	// ErrNoLastInsertID: Iceberg tables have no auto-increment ids.
	ErrNoLastInsertID = errors.New("iceberg driver: LastInsertId is not supported: Iceberg tables have no auto-increment columns")
	// ErrIsolationLevel: a transaction isolation level other than
	// serializable, snapshot, repeatable read (= snapshot) or default.
	ErrIsolationLevel = errors.New("iceberg driver: unsupported isolation level")
)

// DSNError describes what is wrong with a DSN.
type DSNError struct {
	DSN string
	Msg string
	Err error
}

func (e *DSNError) Error() string {
	s := fmt.Sprintf("iceberg driver: bad DSN %q: %s", e.DSN, e.Msg)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *DSNError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrBadDSN, e.Err}
	}
	return []error{ErrBadDSN}
}
