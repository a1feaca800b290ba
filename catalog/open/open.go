// Package open opens a catalog.Catalog named by a catalog URI, choosing the
// implementation by the URI's form:
//
//	/path/catalog.db, file:/path/catalog.db, sqlite:/path/catalog.db   SQLite file (catalog/sqlite)
//	postgres://user:pass@host:port/db?sslmode=...  (or postgresql://)  Postgres database (catalog/postgres)
//	http://host:port[/path], https://...                              Iceberg REST catalog (catalog/rest)
//
// Anything else with a scheme is refused with catalog.ErrUnsupportedURI.
package open

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/catalog/postgres"
	restcat "github.com/icesql/icesql/catalog/rest"
	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg/fileio"
)

// Options apply to every implementation.
type Options struct {
	// CatalogName selects the catalog's rows (JDBC catalog_name); default
	// "default".
	CatalogName string
	// ReadOnly refuses every write with catalog.ErrReadOnly.
	ReadOnly bool
	// CreateOnWrite leaves a missing SQLite file (and its directory)
	// uncreated until the first write; until then reads see an empty
	// catalog. The other implementations create nothing on open anyway.
	CreateOnWrite bool
	// Properties are the connection's other options with Iceberg's names
	// (credentials, warehouse, ...), for implementations that take them.
	Properties map[string]string
	// IO reads the engine's metadata files where an implementation needs
	// to (the REST client diffs a commit's metadata); default local files.
	IO fileio.FileIO
	// OnTableConfig receives the storage configuration a catalog vends for
	// a table (REST's load-table "config") with the table's location.
	OnTableConfig func(tableLocation string, config map[string]string)
}

// Catalog opens the catalog that uri names.
func Catalog(ctx context.Context, uri string, opts Options) (catalog.Catalog, error) {
	kind, rest, err := Classify(uri)
	if err != nil {
		return nil, err
	}
	switch kind {
	case KindSQLite:
		return sqlite.Open(ctx, rest, sqlite.Options{CatalogName: opts.CatalogName, ReadOnly: opts.ReadOnly, CreateOnWrite: opts.CreateOnWrite})
	case KindPostgres:
		return postgres.Open(ctx, rest, postgres.Options{CatalogName: opts.CatalogName, ReadOnly: opts.ReadOnly})
	case KindREST:
		return restcat.Open(ctx, rest, restcat.Options{Properties: opts.Properties, ReadOnly: opts.ReadOnly, Name: opts.CatalogName,
			IO: opts.IO, OnTableConfig: opts.OnTableConfig})
	}
	return nil, fmt.Errorf("%w: %s", catalog.ErrUnsupportedURI, catalog.RedactURI(uri))
}

// Kind is the implementation a catalog URI names.
type Kind int

const (
	KindSQLite Kind = iota + 1
	KindPostgres
	KindREST
)

// Classify says which implementation uri names and returns what that
// implementation opens (for SQLite the file path).
func Classify(uri string) (Kind, string, error) {
	if uri == "" {
		return 0, "", fmt.Errorf("%w: empty catalog URI", catalog.ErrUnsupportedURI)
	}
	scheme, rest, ok := strings.Cut(uri, ":")
	if !ok || !isScheme(scheme) || len(scheme) == 1 { // "C:\..." is a path
		return KindSQLite, uri, nil
	}
	switch strings.ToLower(scheme) {
	case "http", "https":
		return KindREST, uri, nil
	case "sqlite", "file":
		path := rest
		if strings.HasPrefix(path, "//") {
			u, err := url.Parse("file:" + rest)
			if err != nil || (u.Host != "" && u.Host != "localhost") {
				return 0, "", fmt.Errorf("%w: %s: want file:/path or a plain path", catalog.ErrUnsupportedURI, catalog.RedactURI(uri))
			}
			path = u.Path
		}
		if path == "" {
			return 0, "", fmt.Errorf("%w: %s: no file path", catalog.ErrUnsupportedURI, catalog.RedactURI(uri))
		}
		return KindSQLite, path, nil
	case "postgres", "postgresql":
		return KindPostgres, uri, nil
	}
	return 0, "", fmt.Errorf("%w: %s (want a SQLite file path, postgres://... or http(s)://...)", catalog.ErrUnsupportedURI, catalog.RedactURI(uri))
}

func isScheme(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}
