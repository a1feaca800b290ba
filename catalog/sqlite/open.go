package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/icesql/icesql/catalog"
)

// DefaultCatalogName is the catalog_name used when Options.CatalogName is
// empty.
const DefaultCatalogName = "default"

// DefaultBusyTimeout is how long a statement waits for another connection's
// lock when Options.BusyTimeout is zero.
const DefaultBusyTimeout = 10 * time.Second

// Options configures Open.
type Options struct {
	// CatalogName selects the rows of this catalog (column catalog_name);
	// one file may hold several catalogs. Default DefaultCatalogName.
	CatalogName string
	// BusyTimeout bounds the wait for a lock held by another connection or
	// process. Default DefaultBusyTimeout.
	BusyTimeout time.Duration
	// ReadOnly opens the file with mode=ro; every write returns ErrReadOnly.
	// The file must already hold the catalog tables.
	ReadOnly bool
	// CreateOnWrite leaves a missing file uncreated until the first write
	// (which creates its directory too); until then reads see an empty
	// catalog. Without it Open creates the file.
	CreateOnWrite bool
	// Hooks are fault-injection points for tests; leave zero in production.
	Hooks Hooks
}

// Hooks let tests interpose on the swap of table pointers (BeforeSwap runs
// inside CommitTables' transaction).
type Hooks = catalog.Hooks

// Catalog is an Iceberg JDBC-schema catalog in one SQLite file. It is safe
// for concurrent use by many goroutines; other processes may use the same
// file at the same time.
type Catalog struct {
	name     string
	readOnly bool
	path     string
	busy     time.Duration
	hooks    Hooks
	cur      atomic.Pointer[dbs]
	createMu sync.Mutex
	empty    *dbs // the stand-in a CreateOnWrite catalog read before its file existed
}

// dbs are the connections to the file.
type dbs struct {
	write   *sql.DB // nil when read-only; one connection, BEGIN IMMEDIATE
	read    *sql.DB // deferred transactions, for consistent reads
	hasType bool    // iceberg_tables has the V1 iceberg_type column
	// pending: the file does not exist yet (CreateOnWrite); read is an
	// empty in-memory catalog and the first write creates the file.
	pending bool
}

func (c *Catalog) reader() *sql.DB { return c.cur.Load().read }
func (c *Catalog) hasType() bool   { return c.cur.Load().hasType }

// writer is the write connection, creating the file on the first write
// of a CreateOnWrite catalog.
func (c *Catalog) writer(ctx context.Context) (*sql.DB, error) {
	d := c.cur.Load()
	if !d.pending {
		return d.write, nil
	}
	c.createMu.Lock()
	defer c.createMu.Unlock()
	if d = c.cur.Load(); !d.pending {
		return d.write, nil
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return nil, err
	}
	nd := &dbs{}
	if err := c.open(ctx, nd); err != nil {
		nd.close()
		return nil, err
	}
	// The stand-in stays open until Close: readers may still hold it.
	c.empty = d
	c.cur.Store(nd)
	return nd.write, nil
}

// Pending reports whether the catalog file is still to be created by the
// first write (Options.CreateOnWrite).
func (c *Catalog) Pending() bool { return c.cur.Load().pending }

// Open opens (creating if needed, unless read-only) the catalog in the
// SQLite file at path. Missing catalog tables are created with the JDBC
// catalog DDL; an existing file written by Java, PyIceberg or iceberg-go is
// used as it is, with or without the iceberg_type column.
func Open(ctx context.Context, path string, opts Options) (*Catalog, error) {
	const op = "open"
	if path == "" {
		return nil, newError(op, "", wrapf(ErrInvalidArgument, "empty path"))
	}
	c := &Catalog{name: opts.CatalogName, readOnly: opts.ReadOnly, hooks: opts.Hooks, path: path, busy: opts.BusyTimeout}
	if c.name == "" {
		c.name = DefaultCatalogName
	}
	if c.busy <= 0 {
		c.busy = DefaultBusyTimeout
	}
	d := &dbs{}
	c.cur.Store(d)
	if _, err := os.Stat(path); opts.CreateOnWrite && !c.readOnly && errors.Is(err, fs.ErrNotExist) {
		if err := openEmpty(ctx, d); err != nil {
			d.close()
			return nil, newError(op, path, err)
		}
		return c, nil
	}
	if err := c.open(ctx, d); err != nil {
		d.close()
		return nil, newError(op, path, err)
	}
	return c, nil
}

// openEmpty makes d an empty in-memory catalog that stands in for a file
// not yet created.
func openEmpty(ctx context.Context, d *dbs) error {
	var err error
	d.pending = true
	// One connection: each in-memory connection is a database of its own.
	if d.read, err = sql.Open("sqlite3", "file::memory:"); err != nil {
		return err
	}
	d.read.SetMaxOpenConns(1)
	d.read.SetMaxIdleConns(1)
	d.read.SetConnMaxLifetime(0)
	d.read.SetConnMaxIdleTime(0)
	tx, err := d.read.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := initSchema(ctx, tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	d.hasType, err = inspectSchema(ctx, d.read)
	return err
}

func (d *dbs) close() error {
	var errs []error
	if d.write != nil {
		errs = append(errs, d.write.Close())
	}
	if d.read != nil {
		errs = append(errs, d.read.Close())
	}
	return errors.Join(errs...)
}

func (c *Catalog) open(ctx context.Context, d *dbs) error {
	path, busy := c.path, c.busy
	var err error
	if !c.readOnly {
		// One writer connection: in-process writers queue in the pool instead
		// of spinning in SQLite's busy handler; other processes are handled
		// by the busy timeout.
		d.write, err = sql.Open("sqlite3", buildDSN(path, false, busy, "immediate"))
		if err != nil {
			return err
		}
		d.write.SetMaxOpenConns(1)
		d.write.SetMaxIdleConns(1)
		if err := enableWAL(ctx, d.write, busy); err != nil {
			return classifyOpenError(err)
		}
		if err := ensureSchema(ctx, d.write); err != nil {
			return classifyOpenError(err)
		}
	}
	d.read, err = sql.Open("sqlite3", buildDSN(path, c.readOnly, busy, "deferred"))
	if err != nil {
		return err
	}
	d.read.SetMaxOpenConns(8)
	d.read.SetMaxIdleConns(2)
	d.hasType, err = inspectSchema(ctx, d.read)
	return classifyOpenError(err)
}

// ensureSchema creates the catalog tables when one is missing. It looks
// first without a lock: opening an existing catalog must not wait for
// the write lock, which another process may hold for a long commit.
func ensureSchema(ctx context.Context, w *sql.DB) error {
	present, err := existingTables(ctx, w)
	if err != nil {
		return err
	}
	if present["iceberg_tables"] && present["iceberg_namespace_properties"] {
		return nil
	}
	tx, err := w.BeginTx(ctx, nil) // _txlock=immediate
	if err != nil {
		return err
	}
	if err := initSchema(ctx, tx); err != nil { // looks again, under the lock
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// buildDSN makes a SQLite URI filename for go-sqlite3. Characters that are
// special in a URI are escaped so any path works.
func buildDSN(path string, readOnly bool, busy time.Duration, txlock string) string {
	escaped := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	q := url.Values{}
	q.Set("_busy_timeout", strconv.FormatInt(busy.Milliseconds(), 10))
	q.Set("_txlock", txlock)
	if readOnly {
		q.Set("mode", "ro")
	} else {
		// A catalog commit must survive power loss once acknowledged.
		q.Set("_synchronous", "FULL")
	}
	return "file:" + escaped + "?" + q.Encode()
}

// enableWAL switches the file to WAL journal mode (persistent, so once per
// file). SQLite may refuse the switch with SQLITE_BUSY without consulting
// the busy handler while another connection opens the same fresh file, so
// retry until the busy timeout.
func enableWAL(ctx context.Context, db *sql.DB, busy time.Duration) error {
	deadline := time.Now().Add(busy)
	for {
		var mode string
		err := db.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode)
		if err == nil {
			if !strings.EqualFold(mode, "wal") {
				return fmt.Errorf("cannot enable WAL journal mode (journal_mode is %s)", mode)
			}
			return nil
		}
		if !isBusy(err) || time.Now().After(deadline) {
			return fmt.Errorf("enable WAL journal mode: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func classifyOpenError(err error) error {
	if err == nil {
		return nil
	}
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrNotADB || se.Code == sqlite3.ErrCorrupt) {
		return fmt.Errorf("%w: %w", ErrNotCatalog, err)
	}
	return err
}

// Name is the catalog_name this Catalog reads and writes.
func (c *Catalog) Name() string { return c.name }

// ReadOnly reports whether the catalog was opened read-only.
func (c *Catalog) ReadOnly() bool { return c.readOnly }

// Close releases the database connections.
func (c *Catalog) Close() error {
	c.createMu.Lock()
	defer c.createMu.Unlock()
	err := c.cur.Load().close()
	if c.empty != nil {
		c.empty.close()
		c.empty = nil
	}
	return err
}

// writeTx runs fn in a BEGIN IMMEDIATE transaction, wrapping any error in
// a *CatalogError for op on name.
func (c *Catalog) writeTx(ctx context.Context, op, name string, fn func(tx *sql.Tx) error) error {
	if c.readOnly {
		return newError(op, name, ErrReadOnly)
	}
	w, err := c.writer(ctx)
	if err != nil {
		return newError(op, name, err)
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return newError(op, name, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return newError(op, name, err)
	}
	if err := tx.Commit(); err != nil {
		return newError(op, name, err)
	}
	return nil
}

// readTx runs fn in a read transaction, so every query in fn sees one
// snapshot of the catalog.
func (c *Catalog) readTx(ctx context.Context, op, name string, fn func(tx *sql.Tx) error) error {
	tx, err := c.reader().BeginTx(ctx, nil)
	if err != nil {
		return newError(op, name, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return newError(op, name, err)
	}
	return nil
}
