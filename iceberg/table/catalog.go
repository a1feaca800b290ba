package table

import (
	"context"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
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

// MetadataCommitter is implemented by catalogs that write metadata files
// themselves (the REST catalog): a commit sends requirements and updates,
// the catalog checks and applies them on its current version and answers
// with the metadata it wrote. The engine then writes no metadata.json of
// its own, so none is left unreferenced. FromCatalog offers it when the
// catalog does; commits use it instead of Swap and SwapAll, and Create
// uses CreateFromMetadata instead of Catalog.Create.
type MetadataCommitter interface {
	// CreateFromMetadata creates a table from its first version's schema,
	// spec, sort order, properties and location (iceberg.ErrTableAlreadyExists,
	// iceberg.ErrNoSuchNamespace).
	CreateFromMetadata(ctx context.Context, ident Identifier, meta *iceberg.TableMetadata) (Committed, error)
	// CommitChanges commits the changes of one or several tables, all or
	// none, with the errors of Catalog.SwapAll: iceberg.ErrCommitFailed
	// when a requirement no longer holds, iceberg.ErrCommitStateUnknown
	// when the outcome cannot be known.
	CommitChanges(ctx context.Context, changes []TableChange) ([]Committed, error)
}

// TableChange is one table's part of a commit in the REST catalog's
// shape: the requirements its base must still meet and the updates.
type TableChange struct {
	Ident        Identifier
	Base         *iceberg.TableMetadata // the version the updates were made on
	Requirements []iceberg.Requirement
	Updates      []iceberg.Update
}

// Committed is a version a catalog wrote: its metadata and location.
type Committed struct {
	Location string
	Metadata *iceberg.TableMetadata
}
