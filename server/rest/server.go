// Package rest serves a catalog.Catalog and its storage as an Iceberg REST
// catalog (apache/iceberg open-api/rest-catalog-open-api.yaml). Server is
// an http.Handler, so a Go program or test embeds a REST catalog without a
// separate process; `icesql serve` runs one on a listener.
//
// Clients send commits as requirements and updates; the server checks the
// requirements against the current metadata, applies the updates, writes
// the next metadata.json and swaps the catalog pointer with the catalog's
// compare-and-swap, retrying from a fresh base while the requirements
// still hold. POST /v1/transactions/commit swaps all its tables in one
// catalog transaction.
package rest

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/internal/restapi"
)

// Options configure a Server.
type Options struct {
	// Warehouse is the URI new tables and views are placed under
	// (<Warehouse>/<ns>.db/<name>) when a create names no location.
	Warehouse string
	// Prefix, when set, is the {prefix} path segment of every route; the
	// config response tells clients to use it.
	Prefix string
	// Token, when set, must be presented as "Authorization: Bearer <Token>"
	// on every request. The OAuth2 token endpoint (/v1/oauth/tokens) then
	// exchanges client credentials "<id>:<Token>" for it.
	Token string
	// Defaults and Overrides are extra properties of the config response.
	Defaults, Overrides map[string]string
	// TableConfig is the "config" of every load-table response: storage
	// properties (s3.endpoint, s3.access-key-id, ...) vended to clients.
	TableConfig map[string]string
	// CommitAttempts bounds how often a commit re-applies its updates onto
	// a fresh base after losing the pointer swap (default 4).
	CommitAttempts int
}

// Server is the REST catalog handler. It is safe for concurrent use.
type Server struct {
	cat   catalog.Catalog
	env   *table.Env
	opts  Options
	mux   *http.ServeMux
	cache *metadataCache
}

// New returns a handler serving cat, reading and writing files through fio.
func New(cat catalog.Catalog, fio fileio.FileIO, opts Options) *Server {
	if opts.CommitAttempts <= 0 {
		opts.CommitAttempts = 4
	}
	opts.Prefix = strings.Trim(opts.Prefix, "/")
	s := &Server{cat: cat, opts: opts, mux: http.NewServeMux(), cache: newMetadataCache(256),
		env: &table.Env{IO: fio}}
	s.routes()
	return s
}

type route struct {
	endpoint string
	handler  func(w http.ResponseWriter, r *http.Request) error
}

func (s *Server) routeTable() []route {
	return []route{
		{restapi.EndpointListNamespaces, s.listNamespaces},
		{restapi.EndpointCreateNamespace, s.createNamespace},
		{restapi.EndpointLoadNamespace, s.loadNamespace},
		{restapi.EndpointNamespaceExists, s.namespaceExists},
		{restapi.EndpointDropNamespace, s.dropNamespace},
		{restapi.EndpointUpdateNamespace, s.updateNamespaceProperties},
		{restapi.EndpointListTables, s.listTables},
		{restapi.EndpointCreateTable, s.createTable},
		{restapi.EndpointLoadTable, s.loadTable},
		{restapi.EndpointTableExists, s.tableExists},
		{restapi.EndpointUpdateTable, s.commitTable},
		{restapi.EndpointDropTable, s.dropTable},
		{restapi.EndpointRegisterTable, s.registerTable},
		{restapi.EndpointReportMetrics, s.reportMetrics},
		{restapi.EndpointRenameTable, s.renameTable},
		{restapi.EndpointCommitTransaction, s.commitTransaction},
		{restapi.EndpointListViews, s.listViews},
		{restapi.EndpointCreateView, s.createView},
		{restapi.EndpointLoadView, s.loadView},
		{restapi.EndpointViewExists, s.viewExists},
		{restapi.EndpointReplaceView, s.replaceView},
		{restapi.EndpointDropView, s.dropView},
		{restapi.EndpointRenameView, s.renameView},
		{restapi.EndpointRegisterView, s.registerView},
	}
}

func (s *Server) routes() {
	s.mux.HandleFunc("GET /v1/config", s.wrap(s.config))
	s.mux.HandleFunc("POST /v1/oauth/tokens", s.token)
	for _, rt := range s.routeTable() {
		method, path, _ := strings.Cut(rt.endpoint, " ")
		p := strings.Replace(path, "/{prefix}", "", 1)
		if s.opts.Prefix != "" {
			p = strings.Replace(path, "{prefix}", s.opts.Prefix, 1)
		}
		s.mux.HandleFunc(method+" "+p, s.wrap(rt.handler))
	}
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errorf(http.StatusNotFound, "NoSuchEndpointException", "no route for %s %s", r.Method, r.URL.Path))
	})
}

// Endpoints lists the routes the server supports, as /v1/config sends them.
func (s *Server) Endpoints() []string {
	var out []string
	for _, rt := range s.routeTable() {
		out = append(out, rt.endpoint)
	}
	return out
}

// ServeHTTP checks the bearer token (when configured) and routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Token != "" && r.URL.Path != "/v1/oauth/tokens" && !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="iceberg"`)
		writeError(w, errorf(http.StatusUnauthorized, "NotAuthorizedException", "missing or wrong bearer token"))
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) authorized(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1
}

// wrap turns a handler's error into the spec's error response.
func (s *Server) wrap(h func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		if err := h(w, r); err != nil {
			writeError(w, err)
		}
	}
}

// maxBodyBytes bounds a request body (a commit of many snapshots' worth of
// updates stays far below it).
const maxBodyBytes = 64 << 20

func (s *Server) config(w http.ResponseWriter, r *http.Request) error {
	cfg := restapi.CatalogConfig{Defaults: map[string]string{}, Overrides: map[string]string{}, Endpoints: s.Endpoints()}
	for k, v := range s.opts.Defaults {
		cfg.Defaults[k] = v
	}
	for k, v := range s.opts.Overrides {
		cfg.Overrides[k] = v
	}
	if s.opts.Warehouse != "" {
		cfg.Defaults["warehouse"] = s.opts.Warehouse
	}
	if s.opts.Prefix != "" {
		cfg.Overrides["prefix"] = s.opts.Prefix
	}
	return writeJSON(w, http.StatusOK, cfg)
}

// token implements the (deprecated, still widely used) OAuth2 client
// credentials endpoint: client_secret must equal the server's token,
// which is then issued as the access token.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	if r.PostForm.Get("grant_type") != "client_credentials" {
		writeOAuthError(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	secret := r.PostForm.Get("client_secret")
	if id, sec, ok := r.BasicAuth(); ok && secret == "" {
		_, secret = id, sec
	}
	if s.opts.Token == "" || subtle.ConstantTimeCompare([]byte(secret), []byte(s.opts.Token)) != 1 {
		writeOAuthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	writeJSON(w, http.StatusOK, restapi.OAuthTokenResponse{AccessToken: s.opts.Token, TokenType: "bearer",
		IssuedTokenType: "urn:ietf:params:oauth:token-type:access_token", ExpiresIn: 3600, Scope: r.PostForm.Get("scope")})
}

func writeOAuthError(w http.ResponseWriter, code int, kind string) {
	writeJSON(w, code, map[string]string{"error": kind})
}
