// Package sqlexec runs SQL against Iceberg tables: an Engine owns the
// catalog and storage of one warehouse, a Session runs statements for one
// connection (current namespace, parameters, prepared statements).
//
// Every statement reads each table's catalog pointer; the engine keeps
// parsed table versions by metadata location (immutable files), sessions
// keep recent statement texts parsed, and a prepared SELECT or INSERT
// ... VALUES reuses its plan while its tables stay put (plancache.go).
// Iceberg scans split into byte-balanced partitions for the engine's
// parallel aggregation.
package sqlexec

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"sync"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/catalog/open"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/fileio"
	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
)

// Config says where an engine's warehouse and catalog are.
type Config struct {
	// Warehouse is the directory holding table data; table locations are
	// <Warehouse>/<namespace>.db/<table>.
	Warehouse string
	// CatalogURI names the catalog (catalog/open: a SQLite file path, ...);
	// default CatalogFile.
	CatalogURI string
	// CatalogFile is the SQLite catalog when CatalogURI is empty; default
	// <Warehouse>/catalog.db.
	CatalogFile string
	// CatalogName is the catalog_name of the catalog rows; default "default".
	CatalogName string
	// Namespace resolves one-part table names; default "default".
	Namespace string
	// ReadOnly refuses every write with ErrReadOnly.
	ReadOnly bool
	// Reporter receives a report of every commit; may be nil.
	Reporter iceberg.MetricsReporter
	// MemoryLimit bounds what one sort holds before it spills sorted runs
	// to SpillDir (0: exec.DefaultMemoryLimit).
	MemoryLimit int64
	// SpillDir holds spill files ("": the OS temporary directory).
	SpillDir string
	// AllowExternalLocations lets CREATE TABLE ... LOCATION, the
	// write.data.path and write.metadata.path properties and
	// remove_orphan_files reach outside the warehouse directory
	// (ddl_location.go lists what stays refused).
	AllowExternalLocations bool
	// DisableCopyTo refuses COPY ... TO, the statement that writes files
	// outside the warehouse (copyto.go), with ErrCopyToDisabled.
	DisableCopyTo bool
	// SkipPageChecksums reads query scans' data files without verifying
	// their Parquet page CRCs (datafile.ReadOptions.SkipPageChecksums).
	SkipPageChecksums bool
	// DataFileCacheBytes bounds the engine's cache of small data files
	// (datafile.FileCache): 0 is its default, negative keeps none.
	DataFileCacheBytes int64
	// FileIO holds storage properties with Iceberg's names (s3.endpoint,
	// s3.access-key-id, ..., client.region) for s3:// locations.
	FileIO map[string]string
	// CatalogProperties are a REST catalog's client properties with
	// Iceberg's names: token, credential, oauth2-server-uri, scope.
	CatalogProperties map[string]string
}

// Engine is one warehouse and its catalog, shared by many sessions. It is
// safe for concurrent use.
type Engine struct {
	cfg     Config
	catalog catalog.Catalog
	env     *table.Env
	// warehouseURI is the absolute file:// URI of the warehouse directory,
	// or its s3:// location.
	warehouseURI string
	// objectStore: the warehouse is on object storage, where there are no
	// directories to create or remove.
	objectStore bool
	// tables caches parsed table versions by metadata location.
	tables *tableCache
	// manifests caches decoded manifest lists and manifests (immutable
	// files) for every scan of this warehouse.
	manifests *scan.ManifestCache
	// files caches small data files (bytes and decoded footers) for every
	// scan: tables built by many small INSERTs are read from memory.
	files *datafile.FileCache
	// views caches parsed view metadata by location (files never change).
	views viewMetaCache

	nsMu   sync.Mutex
	nsDone bool

	mu     sync.Mutex
	closed bool
}

// Open opens the warehouse and its catalog. A warehouse that does not
// exist yet is created by the first write, not by Open or by reads.
func Open(ctx context.Context, cfg Config) (*Engine, error) {
	if cfg.Warehouse == "" {
		return nil, fmt.Errorf("%w: empty warehouse directory", ErrInvalidStatement)
	}
	objectStore := s3io.IsLocation(cfg.Warehouse)
	if objectStore && cfg.CatalogURI == "" && cfg.CatalogFile == "" {
		return nil, fmt.Errorf("%w: a warehouse on object storage (%s) needs a catalog URI", ErrInvalidStatement, cfg.Warehouse)
	}
	// On a REST catalog the server may vend the storage configuration
	// (catalogStorage): make the S3 client once that is known.
	restCatalog := false
	if cfg.CatalogURI != "" {
		kind, _, _ := open.Classify(cfg.CatalogURI)
		restCatalog = kind == open.KindREST
	}
	fio, err := newFileIO(ctx, cfg.FileIO, objectStore && !restCatalog)
	if err != nil {
		return nil, err
	}
	if cfg.CatalogURI == "" {
		if cfg.CatalogFile == "" {
			cfg.CatalogFile = filepath.Join(cfg.Warehouse, "catalog.db")
		}
		cfg.CatalogURI = cfg.CatalogFile
	}
	if _, _, err := open.Classify(cfg.CatalogURI); err != nil {
		return nil, err
	}
	if cfg.Namespace == "" {
		cfg.Namespace = "default"
	}
	uri := strings.TrimRight(cfg.Warehouse, "/")
	if !objectStore {
		if uri, err = fileio.LocalURI(cfg.Warehouse); err != nil {
			return nil, fmt.Errorf("sqlexec: warehouse: %w", err)
		}
	}
	// Nothing is created until the first write (the catalog file with its
	// directory, data and metadata directories as tables need them): a
	// mistyped warehouse path reads as an empty catalog and leaves nothing
	// behind.
	props := maps.Clone(cfg.CatalogProperties)
	if props == nil {
		props = map[string]string{}
	}
	maps.Copy(props, cfg.FileIO)
	vended := &vendedIO{router: fio, clients: map[string]fileio.FileIO{}}
	cat, err := open.Catalog(ctx, cfg.CatalogURI, open.Options{CatalogName: cfg.CatalogName, ReadOnly: cfg.ReadOnly, CreateOnWrite: true,
		Properties: props, IO: fio, OnTableConfig: vended.mount})
	if err != nil {
		return nil, err
	}
	if cfg.FileIO, err = catalogStorage(ctx, fio, cat, cfg.FileIO, objectStore); err != nil {
		cat.Close()
		return nil, err
	}
	vended.base = cfg.FileIO
	e := &Engine{cfg: cfg, catalog: cat, warehouseURI: uri, objectStore: objectStore, tables: newTableCache(tableCacheSize),
		manifests: scan.NewManifestCache(0)}
	if cfg.DataFileCacheBytes >= 0 {
		e.files = datafile.NewFileCache(cfg.DataFileCacheBytes)
	}
	e.env = &table.Env{Catalog: table.FromCatalog(cat), IO: fio, Reporter: cfg.Reporter,
		RemoveExpired: maintenance.RemoveExpiredFiles}
	return e, nil
}

// Config returns the engine's configuration with defaults filled in.
func (e *Engine) Config() Config { return e.cfg }

// Catalog is the engine's catalog.
func (e *Engine) Catalog() catalog.Catalog { return e.catalog }

// Env is the table environment (catalog adapter, storage, reporter).
func (e *Engine) Env() *table.Env { return e.env }

// Close closes the catalog. Sessions must not be used afterwards.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	return e.catalog.Close()
}

func (e *Engine) isClosed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

// Ping checks that the catalog answers.
func (e *Engine) Ping(ctx context.Context) error {
	if e.isClosed() {
		return ErrClosed
	}
	_, err := e.catalog.NamespaceExists(ctx, []string{e.cfg.Namespace})
	return err
}

// ensureDefaultNamespace creates the configured namespace on first use in
// read-write mode, so `CREATE TABLE t` works on a fresh warehouse.
func (e *Engine) ensureDefaultNamespace(ctx context.Context) error {
	if e.cfg.ReadOnly {
		return nil
	}
	e.nsMu.Lock()
	defer e.nsMu.Unlock()
	if e.nsDone {
		return nil
	}
	ns := []string{e.cfg.Namespace}
	ok, err := e.catalog.NamespaceExists(ctx, ns)
	if err != nil {
		return err
	}
	if !ok {
		err = e.catalog.CreateNamespace(ctx, ns, nil)
		if err != nil && !errors.Is(err, iceberg.ErrNamespaceExists) {
			return err
		}
	}
	e.nsDone = true
	return nil
}

// NewSession starts a session in the configured namespace.
func (e *Engine) NewSession() *Session {
	return &Session{engine: e, namespace: []string{e.cfg.Namespace}}
}

// tableLocation is <warehouse>/<namespace>.db/<table> as a file:// URI.
func (e *Engine) tableLocation(ns []string, name string) string {
	dir := ""
	for i, p := range ns {
		if i > 0 {
			dir += "."
		}
		dir += p
	}
	return e.warehouseURI + "/" + dir + ".db/" + name
}

// checkNewIdent is the one check of a name a statement creates or renames
// to, made before any catalog is asked (iceberg.CheckIdentifier): names
// become directories, so path syntax never reaches the disk.
func checkNewIdent(id table.Identifier) error {
	if err := iceberg.CheckIdentifier(id.Namespace, id.Name); err != nil {
		return fmt.Errorf("%s: %w", id, err)
	}
	return nil
}
