package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/icesql/icesql/driver"
)

// Config says where the data lives and how the engines are set up.
type Config struct {
	Dir        string // warehouse directory; data is reused when its scale matches
	Scale      Scale
	DSNOptions string // appended to icesql's DSN after '?', e.g. memory_limit=1GiB
	TblProps   string // TBLPROPERTIES of the events table, e.g. 'write.parquet.page-row-limit'='20000'
	WriteOrder string // the events table's write order (ALTER TABLE ... WRITE ORDERED BY), e.g. user_id
	Threads    int    // DuckDB's threads
	DuckOwn    bool   // also write DuckDB's own Parquet file of the same rows and query it
}

// Env is both engines over one data set.
type Env struct {
	Cfg     Config
	Ice     *sql.DB
	Duck    *sql.DB // over icesql's files
	DuckOwn *sql.DB // over DuckDB's own file, when Cfg.DuckOwn
	// WriteIce and WriteDuck time writing the events rows (zero when the
	// data was reused).
	WriteIce, WriteDuck time.Duration
	Files               int // data files of the events table
}

const scaleFile = "bench-scale.json"

// Open writes the data unless Dir already holds it, then opens DuckDB
// over the same files.
func Open(ctx context.Context, cfg Config) (*Env, error) {
	if cfg.Threads == 0 {
		cfg.Threads = 2
	}
	e := &Env{Cfg: cfg}
	dsn := cfg.Dir
	if cfg.DSNOptions != "" {
		dsn += "?" + cfg.DSNOptions
	}
	var err error
	if e.Ice, err = sql.Open("iceberg", dsn); err != nil {
		return nil, err
	}
	if err := e.load(ctx); err != nil {
		e.Close()
		return nil, err
	}
	if e.Duck, err = e.openDuck(ctx, "events", "users"); err != nil {
		e.Close()
		return nil, err
	}
	if cfg.DuckOwn {
		if err := e.openDuckOwn(ctx); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

func (e *Env) Close() {
	for _, db := range []*sql.DB{e.Ice, e.Duck, e.DuckOwn} {
		if db != nil {
			db.Close()
		}
	}
}

type stored struct {
	Scale      Scale
	TblProps   string
	WriteOrder string `json:",omitempty"`
}

func (e *Env) load(ctx context.Context) error {
	want, _ := json.Marshal(stored{e.Cfg.Scale, e.Cfg.TblProps, e.Cfg.WriteOrder})
	marker := filepath.Join(e.Cfg.Dir, scaleFile)
	if got, err := os.ReadFile(marker); err == nil && string(got) == string(want) {
		return nil
	}
	for _, t := range []string{"events", "users"} {
		if _, err := e.Ice.ExecContext(ctx, "DROP TABLE IF EXISTS "+t+" PURGE"); err != nil {
			return err
		}
	}
	props := ""
	if e.Cfg.TblProps != "" {
		props = " TBLPROPERTIES (" + e.Cfg.TblProps + ")"
	}
	if _, err := e.Ice.ExecContext(ctx, "CREATE TABLE events (event_id BIGINT, user_id STRING, action STRING, event_ts TIMESTAMP, amount DOUBLE)"+props); err != nil {
		return err
	}
	if e.Cfg.WriteOrder != "" {
		if _, err := e.Ice.ExecContext(ctx, "ALTER TABLE events WRITE ORDERED BY "+e.Cfg.WriteOrder); err != nil {
			return err
		}
	}
	if _, err := e.Ice.ExecContext(ctx, "CREATE TABLE users (user_id STRING, country STRING)"); err != nil {
		return err
	}
	start := time.Now()
	if err := e.appendArrow(ctx, "events", e.Cfg.Scale.eventsReader()); err != nil {
		return err
	}
	e.WriteIce = time.Since(start)
	if err := e.appendArrow(ctx, "users", e.Cfg.Scale.usersReader()); err != nil {
		return err
	}
	return os.WriteFile(marker, want, 0o644)
}

func (e *Env) appendArrow(ctx context.Context, table string, r *genReader) error {
	c, err := e.Ice.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Raw(func(dc any) error {
		n, err := dc.(driver.ArrowConn).AppendArrow(ctx, table, r)
		if err == nil && n != int64(r.n) {
			err = fmt.Errorf("appended %d rows to %s, want %d", n, table, r.n)
		}
		return err
	})
}

// dataFiles lists a table's data files as local paths.
func (e *Env) dataFiles(ctx context.Context, table string) ([]string, error) {
	rows, err := e.Ice.QueryContext(ctx, "SELECT file_path FROM "+table+".files")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var paths []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		if u, err := url.Parse(p); err == nil && u.Scheme == "file" {
			p = u.Path
		}
		paths = append(paths, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, errors.New(table + " has no data files")
	}
	return paths, nil
}

func quoteList(paths []string) string {
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = "'" + strings.ReplaceAll(p, "'", "''") + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func (e *Env) newDuck(ctx context.Context) (*sql.DB, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one in-memory database, one connection: the views stay visible
	if _, err := db.ExecContext(ctx, fmt.Sprintf("SET threads = %d; SET TimeZone = 'UTC'", e.Cfg.Threads)); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// openDuck opens DuckDB with one view per icesql table over its files.
func (e *Env) openDuck(ctx context.Context, tables ...string) (*sql.DB, error) {
	db, err := e.newDuck(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range tables {
		files, err := e.dataFiles(ctx, t)
		if err != nil {
			db.Close()
			return nil, err
		}
		if t == "events" {
			e.Files = len(files)
		}
		if _, err := db.ExecContext(ctx, fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet(%s)", t, quoteList(files))); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// openDuckOwn writes the same rows with DuckDB's COPY (timed against
// icesql's append) and opens views over those files.
func (e *Env) openDuckOwn(ctx context.Context) error {
	db, err := e.newDuck(ctx)
	if err != nil {
		return err
	}
	e.DuckOwn = db
	dir := filepath.Join(e.Cfg.Dir, "duckdb-own")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ev, us := filepath.Join(dir, "events.parquet"), filepath.Join(dir, "users.parquet")
	start := time.Now()
	if _, err := db.ExecContext(ctx, fmt.Sprintf("COPY (%s) TO '%s' (FORMAT parquet)", e.Cfg.Scale.duckEventsSQL(), ev)); err != nil {
		return err
	}
	e.WriteDuck = time.Since(start)
	users, err := e.dataFiles(ctx, "users")
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf("COPY (SELECT * FROM read_parquet(%s)) TO '%s' (FORMAT parquet)", quoteList(users), us)); err != nil {
		return err
	}
	for t, f := range map[string]string{"events": ev, "users": us} {
		if _, err := db.ExecContext(ctx, fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet('%s')", t, f)); err != nil {
			return err
		}
	}
	return nil
}
