package driver

import (
	"context"
	"database/sql/driver"
	"io"
	"sync"

	"github.com/icesql/icesql/sqlexec"
)

// connector owns one engine (catalog and storage) shared by the
// connections of a *sql.DB.
type connector struct {
	cfg Config

	mu     sync.Mutex
	engine *sqlexec.Engine
	closed bool
}

var (
	_ driver.Connector = (*connector)(nil)
	_ io.Closer        = (*connector)(nil)
)

// NewConnector returns a connector for cfg, for sql.OpenDB; it behaves
// exactly as sql.Open with cfg.FormatDSN(). Closing the *sql.DB closes the
// warehouse's catalog.
func NewConnector(cfg *Config) (driver.Connector, error) {
	if cfg == nil {
		return nil, &DSNError{Msg: "nil Config"}
	}
	c := *cfg
	c.normalize()
	return &connector{cfg: c}, nil
}

// NewEngineConnector returns a connector over an engine opened by the
// caller (for instance with table.Env hooks set); it takes ownership:
// closing the *sql.DB closes the engine. Connections are read-only when
// the engine is.
func NewEngineConnector(e *sqlexec.Engine) driver.Connector {
	cfg := e.Config()
	c := &connector{engine: e, cfg: Config{Warehouse: cfg.Warehouse, CatalogFile: cfg.CatalogFile, CatalogURI: cfg.CatalogURI, Catalog: cfg.CatalogName, Namespace: cfg.Namespace}}
	if cfg.ReadOnly {
		c.cfg.Mode = ModeReadOnly
	}
	return c
}

func (c *connector) Driver() driver.Driver { return &Driver{} }

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	e, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	return newConn(e, c.cfg.Mode == ModeReadOnly), nil
}

func (c *connector) connect() (*conn, error) {
	dc, err := c.Connect(context.Background())
	if err != nil {
		return nil, err
	}
	return dc.(*conn), nil
}

// open opens the engine on first use; a failure is retried next time.
func (c *connector) open(ctx context.Context) (*sqlexec.Engine, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, driver.ErrBadConn
	}
	if c.engine != nil {
		return c.engine, nil
	}
	e, err := sqlexec.Open(ctx, sqlexec.Config{
		Warehouse:              c.cfg.Warehouse,
		CatalogFile:            c.cfg.CatalogFile,
		CatalogURI:             c.cfg.CatalogURI,
		CatalogName:            c.cfg.Catalog,
		Namespace:              c.cfg.Namespace,
		ReadOnly:               c.cfg.Mode == ModeReadOnly,
		Reporter:               c.cfg.MetricsReporter,
		MemoryLimit:            c.cfg.MemoryLimit,
		SpillDir:               c.cfg.SpillDir,
		AllowExternalLocations: c.cfg.AllowExternalLocations,
		DisableCopyTo:          c.cfg.DisableCopyTo,
		SkipPageChecksums:      c.cfg.SkipPageChecksums,
		DataFileCacheBytes:     c.cfg.DataFileCache,
		FileIO:                 c.cfg.FileIO,
		CatalogProperties:      c.cfg.CatalogProperties,
	})
	if err != nil {
		return nil, err
	}
	c.engine = e
	return e, nil
}

// Close closes the engine; database/sql calls it from (*sql.DB).Close.
func (c *connector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.engine == nil {
		return nil
	}
	err := c.engine.Close()
	c.engine = nil
	return err
}
