package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
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
	hasType  bool    // iceberg_tables has the V1 iceberg_type column
	write    *sql.DB // nil when read-only; one connection, BEGIN IMMEDIATE
	read     *sql.DB // deferred transactions, for consistent reads
	hooks    Hooks
}

// Open opens (creating if needed, unless read-only) the catalog in the
// SQLite file at path. Missing catalog tables are created with the JDBC
// catalog DDL; an existing file written by Java, PyIceberg or iceberg-go is
// used as it is, with or without the iceberg_type column.
func Open(ctx context.Context, path string, opts Options) (*Catalog, error) {
	const op = "open"
	if path == "" {
		return nil, newError(op, "", wrapf(ErrInvalidArgument, "empty path"))
	}
	c := &Catalog{name: opts.CatalogName, readOnly: opts.ReadOnly, hooks: opts.Hooks}
	if c.name == "" {
		c.name = DefaultCatalogName
	}
	busy := opts.BusyTimeout
	if busy <= 0 {
		busy = DefaultBusyTimeout
	}
	if err := c.open(ctx, path, busy); err != nil {
		c.Close()
		return nil, newError(op, path, err)
	}
	return c, nil
}

func (c *Catalog) open(ctx context.Context, path string, busy time.Duration) error {
	var err error
	if !c.readOnly {
		// One writer connection: in-process writers queue in the pool instead
		// of spinning in SQLite's busy handler; other processes are handled
		// by the busy timeout.
		c.write, err = sql.Open("sqlite3", buildDSN(path, false, busy, "immediate"))
		if err != nil {
			return err
		}
		c.write.SetMaxOpenConns(1)
		c.write.SetMaxIdleConns(1)
		if err := enableWAL(ctx, c.write, busy); err != nil {
			return classifyOpenError(err)
		}
		if err := c.ensureSchema(ctx); err != nil {
			return classifyOpenError(err)
		}
	}
	c.read, err = sql.Open("sqlite3", buildDSN(path, c.readOnly, busy, "deferred"))
	if err != nil {
		return err
	}
	c.read.SetMaxOpenConns(8)
	c.read.SetMaxIdleConns(2)
	c.hasType, err = inspectSchema(ctx, c.read)
	return classifyOpenError(err)
}

// ensureSchema creates the catalog tables when one is missing. It looks
// first without a lock: opening an existing catalog must not wait for
// the write lock, which another process may hold for a long commit.
func (c *Catalog) ensureSchema(ctx context.Context) error {
	present, err := existingTables(ctx, c.write)
	if err != nil {
		return err
	}
	if present["iceberg_tables"] && present["iceberg_namespace_properties"] {
		return nil
	}
	tx, err := c.write.BeginTx(ctx, nil) // _txlock=immediate
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
	var errs []error
	if c.write != nil {
		errs = append(errs, c.write.Close())
	}
	if c.read != nil {
		errs = append(errs, c.read.Close())
	}
	return errors.Join(errs...)
}

// writeTx runs fn in a BEGIN IMMEDIATE transaction, wrapping any error in
// a *CatalogError for op on name.
func (c *Catalog) writeTx(ctx context.Context, op, name string, fn func(tx *sql.Tx) error) error {
	if c.readOnly {
		return newError(op, name, ErrReadOnly)
	}
	tx, err := c.write.BeginTx(ctx, nil)
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
	tx, err := c.read.BeginTx(ctx, nil)
	if err != nil {
		return newError(op, name, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return newError(op, name, err)
	}
	return nil
}
