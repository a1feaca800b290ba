package driver

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/catalog/open"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
)

// Mode says whether a connection may write.
type Mode string

const (
	ModeReadWrite Mode = "rw"
	ModeReadOnly  Mode = "ro"
)

// Config is a parsed DSN. The zero values of the optional fields mean the
// defaults; ParseDSN fills them in, so a parsed Config is complete.
//
// A DSN is a warehouse directory, as a path or a file: URI, with optional
// query parameters:
//
//	./lake
//	/data/lake?namespace=sales&mode=ro
//	file:///data/lake?catalog_file=/data/catalog.db&catalog=prod
//	/data/lake?catalog_uri=/data/catalog.db
//	s3://bucket/lake?catalog_uri=postgres://host/db&s3.endpoint=http://127.0.0.1:7070
//
// A warehouse on object storage (s3://, s3a://) needs a catalog_uri
// (Postgres, REST, or a local SQLite file); options named as Iceberg's
// FileIO properties (s3.*, client.*) configure its storage.
type Config struct {
	// Warehouse is the directory that holds table data and, by default,
	// the catalog file. Table locations are <Warehouse>/<namespace>.db/<table>.
	Warehouse string
	// CatalogFile is the SQLite catalog; default <Warehouse>/catalog.db
	// unless CatalogURI names another catalog. DSN: catalog_file=, or
	// catalog_uri= with a SQLite file path.
	CatalogFile string
	// CatalogURI names a catalog that is not a SQLite file (catalog/open
	// lists the forms); "" for SQLite. DSN: catalog_uri=.
	CatalogURI string
	// Catalog is the catalog_name written in the catalog tables; default "default".
	Catalog string
	// Namespace resolves one-part table names; default "default".
	Namespace string
	// Mode is rw (default) or ro.
	Mode Mode
	// MemoryLimit is what one sort may hold before spilling to disk, in
	// bytes (0: the engine's default, 512 MiB). DSN: memory_limit=256MiB.
	MemoryLimit int64
	// SpillDir holds spill files ("": the OS temporary directory).
	SpillDir string
	// AllowExternalLocations lets SQL name directories outside the
	// warehouse: CREATE TABLE ... LOCATION, write.data.path and
	// write.metadata.path, remove_orphan_files' location. Off by default.
	// DSN: allow_external_locations=true.
	AllowExternalLocations bool
	// DisableCopyTo refuses COPY ... TO, which writes result files on the
	// host (never inside the warehouse). DSN: allow_copy_to=false.
	DisableCopyTo bool
	// SkipPageChecksums reads data files without verifying their Parquet
	// page CRCs (verified by default), for scan speed where the storage
	// already guarantees integrity. DSN: verify_page_checksums=false.
	SkipPageChecksums bool
	// DataFileCache bounds the memory that keeps small data files (up to
	// 256 KiB each: what an INSERT of a few rows writes) with their
	// decoded footers across queries, in bytes: 0 is the default, 64 MiB;
	// negative keeps none. Data files are immutable, so nothing is ever
	// stale; a file damaged or removed on storage after it was cached
	// still reads as it was. DSN: data_file_cache=16MiB (0: none).
	DataFileCache int64
	// FileIO holds storage properties with Iceberg's names (s3.endpoint,
	// s3.access-key-id, s3.secret-access-key, s3.session-token,
	// s3.path-style-access, client.region, ...). DSN: the same names.
	FileIO map[string]string
	// CatalogProperties are a REST catalog's client properties with
	// Iceberg's names: token (a bearer token), credential
	// (client_id:client_secret for OAuth2 client credentials),
	// oauth2-server-uri (default <catalog_uri>/v1/oauth/tokens) and scope
	// (default catalog). DSN: the same names. Only with a REST catalog_uri.
	CatalogProperties map[string]string

	// MetricsReporter receives a report of every commit. Not part of the DSN.
	MetricsReporter iceberg.MetricsReporter
}

const (
	defaultCatalog   = "default"
	defaultNamespace = "default"
	catalogFileName  = "catalog.db"
)

var dsnKeys = map[string]bool{"catalog_file": true, "catalog_uri": true, "catalog": true, "namespace": true, "mode": true,
	"memory_limit": true, "spill_dir": true, "allow_external_locations": true,
	"allow_copy_to": true, "verify_page_checksums": true, "data_file_cache": true}

// restKeys are the REST catalog's client properties a DSN may carry.
var restKeys = map[string]bool{"token": true, "credential": true, "oauth2-server-uri": true, "scope": true}

// ParseDSN parses a DSN into a Config with every default filled in.
func ParseDSN(dsn string) (*Config, error) {
	cfg, err := parseDSN(dsn)
	if err != nil {
		var de *DSNError
		if errors.As(err, &de) {
			de.DSN = redactDSN(de.DSN)
		}
	}
	return cfg, err
}

func parseDSN(dsn string) (*Config, error) {
	if strings.TrimSpace(dsn) == "" {
		return nil, &DSNError{DSN: dsn, Msg: "empty DSN: give a warehouse directory, e.g. ./lake"}
	}
	path, query, _ := strings.Cut(dsn, "?")
	objectStore := s3io.IsLocation(path)
	if objectStore {
		path = strings.TrimRight(path, "/")
		if _, _, err := s3io.ParseLocation(path); err != nil {
			return nil, &DSNError{DSN: dsn, Msg: "warehouse", Err: err}
		}
	} else if strings.HasPrefix(path, "file:") {
		u, err := url.Parse(path)
		if err != nil {
			return nil, &DSNError{DSN: dsn, Msg: "malformed file: URI", Err: err}
		}
		if u.Host != "" && u.Host != "localhost" {
			return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("file: URI names host %q; only local paths are supported", u.Host)}
		}
		path = u.Path
		if u.Opaque != "" { // file:./lake, a relative path
			if path, err = url.PathUnescape(u.Opaque); err != nil {
				return nil, &DSNError{DSN: dsn, Msg: "malformed file: URI", Err: err}
			}
		}
	} else if i := strings.Index(path, "://"); i >= 0 {
		return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("unsupported scheme %q: give a directory path, a file: URI or an s3:// location", path[:i])}
	}
	if strings.TrimSpace(path) == "" || strings.TrimSpace(filepath.Clean(path)) == "" {
		return nil, &DSNError{DSN: dsn, Msg: "no warehouse directory"}
	}
	cfg := &Config{Warehouse: path}
	values, err := url.ParseQuery(query)
	if err != nil {
		return nil, &DSNError{DSN: dsn, Msg: "malformed options", Err: err}
	}
	for k, vs := range values {
		if fileio.IsStorageProperty(k) {
			if len(vs) != 1 {
				return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("option %q given %d times", k, len(vs))}
			}
			if cfg.FileIO == nil {
				cfg.FileIO = map[string]string{}
			}
			cfg.FileIO[k] = vs[0]
			continue
		}
		if restKeys[k] {
			if len(vs) != 1 || vs[0] == "" {
				return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("option %q must be given once, not empty", k)}
			}
			if cfg.CatalogProperties == nil {
				cfg.CatalogProperties = map[string]string{}
			}
			cfg.CatalogProperties[k] = vs[0]
			continue
		}
		if !dsnKeys[k] {
			return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("unknown option %q (known: catalog_uri, catalog_file, catalog, namespace, mode, memory_limit, spill_dir, allow_external_locations, allow_copy_to, verify_page_checksums, the REST catalog's token, credential, oauth2-server-uri, scope, and storage properties s3.*, client.*)", k)}
		}
		if len(vs) != 1 {
			return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("option %q given %d times", k, len(vs))}
		}
		v := vs[0]
		if v == "" {
			return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("option %q is empty", k)}
		}
		switch k {
		case "catalog_file":
			if values.Has("catalog_uri") {
				return nil, &DSNError{DSN: dsn, Msg: "give catalog_uri or catalog_file, not both"}
			}
			cfg.CatalogFile = v
		case "catalog_uri":
			kind, path, err := open.Classify(v)
			if err != nil {
				return nil, &DSNError{DSN: dsn, Msg: "catalog_uri", Err: err}
			}
			if kind == open.KindSQLite {
				cfg.CatalogFile = path
			} else {
				cfg.CatalogURI = v
			}
		case "catalog":
			cfg.Catalog = v
		case "namespace":
			cfg.Namespace = v
		case "memory_limit":
			n, err := parseBytes(v)
			if err != nil {
				return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("memory_limit %q", v), Err: err}
			}
			cfg.MemoryLimit = n
		case "spill_dir":
			cfg.SpillDir = filepath.Clean(v)
		case "allow_external_locations":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("allow_external_locations %q: want true or false", v)}
			}
			cfg.AllowExternalLocations = b
		case "allow_copy_to":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("allow_copy_to %q: want true or false", v)}
			}
			cfg.DisableCopyTo = !b
		case "verify_page_checksums":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("verify_page_checksums %q: want true or false", v)}
			}
			cfg.SkipPageChecksums = !b
		case "data_file_cache":
			n, err := parseBytes(v)
			if err != nil {
				return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("data_file_cache %q", v), Err: err}
			}
			if n == 0 {
				n = -1 // none; Config's 0 is the default
			}
			cfg.DataFileCache = n
		case "mode":
			switch Mode(v) {
			case ModeReadWrite, ModeReadOnly:
				cfg.Mode = Mode(v)
			default:
				return nil, &DSNError{DSN: dsn, Msg: fmt.Sprintf("mode %q: want rw or ro", v)}
			}
		}
	}
	if cfg.FileIO != nil {
		if _, err := s3io.ConfigFromProperties(cfg.FileIO); err != nil {
			return nil, &DSNError{DSN: dsn, Msg: "storage properties", Err: err}
		}
	}
	if len(cfg.CatalogProperties) > 0 {
		if kind, _, _ := open.Classify(cfg.CatalogURI); cfg.CatalogURI == "" || kind != open.KindREST {
			return nil, &DSNError{DSN: dsn, Msg: "token, credential, oauth2-server-uri and scope apply to a REST catalog only (catalog_uri=http(s)://...)"}
		}
	}
	if objectStore && cfg.CatalogFile == "" && cfg.CatalogURI == "" {
		return nil, &DSNError{DSN: dsn, Msg: "a warehouse on object storage needs catalog_uri= (a postgres:// URI, an http(s):// REST catalog, or a local SQLite file)"}
	}
	cfg.normalize()
	return cfg, nil
}

// ObjectStore reports whether the warehouse is on object storage (s3://).
func (c *Config) ObjectStore() bool { return s3io.IsLocation(c.Warehouse) }

// RedactedDSN is FormatDSN with secrets (passwords, secret keys, tokens)
// replaced, for logs and error messages.
func (c *Config) RedactedDSN() string { return redactDSN(c.FormatDSN()) }

// redactDSN hides the secrets of a DSN: secret-named options and the
// password of a catalog_uri.
func redactDSN(dsn string) string {
	path, query, ok := strings.Cut(dsn, "?")
	if !ok {
		return dsn
	}
	values, err := url.ParseQuery(query)
	if err != nil {
		return path + "?" + catalog.Redacted
	}
	for k, vs := range values {
		for i := range vs {
			switch {
			case catalog.IsSecretKey(k):
				vs[i] = catalog.Redacted
			case k == "catalog_uri":
				vs[i] = catalog.RedactURI(vs[i])
			}
		}
	}
	return path + "?" + values.Encode()
}

// normalize fills in defaults.
func (c *Config) normalize() {
	if s3io.IsLocation(c.Warehouse) {
		c.Warehouse = strings.TrimRight(c.Warehouse, "/")
	} else {
		c.Warehouse = filepath.Clean(c.Warehouse)
	}
	if c.SpillDir != "" {
		c.SpillDir = filepath.Clean(c.SpillDir)
	}
	if c.CatalogFile != "" {
		c.CatalogFile = filepath.Clean(c.CatalogFile)
	}
	if c.CatalogURI != "" {
		if kind, path, err := open.Classify(c.CatalogURI); err == nil && kind == open.KindSQLite {
			c.CatalogFile, c.CatalogURI = filepath.Clean(path), ""
		}
	}
	if c.CatalogFile == "" && c.CatalogURI == "" && !s3io.IsLocation(c.Warehouse) {
		c.CatalogFile = filepath.Join(c.Warehouse, catalogFileName)
	}
	if c.Catalog == "" {
		c.Catalog = defaultCatalog
	}
	if c.Namespace == "" {
		c.Namespace = defaultNamespace
	}
	if c.Mode == "" {
		c.Mode = ModeReadWrite
	}
}

// FormatDSN is the inverse of ParseDSN: ParseDSN(FormatDSN(c)) gives c
// back (with defaults filled in). Options equal to their defaults are left out.
func (c *Config) FormatDSN() string {
	n := *c
	n.normalize()
	q := url.Values{}
	if n.CatalogURI != "" {
		q.Set("catalog_uri", n.CatalogURI)
	} else if n.CatalogFile != filepath.Join(n.Warehouse, catalogFileName) || n.ObjectStore() {
		q.Set("catalog_file", n.CatalogFile)
	}
	if n.Catalog != defaultCatalog {
		q.Set("catalog", n.Catalog)
	}
	if n.Namespace != defaultNamespace {
		q.Set("namespace", n.Namespace)
	}
	if n.Mode != ModeReadWrite {
		q.Set("mode", string(n.Mode))
	}
	if n.MemoryLimit != 0 {
		q.Set("memory_limit", strconv.FormatInt(n.MemoryLimit, 10))
	}
	if n.SpillDir != "" {
		q.Set("spill_dir", n.SpillDir)
	}
	if n.AllowExternalLocations {
		q.Set("allow_external_locations", "true")
	}
	if n.DisableCopyTo {
		q.Set("allow_copy_to", "false")
	}
	if n.SkipPageChecksums {
		q.Set("verify_page_checksums", "false")
	}
	if n.DataFileCache != 0 {
		q.Set("data_file_cache", strconv.FormatInt(max(n.DataFileCache, 0), 10))
	}
	for k, v := range n.FileIO {
		q.Set(k, v)
	}
	for k, v := range n.CatalogProperties {
		q.Set(k, v)
	}
	path := n.Warehouse
	// A path that would read as a URI or carries '?' goes out as a file: URI.
	if n.ObjectStore() {
		// s3://bucket/key as it is: keys are literal.
	} else if strings.Contains(path, "?") || strings.Contains(path, "://") || strings.HasPrefix(path, "file:") || strings.Contains(path, "%") ||
		strings.TrimSpace(path) != path {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
		if !filepath.IsAbs(path) {
			u = url.URL{Scheme: "file", Opaque: url.PathEscape(filepath.ToSlash(path))}
		}
		path = u.String()
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// parseBytes reads a size: a whole number of bytes with an optional unit
// (KB, MB, GB, TB powers of 1000; KiB, MiB, GiB, TiB powers of 1024).
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	mult := int64(1)
	num := s
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a non-negative whole number of bytes, optionally with KiB, MiB, GiB, KB, MB or GB")
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("size overflows")
	}
	return n * mult, nil
}
