package catalog

import (
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// Sentinel errors shared by every catalog implementation; test with
// errors.Is. Implementations wrap them with their own detail.
var (
	// ErrReadOnly: a write on a catalog opened read-only.
	ErrReadOnly = errors.New("catalog: catalog is read-only")
	// ErrInvalidIdentifier: a namespace or name the catalog cannot store
	// (empty, a namespace level containing a dot, too long), or that a new
	// table, view or namespace may not have (iceberg.CheckIdentifier). It
	// is iceberg.ErrInvalidIdentifier.
	ErrInvalidIdentifier = iceberg.ErrInvalidIdentifier
	// ErrInvalidArgument: some other argument is unusable (empty metadata
	// location, a property key both removed and updated, ...).
	ErrInvalidArgument = errors.New("catalog: invalid argument")
	// ErrNotCatalog: the database is not an Iceberg JDBC catalog (not a
	// database, or its catalog tables lack required columns).
	ErrNotCatalog = errors.New("catalog: not an Iceberg JDBC catalog")
	// ErrInvalidRow: a catalog row holds a value the catalog cannot use.
	ErrInvalidRow = errors.New("catalog: invalid catalog row")
	// ErrViewsUnsupported: the catalog cannot hold views (a JDBC catalog
	// without the iceberg_type column, as Java's V0 schema and PyIceberg).
	ErrViewsUnsupported = errors.New("catalog: catalog cannot hold views")
	// ErrUnsupportedURI: a catalog URI no implementation opens.
	ErrUnsupportedURI = errors.New("catalog: unsupported catalog URI")
	// ErrBusy: the catalog's lock stayed held by another connection or
	// process past the catalog's wait (SQLite's busy timeout, Postgres's
	// lock_timeout), or Postgres broke a deadlock; nothing was changed,
	// and the operation may be retried. Reads of a SQLite
	// catalog never wait for its write lock.
	ErrBusy = errors.New("catalog: catalog is locked by another writer")
)

// Wrapf builds an error that matches sentinel and reads as
// "sentinel: detail"; implementations use it for their causes.
func Wrapf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))
}

// StatesCatalogFact reports whether err is one of the catalog-state
// errors (no such table or namespace, already exists, not empty) whose
// message already names the object: a catalog's error type prints just
// that message rather than repeating its operation and the name.
func StatesCatalogFact(err error) bool {
	for _, s := range []error{iceberg.ErrNoSuchTable, iceberg.ErrNoSuchNamespace, iceberg.ErrTableAlreadyExists,
		iceberg.ErrNamespaceExists, iceberg.ErrNamespaceNotEmpty} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
