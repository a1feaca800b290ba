// Package catalog is what the engine needs from an Iceberg catalog: where
// each table's and view's current metadata file is, namespaces with
// properties, and an atomic compare-and-swap of one or several pointers.
//
// Implementations live in sub-packages (catalog/sqlite, catalog/postgres);
// catalog/open picks one from a catalog URI. Errors about tables and
// namespaces wrap the root sentinels of package iceberg
// (iceberg.ErrNoSuchTable, iceberg.ErrCommitFailed,
// iceberg.ErrCommitStateUnknown, ...); the others wrap this package's
// sentinels (errors.go).
package catalog

import (
	"context"
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// Identifier names a table or view by namespace levels and name. The
// commit protocol (iceberg/table) uses the same type.
type Identifier struct {
	Namespace []string
	Name      string
}

// String joins the namespace levels and the name with dots ("a.b.t").
func (id Identifier) String() string {
	if len(id.Namespace) == 0 {
		return id.Name
	}
	return strings.Join(id.Namespace, ".") + "." + id.Name
}

// Record is a table's or view's pointer row.
type Record struct {
	MetadataLocation         string
	PreviousMetadataLocation string // "" when the object has had one version
}

// TableCommit is one pointer swap of CommitTables.
type TableCommit struct {
	Ident    Identifier
	Expected string // the metadata location the commit was based on
	New      string // the metadata location to install
}

// Catalog is an Iceberg catalog. Implementations are safe for concurrent
// use by many goroutines.
type Catalog interface {
	// Name is the catalog's name (the catalog_name of JDBC catalog rows).
	Name() string
	// ReadOnly reports whether every write is refused with ErrReadOnly.
	ReadOnly() bool
	// Close releases the catalog's connections.
	Close() error

	Namespaces
	Tables
	Views
}

// Namespaces are multi-level; a namespace exists if it has properties or
// holds a table or view (at it or below it).
type Namespaces interface {
	// CreateNamespace fails with iceberg.ErrNamespaceExists when it exists.
	CreateNamespace(ctx context.Context, ns []string, props map[string]string) error
	NamespaceExists(ctx context.Context, ns []string) (bool, error)
	// ListNamespaces lists the direct children of parent (all top-level
	// namespaces when parent is empty), sorted.
	ListNamespaces(ctx context.Context, parent []string) ([][]string, error)
	LoadNamespaceProperties(ctx context.Context, ns []string) (map[string]string, error)
	UpdateNamespaceProperties(ctx context.Context, ns []string, removals []string, updates map[string]string) error
	// DropNamespace fails with iceberg.ErrNamespaceNotEmpty when it holds
	// tables, views or child namespaces.
	DropNamespace(ctx context.Context, ns []string) error
}

// Tables are pointer rows to metadata files.
type Tables interface {
	// CreateTable adds a new table whose first metadata file is
	// metadataLocation (iceberg.ErrNoSuchNamespace,
	// iceberg.ErrTableAlreadyExists).
	CreateTable(ctx context.Context, ident Identifier, metadataLocation string) error
	// RegisterTable adds an existing table at its current metadata file.
	RegisterTable(ctx context.Context, ident Identifier, metadataLocation string) error
	// LoadTable reads a table's pointer (iceberg.ErrNoSuchTable).
	LoadTable(ctx context.Context, ident Identifier) (Record, error)
	// LoadTables reads several pointers in one consistent read, in order.
	LoadTables(ctx context.Context, idents []Identifier) ([]Record, error)
	// AllTables reads every table pointer of the catalog in one consistent
	// read, keyed by Identifier.String().
	AllTables(ctx context.Context) (map[string]Record, error)
	TableExists(ctx context.Context, ident Identifier) (bool, error)
	// ListTables lists the tables directly in ns, sorted by name.
	ListTables(ctx context.Context, ns []string) ([]Identifier, error)
	RenameTable(ctx context.Context, from, to Identifier) error
	// DropTable removes the pointer row and returns it; files stay.
	DropTable(ctx context.Context, ident Identifier) (Record, error)

	// CommitTable swaps the pointer from expected to next if, and only if,
	// it is still expected. iceberg.ErrCommitFailed: it moved, nothing
	// changed. iceberg.ErrCommitStateUnknown: the swap was sent and its
	// outcome cannot be known; the caller must not delete next.
	CommitTable(ctx context.Context, ident Identifier, expected, next string) error
	// CommitTables swaps several pointers atomically: all or none.
	CommitTables(ctx context.Context, commits []TableCommit) error
}

// Views share the name space of tables: a view cannot be named like a
// table. Catalogs without view support return ErrViewsUnsupported.
type Views interface {
	SupportsViews() bool
	CreateView(ctx context.Context, ident Identifier, metadataLocation string) error
	LoadView(ctx context.Context, ident Identifier) (Record, error)
	ViewExists(ctx context.Context, ident Identifier) (bool, error)
	ListViews(ctx context.Context, ns []string) ([]Identifier, error)
	CommitView(ctx context.Context, ident Identifier, expected, next string) error
	RenameView(ctx context.Context, from, to Identifier) error
	DropView(ctx context.Context, ident Identifier) (Record, error)
}

// ViewMetadataCommitter is an optional capability of catalogs that write
// view metadata files themselves (the REST catalog): the engine hands them
// the view's metadata instead of a file it wrote, and they answer with the
// location and the metadata they wrote. The engine then writes no view
// metadata file of its own (CreateView and CommitView, which install files
// a caller wrote, stay for registering such files).
type ViewMetadataCommitter interface {
	// CreateViewFromMetadata creates the view from the location, schema,
	// current version and properties of its first version
	// (iceberg.ErrViewAlreadyExists, iceberg.ErrTableAlreadyExists,
	// iceberg.ErrNoSuchNamespace).
	CreateViewFromMetadata(ctx context.Context, ident Identifier, meta *iceberg.ViewMetadata) (string, *iceberg.ViewMetadata, error)
	// ReplaceViewMetadata moves the view from base to next: next's current
	// version, schema, properties and location as changes on base, on the
	// condition that the view is still the one base describes (its UUID).
	// iceberg.ErrCommitFailed: the requirement no longer holds, nothing
	// changed; iceberg.ErrCommitStateUnknown: the outcome cannot be known.
	ReplaceViewMetadata(ctx context.Context, ident Identifier, base, next *iceberg.ViewMetadata) (string, *iceberg.ViewMetadata, error)
}

// CommitLocker is an optional capability of catalogs that are databases
// (SQLite: BEGIN IMMEDIATE; Postgres: SELECT ... FOR UPDATE): a committer
// holds the tables' pointers locked from the read of its base to the swap,
// so committers of one table queue instead of losing the swap and retrying.
// Catalogs that cannot lock (REST) do not implement it; callers then use
// the optimistic CommitTable(s). table.FromCatalog hands it to the commit
// protocol as table.CommitLocker.
type CommitLocker interface {
	// LockForCommit locks the pointers of idents (no other committer can
	// swap or lock them until the lock ends) and reads them under the lock.
	// Errors: iceberg.ErrNoSuchTable naming a missing table;
	// iceberg.ErrCommitFailed when the lock stayed contended past the
	// catalog's wait.
	LockForCommit(ctx context.Context, idents []Identifier) (CommitLock, error)
}

// CommitLock is a held lock on some table pointers. Commit or Release ends
// it; Release after Commit does nothing, so it may be deferred.
type CommitLock interface {
	// Locations are the metadata locations read under the lock, in the
	// order they were asked for.
	Locations() []string
	// Commit swaps pointers of locked tables (all or none) and ends the
	// lock, with CommitTables' errors.
	Commit(ctx context.Context, commits []TableCommit) error
	// Release ends the lock without a change.
	Release()
}

// Hooks let tests interpose on the swap of pointers, to simulate a crash
// or a lost reply at the worst moment; implementations that take them run
// them around each swap. Nil hooks are skipped.
type Hooks struct {
	// BeforeSwap runs before each table's swap statement is sent. A non-nil
	// error aborts the commit with nothing changed and is returned wrapped
	// (wrap iceberg.ErrCommitStateUnknown to simulate an unknown outcome).
	BeforeSwap func(ctx context.Context, ident Identifier) error
	// AfterSwap runs after a swap has been made durable, once per table. A
	// non-nil error is returned wrapped although the swap took effect,
	// simulating a reply lost after the commit.
	AfterSwap func(ctx context.Context, ident Identifier) error
}
