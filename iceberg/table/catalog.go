package table

import (
	"context"

	"github.com/icesql/icesql/catalog"
)

// Identifier names a table by namespace levels and name; it is the catalog
// package's identifier.
type Identifier = catalog.Identifier

// Catalog is what the commit protocol needs from a catalog: where a table's
// current metadata is, and an atomic compare-and-swap of that pointer.
// FromCatalog adapts any catalog.Catalog (and offers CommitLocker when the
// catalog offers catalog.CommitLocker).
type Catalog interface {
	// CurrentMetadataLocation returns the table's metadata.json location
	// (iceberg.ErrNoSuchTable when the table is unknown).
	CurrentMetadataLocation(ctx context.Context, ident Identifier) (string, error)
	// CurrentMetadataLocations reads several pointers in one consistent read.
	CurrentMetadataLocations(ctx context.Context, idents []Identifier) ([]string, error)
	// Swap moves the pointer from expected to next. It returns an error
	// matching iceberg.ErrCommitFailed when the pointer is no longer expected,
	// and iceberg.ErrCommitStateUnknown when the outcome cannot be known.
	Swap(ctx context.Context, ident Identifier, expected, next string) error
	// SwapAll moves several pointers atomically: all or none.
	SwapAll(ctx context.Context, swaps []Swap) error
	// Create registers a new table at its first metadata location.
	Create(ctx context.Context, ident Identifier, metadataLocation string) error
}

// Swap is one pointer move of a multi-table commit.
type Swap struct {
	Ident    Identifier
	Expected string
	Next     string
}

// CommitLocker is implemented by catalogs that can hold table pointers
// still from a read until the swap (a database's write lock, or SELECT ...
// FOR UPDATE), so committers of several processes queue instead of racing
// the compare-and-swap. Catalogs that cannot lock (REST) leave it out and
// commits stay optimistic: swap, and on a lost race refresh and retry.
type CommitLocker interface {
	// LockPointers reads the current metadata locations of idents (in
	// that order) and keeps every one of them from moving until the lock
	// swaps or is released. Contention that outlasts the catalog's wait
	// is an error matching iceberg.ErrCommitFailed.
	LockPointers(ctx context.Context, idents []Identifier) (PointerLock, error)
}

// PointerLock is a held lock on table pointers.
type PointerLock interface {
	// Locations are the pointers as read under the lock.
	Locations() []string
	// Swap moves the pointers (all or none) and ends the lock; its errors
	// are those of Catalog.SwapAll.
	Swap(ctx context.Context, swaps []Swap) error
	// Release ends the lock without a change; after Swap it does nothing.
	Release()
}
