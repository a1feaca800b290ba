package sqlite

import (
	"errors"
	"fmt"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// Sentinel errors of this package (the catalog package's, under the names
// they have always had here); test with errors.Is. Errors about tables
// and namespaces wrap the root sentinels of package iceberg instead
// (iceberg.ErrNoSuchTable, iceberg.ErrCommitFailed, ...).
var (
	// ErrReadOnly: a write was attempted on a catalog opened with
	// Options.ReadOnly.
	ErrReadOnly = catalog.ErrReadOnly
	// ErrInvalidIdentifier: a namespace or table name that cannot be stored
	// (empty, or a namespace level containing a dot), or that a new table,
	// view or namespace may not have (iceberg.CheckIdentifier: path syntax,
	// control characters). It is iceberg.ErrInvalidIdentifier, which every
	// catalog and the engine's own check return.
	ErrInvalidIdentifier = iceberg.ErrInvalidIdentifier
	// ErrInvalidArgument: some other argument is unusable (empty metadata
	// location, a property key both removed and updated, ...).
	ErrInvalidArgument = catalog.ErrInvalidArgument
	// ErrNotCatalog: the file is not a SQLite database, or its catalog
	// tables lack required columns.
	ErrNotCatalog = catalog.ErrNotCatalog
	// ErrInvalidRow: a catalog row holds a value the catalog cannot use
	// (for example a table row without a metadata location).
	ErrInvalidRow = catalog.ErrInvalidRow
	// ErrBusy: another connection or process held the catalog's write
	// lock past the busy timeout (Options.BusyTimeout); nothing was
	// changed. A commit that meets it also matches iceberg.ErrCommitFailed.
	ErrBusy = catalog.ErrBusy
)

// CatalogError names the operation and the table or namespace an error is
// about. Unwrap gives the cause, which wraps the relevant sentinel.
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
		return fmt.Sprintf("sqlite catalog: %s: %v", e.Op, e.Err)
	}
	return fmt.Sprintf("sqlite catalog: %s %s: %v", e.Op, e.Table, e.Err)
}

func (e *CatalogError) Unwrap() error { return e.Err }

func newError(op, name string, err error) error {
	if isBusy(err) && !errors.Is(err, ErrBusy) {
		err = fmt.Errorf("%w: %w", ErrBusy, err)
	}
	return &CatalogError{Op: op, Table: name, Err: err}
}

// wrapf builds a cause that matches sentinel and reads as "sentinel: detail".
func wrapf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))
}
