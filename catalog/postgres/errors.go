package postgres

import (
	"errors"
	"fmt"

	"github.com/icesql/icesql/catalog"
)

// CatalogError names the operation and the table or namespace an error is
// about. Unwrap gives the cause, which wraps the relevant sentinel of
// package iceberg or package catalog.
type CatalogError struct {
	Op    string // e.g. "commit table", "create namespace"
	Table string // dot-joined table identifier or namespace; may be empty
	Err   error
}

func (e *CatalogError) Error() string {
	if catalog.StatesCatalogFact(e.Err) {
		return e.Err.Error()
	}
	if e.Table == "" {
		return fmt.Sprintf("postgres catalog: %s: %v", e.Op, e.Err)
	}
	return fmt.Sprintf("postgres catalog: %s %s: %v", e.Op, e.Table, e.Err)
}

func (e *CatalogError) Unwrap() error { return e.Err }

func newError(op, name string, err error) error {
	return &CatalogError{Op: op, Table: name, Err: busy(err)}
}

// busy marks a lock wait that ran out (lock_timeout) or a deadlock
// Postgres broke as catalog.ErrBusy: nothing was changed, and the
// operation may be retried.
func busy(err error) error {
	switch pgCode(err) {
	case codeLockNotAvailable, codeDeadlockDetected:
		if !errors.Is(err, catalog.ErrBusy) {
			return fmt.Errorf("%w: %w", catalog.ErrBusy, err)
		}
	}
	return err
}

var wrapf = catalog.Wrapf
