// Package rest is an Iceberg REST catalog client behind the catalog.Catalog
// interface, so the engine runs on any REST catalog
// (catalog_uri=http://host:port/base): GET /v1/config is merged (defaults,
// then the client's properties, then overrides; "prefix" and "endpoints"
// honoured), namespaces, tables and views map onto the routes of the spec.
//
// Commits go as requirements and updates (table.MetadataCommitter, which
// the engine's commit protocol uses when the catalog offers it): the
// server checks and applies them and writes its own metadata.json, and the
// engine writes none. A 409 is iceberg.ErrCommitFailed (the engine retries
// on a fresh base); a 5xx or a lost connection after the request was sent
// is iceberg.ErrCommitStateUnknown, unless reading the table back shows
// whether the commit's snapshots landed. New tables are created with POST
// .../tables. CommitTable, for callers that swap pointers to metadata
// files they wrote, sends the difference of the two files
// (iceberg.DiffMetadata) the same way.
package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/internal/restapi"
)

// Options configure a client.
type Options struct {
	// Properties are the catalog properties with Iceberg's names: token,
	// credential (client_id:client_secret), oauth2-server-uri, scope,
	// warehouse, prefix. /v1/config defaults and overrides merge with them.
	Properties map[string]string
	// IO reads the engine's metadata files to diff a commit (default local
	// files).
	IO fileio.FileIO
	// HTTPClient is used for every request (default: 60s timeout).
	HTTPClient *http.Client
	// ReadOnly refuses every write with catalog.ErrReadOnly.
	ReadOnly bool
	// Name is the catalog's name (default "rest").
	Name string
	// OnTableConfig, when set, receives the "config" of every load-table
	// response that has one (vended storage credentials and FileIO
	// properties) with the table's location, so the caller can reach the
	// table's files with them.
	OnTableConfig func(tableLocation string, config map[string]string)
}

// Catalog is a REST catalog client. It is safe for concurrent use.
type Catalog struct {
	base      string // scheme://host[:port][/path], no trailing slash
	prefix    string // "" or "/<prefix>"
	props     map[string]string
	endpoints map[string]bool
	http      *http.Client
	io        fileio.FileIO
	readOnly  bool
	name      string
	onConfig  func(string, map[string]string)

	mu          sync.Mutex
	token       string
	tableConfig map[string]map[string]string // vended config by table
	parsed      map[string]*iceberg.TableMetadata
}

// defaultEndpoints is what a server that sends no "endpoints" supports.
var defaultEndpoints = []string{
	restapi.EndpointListNamespaces, restapi.EndpointCreateNamespace, restapi.EndpointLoadNamespace,
	restapi.EndpointDropNamespace, restapi.EndpointUpdateNamespace, restapi.EndpointListTables,
	restapi.EndpointCreateTable, restapi.EndpointLoadTable, restapi.EndpointUpdateTable,
	restapi.EndpointDropTable, restapi.EndpointRegisterTable, restapi.EndpointReportMetrics,
	restapi.EndpointRenameTable, restapi.EndpointCommitTransaction,
}

// Open connects to the REST catalog at uri (http or https; its path is
// the base the /v1 routes are under): it authenticates and reads the
// server's configuration.
func Open(ctx context.Context, uri string, opts Options) (*Catalog, error) {
	u, err := url.Parse(uri)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: %q: want http(s)://host[:port][/path]", ErrInvalidURI, redact(uri))
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	c := &Catalog{base: strings.TrimSuffix(u.String(), "/"), props: map[string]string{}, http: opts.HTTPClient,
		io: opts.IO, readOnly: opts.ReadOnly, name: opts.Name, onConfig: opts.OnTableConfig, tableConfig: map[string]map[string]string{}, parsed: map[string]*iceberg.TableMetadata{}}
	if c.http == nil {
		c.http = &http.Client{Timeout: 60 * time.Second}
	}
	if c.io == nil {
		c.io = &fileio.Local{}
	}
	if c.name == "" {
		c.name = "rest"
	}
	for k, v := range opts.Properties {
		c.props[k] = v
	}
	if err := c.authenticate(ctx); err != nil {
		return nil, err
	}
	if err := c.loadConfig(ctx, opts.Properties); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Catalog) loadConfig(ctx context.Context, client map[string]string) error {
	q := url.Values{}
	if wh := client["warehouse"]; wh != "" {
		q.Set("warehouse", wh)
	}
	var cfg restapi.CatalogConfig
	if err := c.call(ctx, http.MethodGet, c.base+"/v1/config", q, nil, &cfg, nil); err != nil {
		return fmt.Errorf("rest catalog: GET /v1/config: %w", err)
	}
	merged := map[string]string{}
	for k, v := range cfg.Defaults {
		merged[k] = v
	}
	for k, v := range client {
		merged[k] = v
	}
	for k, v := range cfg.Overrides {
		merged[k] = v
	}
	c.props = merged
	if p := strings.Trim(merged["prefix"], "/"); p != "" {
		c.prefix = "/" + p
	}
	eps := cfg.Endpoints
	if len(eps) == 0 {
		eps = defaultEndpoints
	}
	c.endpoints = map[string]bool{}
	for _, e := range eps {
		c.endpoints[e] = true
	}
	if t := merged["token"]; t != "" && client["credential"] == "" {
		c.setToken(t)
	}
	return nil
}

// Properties returns the merged catalog configuration.
func (c *Catalog) Properties() map[string]string {
	out := map[string]string{}
	for k, v := range c.props {
		out[k] = v
	}
	return out
}

// Supports reports whether the server lists an endpoint
// (restapi.Endpoint*, e.g. "POST /v1/{prefix}/transactions/commit").
func (c *Catalog) Supports(endpoint string) bool { return c.endpoints[endpoint] }

// TableConfig is the "config" the last load of a table returned (vended
// storage credentials and FileIO properties).
func (c *Catalog) TableConfig(ident string) map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tableConfig[ident]
}

func (c *Catalog) Name() string   { return c.name }
func (c *Catalog) ReadOnly() bool { return c.readOnly }
func (c *Catalog) Close() error {
	c.http.CloseIdleConnections()
	return nil
}

func (c *Catalog) route(path string, parts ...string) string {
	esc := make([]any, len(parts))
	for i, p := range parts {
		esc[i] = url.PathEscape(p)
	}
	return c.base + "/v1" + c.prefix + fmt.Sprintf(path, esc...)
}

func nsPart(ns []string) string { return restapi.EncodeNamespace(ns) }

func (c *Catalog) setToken(t string) {
	c.mu.Lock()
	c.token = t
	c.mu.Unlock()
}

func (c *Catalog) bearer() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.token
}

// call sends one request. notFound is what a 404 means when the server's
// type does not say (nil: a generic error). A transport error after the
// request was sent is returned as *SendError so commits can tell "maybe
// applied" from "refused".
func (c *Catalog) call(ctx context.Context, method, u string, q url.Values, body, out any, notFound error) error {
	var data []byte
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			return err
		}
	}
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(data))
		if err != nil {
			return err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if t := c.bearer(); t != "" {
			req.Header.Set("Authorization", "Bearer "+t)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return &SendError{Method: method, Err: err}
		}
		respBody, err := io.ReadAll(io.LimitReader(resp.Body, 1<<30))
		resp.Body.Close()
		if err != nil {
			return &SendError{Method: method, Err: err}
		}
		if resp.StatusCode == http.StatusUnauthorized && attempt == 0 && c.props["credential"] != "" {
			if err := c.authenticate(ctx); err == nil {
				continue // the token expired: fetch a new one once
			}
		}
		if resp.StatusCode >= 300 {
			return responseError(method, u, resp.StatusCode, respBody, notFound)
		}
		if out != nil && len(respBody) > 0 {
			if err := json.Unmarshal(respBody, out); err != nil {
				return fmt.Errorf("%w: %s %s: %v", ErrBadResponse, method, redact(u), err)
			}
		}
		return nil
	}
}

// exists sends a HEAD: 204 is true, 404 false.
func (c *Catalog) exists(ctx context.Context, u string) (bool, error) {
	err := c.call(ctx, http.MethodHead, u, nil, nil, nil, errNotFound)
	if errors.Is(err, errNotFound) {
		return false, nil
	}
	return err == nil, err
}

var errNotFound = errors.New("not found")

// listAll follows next-page-token until the listing ends.
func listAll[T any](ctx context.Context, c *Catalog, u string, q url.Values, notFound error,
	page func(body []byte) ([]T, *string, error)) ([]T, error) {
	var out []T
	token := ""
	for pages := 0; pages < 100000; pages++ {
		qq := url.Values{}
		for k, v := range q {
			qq[k] = v
		}
		qq.Set("pageToken", token)
		var raw json.RawMessage
		if err := c.call(ctx, http.MethodGet, u, qq, nil, &raw, notFound); err != nil {
			return nil, err
		}
		items, next, err := page(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadResponse, err)
		}
		out = append(out, items...)
		if next == nil || *next == "" || *next == token {
			return out, nil
		}
		token = *next
	}
	return nil, fmt.Errorf("%w: listing %s does not end", ErrBadResponse, redact(u))
}
