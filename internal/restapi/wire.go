// Package restapi holds the messages of the Iceberg REST catalog protocol
// (apache/iceberg open-api/rest-catalog-open-api.yaml) that icesql's REST
// server (server/rest) and client (catalog/rest) exchange, with their JSON
// field names. Table updates and requirements are package iceberg's
// Update and Requirement values (their JSON is iceberg/updates_json.go).
package restapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// NamespaceSeparator joins namespace levels in a path or the parent query
// parameter (the unit separator, "%1F" URL-encoded), as the spec says.
const NamespaceSeparator = "\x1f"

// EncodeNamespace joins levels for a path segment or query value (before
// URL escaping).
func EncodeNamespace(ns []string) string { return strings.Join(ns, NamespaceSeparator) }

// DecodeNamespace splits a decoded path segment or query value into levels.
func DecodeNamespace(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, NamespaceSeparator)
}

// CatalogConfig is the GET /v1/config response.
type CatalogConfig struct {
	Defaults  map[string]string `json:"defaults"`
	Overrides map[string]string `json:"overrides"`
	Endpoints []string          `json:"endpoints,omitempty"`
}

// ErrorModel is the body of every error response, inside {"error": ...}.
type ErrorModel struct {
	Message string   `json:"message"`
	Type    string   `json:"type"`
	Code    int      `json:"code"`
	Stack   []string `json:"stack,omitempty"`
}

// ErrorResponse is the IcebergErrorResponse wrapper.
type ErrorResponse struct {
	Error ErrorModel `json:"error"`
}

// TableIdentifier is a namespace and a name.
type TableIdentifier struct {
	Namespace []string `json:"namespace"`
	Name      string   `json:"name"`
}

type CreateNamespaceRequest struct {
	Namespace  []string          `json:"namespace"`
	Properties map[string]string `json:"properties,omitempty"`
}

type NamespaceResponse struct {
	Namespace  []string          `json:"namespace"`
	Properties map[string]string `json:"properties"`
}

type ListNamespacesResponse struct {
	NextPageToken *string    `json:"next-page-token,omitempty"`
	Namespaces    [][]string `json:"namespaces"`
}

type UpdateNamespacePropertiesRequest struct {
	Removals []string          `json:"removals,omitempty"`
	Updates  map[string]string `json:"updates,omitempty"`
}

type UpdateNamespacePropertiesResponse struct {
	Updated []string `json:"updated"`
	Removed []string `json:"removed"`
	Missing []string `json:"missing,omitempty"`
}

type ListTablesResponse struct {
	NextPageToken *string           `json:"next-page-token,omitempty"`
	Identifiers   []TableIdentifier `json:"identifiers"`
}

type CreateTableRequest struct {
	Name          string            `json:"name"`
	Location      string            `json:"location,omitempty"`
	Schema        json.RawMessage   `json:"schema"`
	PartitionSpec json.RawMessage   `json:"partition-spec,omitempty"`
	WriteOrder    json.RawMessage   `json:"write-order,omitempty"`
	StageCreate   bool              `json:"stage-create,omitempty"`
	Properties    map[string]string `json:"properties,omitempty"`
}

type RegisterTableRequest struct {
	Name             string `json:"name"`
	MetadataLocation string `json:"metadata-location"`
	Overwrite        bool   `json:"overwrite,omitempty"`
}

type RenameTableRequest struct {
	Source      TableIdentifier `json:"source"`
	Destination TableIdentifier `json:"destination"`
}

// LoadTableResult is the load, create and register response. Metadata is
// the metadata.json content; MetadataLocation is nil for a staged create.
type LoadTableResult struct {
	MetadataLocation *string           `json:"metadata-location,omitempty"`
	Metadata         json.RawMessage   `json:"metadata"`
	Config           map[string]string `json:"config,omitempty"`
}

type CommitTableResponse struct {
	MetadataLocation string          `json:"metadata-location"`
	Metadata         json.RawMessage `json:"metadata"`
}

type LoadViewResult struct {
	MetadataLocation string            `json:"metadata-location"`
	Metadata         json.RawMessage   `json:"metadata"`
	Config           map[string]string `json:"config,omitempty"`
}

// CreateViewRequest is POST .../views: the view's first version.
type CreateViewRequest struct {
	Name        string            `json:"name"`
	Location    string            `json:"location,omitempty"`
	Schema      json.RawMessage   `json:"schema"`
	ViewVersion json.RawMessage   `json:"view-version"`
	Properties  map[string]string `json:"properties"`
}

// CommitViewRequest is POST .../views/{view}: requirements (the spec has
// assert-view-uuid only) and view updates.
type CommitViewRequest struct {
	Identifier   *TableIdentifier  `json:"identifier,omitempty"`
	Requirements []ViewRequirement `json:"requirements"`
	Updates      []ViewUpdate      `json:"updates"`
}

type ViewRequirement struct {
	Type string `json:"type"`
	UUID string `json:"uuid,omitempty"`
}

// ViewUpdate is one view update; Action says which fields it carries.
type ViewUpdate struct {
	Action        string            `json:"action"`
	UUID          string            `json:"uuid,omitempty"`
	FormatVersion int               `json:"format-version,omitempty"`
	Schema        json.RawMessage   `json:"schema,omitempty"`
	ViewVersion   json.RawMessage   `json:"view-version,omitempty"`
	ViewVersionID *int              `json:"view-version-id,omitempty"`
	Updates       map[string]string `json:"updates,omitempty"`
	Removals      []string          `json:"removals,omitempty"`
	Location      string            `json:"location,omitempty"`
}

// CommitTableRequest is one table's requirements and updates; Identifier
// is required inside a CommitTransactionRequest.
type CommitTableRequest struct {
	Identifier   *TableIdentifier      `json:"identifier,omitempty"`
	Requirements []iceberg.Requirement `json:"-"`
	Updates      []iceberg.Update      `json:"-"`
}

type commitTableJSON struct {
	Identifier   *TableIdentifier  `json:"identifier,omitempty"`
	Requirements []json.RawMessage `json:"requirements"`
	Updates      []json.RawMessage `json:"updates"`
}

// MarshalJSON writes requirements and updates in their REST forms.
func (c CommitTableRequest) MarshalJSON() ([]byte, error) {
	j := commitTableJSON{Identifier: c.Identifier, Requirements: []json.RawMessage{}, Updates: []json.RawMessage{}}
	for _, r := range c.Requirements {
		b, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		j.Requirements = append(j.Requirements, b)
	}
	for _, u := range c.Updates {
		b, err := json.Marshal(u)
		if err != nil {
			return nil, err
		}
		j.Updates = append(j.Updates, b)
	}
	return json.Marshal(j)
}

// UnmarshalJSON parses requirements and updates; an unknown one fails
// with iceberg.ErrUnknownUpdate.
func (c *CommitTableRequest) UnmarshalJSON(data []byte) error {
	var j commitTableJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("%w: commit request: %v", iceberg.ErrInvalidMetadata, err)
	}
	out := CommitTableRequest{Identifier: j.Identifier}
	for _, raw := range j.Requirements {
		r, err := iceberg.ParseRequirement(raw)
		if err != nil {
			return err
		}
		out.Requirements = append(out.Requirements, r)
	}
	for _, raw := range j.Updates {
		u, err := iceberg.ParseUpdate(raw)
		if err != nil {
			return err
		}
		out.Updates = append(out.Updates, u)
	}
	*c = out
	return nil
}

type CommitTransactionRequest struct {
	TableChanges []CommitTableRequest `json:"table-changes"`
}

// OAuthTokenResponse is the token endpoint's answer (RFC 6749 5.1).
type OAuthTokenResponse struct {
	AccessToken     string `json:"access_token"`
	TokenType       string `json:"token_type"`
	ExpiresIn       int    `json:"expires_in,omitempty"`
	IssuedTokenType string `json:"issued_token_type,omitempty"`
	Scope           string `json:"scope,omitempty"`
}

// Endpoint names as the config's "endpoints" lists them.
const (
	EndpointListNamespaces    = "GET /v1/{prefix}/namespaces"
	EndpointCreateNamespace   = "POST /v1/{prefix}/namespaces"
	EndpointLoadNamespace     = "GET /v1/{prefix}/namespaces/{namespace}"
	EndpointNamespaceExists   = "HEAD /v1/{prefix}/namespaces/{namespace}"
	EndpointDropNamespace     = "DELETE /v1/{prefix}/namespaces/{namespace}"
	EndpointUpdateNamespace   = "POST /v1/{prefix}/namespaces/{namespace}/properties"
	EndpointListTables        = "GET /v1/{prefix}/namespaces/{namespace}/tables"
	EndpointCreateTable       = "POST /v1/{prefix}/namespaces/{namespace}/tables"
	EndpointLoadTable         = "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}"
	EndpointTableExists       = "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}"
	EndpointUpdateTable       = "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}"
	EndpointDropTable         = "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}"
	EndpointRegisterTable     = "POST /v1/{prefix}/namespaces/{namespace}/register"
	EndpointReportMetrics     = "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics"
	EndpointRenameTable       = "POST /v1/{prefix}/tables/rename"
	EndpointCommitTransaction = "POST /v1/{prefix}/transactions/commit"
	EndpointListViews         = "GET /v1/{prefix}/namespaces/{namespace}/views"
	EndpointCreateView        = "POST /v1/{prefix}/namespaces/{namespace}/views"
	EndpointLoadView          = "GET /v1/{prefix}/namespaces/{namespace}/views/{view}"
	EndpointViewExists        = "HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}"
	EndpointReplaceView       = "POST /v1/{prefix}/namespaces/{namespace}/views/{view}"
	EndpointDropView          = "DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}"
	EndpointRenameView        = "POST /v1/{prefix}/views/rename"
	EndpointRegisterView      = "POST /v1/{prefix}/namespaces/{namespace}/register-view"
)
