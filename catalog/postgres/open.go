package postgres

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/icesql/icesql/catalog"
)

// DefaultCatalogName is the catalog_name used when Options.CatalogName is
// empty.
const DefaultCatalogName = "default"

// DefaultResolveTimeout bounds how long a commit whose reply was lost
// spends finding out whether it took effect.
const DefaultResolveTimeout = 30 * time.Second

// DefaultLockTimeout is how long a statement waits for a row lock another
// session holds (Postgres's lock_timeout) when neither Options.LockTimeout
// nor the URI's lock_timeout sets it; past it the operation fails with
// catalog.ErrBusy instead of waiting without end.
const DefaultLockTimeout = 10 * time.Second

// Options configures Open.
type Options struct {
	// CatalogName selects the rows of this catalog (column catalog_name).
	CatalogName string
	// ReadOnly refuses every write with catalog.ErrReadOnly; the sessions
	// also run with default_transaction_read_only. The catalog tables must
	// exist.
	ReadOnly bool
	// MaxConns bounds the connection pool (0: pgxpool's default, or the
	// URI's pool_max_conns).
	MaxConns int32
	// ResolveTimeout bounds the resolution of a lost commit reply
	// (0: DefaultResolveTimeout).
	ResolveTimeout time.Duration
	// LockTimeout bounds the wait for a lock held by another session
	// (0: the URI's lock_timeout parameter, else DefaultLockTimeout).
	LockTimeout time.Duration
	// Hooks are fault-injection points for tests.
	Hooks catalog.Hooks
}

// Catalog is an Iceberg JDBC-schema catalog in a Postgres database. It is
// safe for concurrent use; other processes and other engines (Spark,
// Trino) may use the same database at the same time.
type Catalog struct {
	name     string
	readOnly bool
	hasType  bool // iceberg_tables has the V1 iceberg_type column
	pool     *pgxpool.Pool
	hooks    catalog.Hooks
	resolve  time.Duration
}

var (
	_ catalog.Catalog      = (*Catalog)(nil)
	_ catalog.CommitLocker = (*Catalog)(nil)
)

// Open connects to the database that uri names (postgres://user:pass@host:port/db?...,
// or a libpq key=value string) and creates the catalog tables with Java's
// DDL when they are missing (unless read-only).
func Open(ctx context.Context, uri string, opts Options) (*Catalog, error) {
	const op = "open"
	shown := catalog.RedactURI(uri)
	cfg, err := pgxpool.ParseConfig(uri)
	if err != nil {
		// pgx's parse errors already hide the password.
		return nil, newError(op, shown, wrapf(catalog.ErrInvalidArgument, "connection string: %v", err))
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	if opts.ReadOnly {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	}
	if _, set := cfg.ConnConfig.RuntimeParams["lock_timeout"]; !set || opts.LockTimeout > 0 {
		lt := opts.LockTimeout
		if lt <= 0 {
			lt = DefaultLockTimeout
		}
		cfg.ConnConfig.RuntimeParams["lock_timeout"] = strconv.FormatInt(max(lt.Milliseconds(), 1), 10)
	}
	c := &Catalog{name: opts.CatalogName, readOnly: opts.ReadOnly, hooks: opts.Hooks, resolve: opts.ResolveTimeout}
	if c.name == "" {
		c.name = DefaultCatalogName
	}
	if why := storable(c.name, maxNameChars); why != "" {
		return nil, newError(op, shown, wrapf(catalog.ErrInvalidArgument, "catalog name %s", why))
	}
	if c.resolve <= 0 {
		c.resolve = DefaultResolveTimeout
	}
	c.pool, err = pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, newError(op, shown, err)
	}
	if err := c.init(ctx); err != nil {
		c.pool.Close()
		return nil, newError(op, shown, err)
	}
	return c, nil
}

func (c *Catalog) init(ctx context.Context) error {
	if !c.readOnly {
		if err := pgx.BeginFunc(ctx, c.pool, func(tx pgx.Tx) error { return initSchema(ctx, tx) }); err != nil {
			return err
		}
	}
	var err error
	c.hasType, err = inspectSchema(ctx, c.pool)
	return err
}

// Name is the catalog_name this Catalog reads and writes.
func (c *Catalog) Name() string { return c.name }

// ReadOnly reports whether the catalog was opened read-only.
func (c *Catalog) ReadOnly() bool { return c.readOnly }

// Close closes the pool's connections.
func (c *Catalog) Close() error {
	c.pool.Close()
	return nil
}

// writeTx runs fn in a transaction, wrapping any error in a *CatalogError
// for op on name.
func (c *Catalog) writeTx(ctx context.Context, op, name string, fn func(tx pgx.Tx) error) error {
	if c.readOnly {
		return newError(op, name, catalog.ErrReadOnly)
	}
	if err := pgx.BeginFunc(ctx, c.pool, fn); err != nil {
		return newError(op, name, err)
	}
	return nil
}

// readTx runs fn in a read-only REPEATABLE READ transaction, so every
// query in fn sees one snapshot of the catalog.
func (c *Catalog) readTx(ctx context.Context, op, name string, fn func(tx pgx.Tx) error) error {
	err := pgx.BeginTxFunc(ctx, c.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn)
	if err != nil {
		return newError(op, name, err)
	}
	return nil
}
