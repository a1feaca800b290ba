package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/restapi"
)

func (c *Catalog) writable() error {
	if c.readOnly {
		return catalog.ErrReadOnly
	}
	return nil
}

func (c *Catalog) CreateNamespace(ctx context.Context, ns []string, props map[string]string) error {
	if err := c.writable(); err != nil {
		return err
	}
	if err := iceberg.CheckNamespace(ns); err != nil {
		return err
	}
	err := c.call(ctx, http.MethodPost, c.route("/namespaces"), nil,
		restapi.CreateNamespaceRequest{Namespace: ns, Properties: props}, nil, nil)
	var se *ServerError
	if errors.As(err, &se) && se.Status == http.StatusBadRequest && se.Type == "IllegalArgumentException" {
		// The error model has one type for a name the server cannot
		// store and for other bad arguments.
		se.Kind = errNamespaceRefused
	}
	return alreadyExists(err, iceberg.ErrNamespaceExists)
}

// errNamespaceRefused matches both catalog.ErrInvalidIdentifier and
// catalog.ErrInvalidArgument.
var errNamespaceRefused = fmt.Errorf("%w: %w", catalog.ErrInvalidIdentifier, catalog.ErrInvalidArgument)

func (c *Catalog) NamespaceExists(ctx context.Context, ns []string) (bool, error) {
	if !c.Supports(restapi.EndpointNamespaceExists) {
		_, err := c.LoadNamespaceProperties(ctx, ns)
		if err == nil {
			return true, nil
		}
		if errorIs(err, iceberg.ErrNoSuchNamespace) {
			return false, nil
		}
		return false, err
	}
	return c.exists(ctx, c.route("/namespaces/%s", nsPart(ns)))
}

func (c *Catalog) ListNamespaces(ctx context.Context, parent []string) ([][]string, error) {
	q := url.Values{}
	if len(parent) > 0 {
		q.Set("parent", nsPart(parent))
	}
	out, err := listAll(ctx, c, c.route("/namespaces"), q, iceberg.ErrNoSuchNamespace, func(b []byte) ([][]string, *string, error) {
		var r restapi.ListNamespacesResponse
		err := json.Unmarshal(b, &r)
		return r.Namespaces, r.NextPageToken, err
	})
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(strings.Join(a, "\x00"), strings.Join(b, "\x00")) })
	return out, err
}

func (c *Catalog) LoadNamespaceProperties(ctx context.Context, ns []string) (map[string]string, error) {
	var r restapi.NamespaceResponse
	if err := c.call(ctx, http.MethodGet, c.route("/namespaces/%s", nsPart(ns)), nil, nil, &r, iceberg.ErrNoSuchNamespace); err != nil {
		return nil, err
	}
	if r.Properties == nil {
		r.Properties = map[string]string{}
	}
	return r.Properties, nil
}

func (c *Catalog) UpdateNamespaceProperties(ctx context.Context, ns []string, removals []string, updates map[string]string) error {
	if err := c.writable(); err != nil {
		return err
	}
	return c.call(ctx, http.MethodPost, c.route("/namespaces/%s/properties", nsPart(ns)), nil,
		restapi.UpdateNamespacePropertiesRequest{Removals: removals, Updates: updates}, nil, iceberg.ErrNoSuchNamespace)
}

func (c *Catalog) DropNamespace(ctx context.Context, ns []string) error {
	if err := c.writable(); err != nil {
		return err
	}
	err := c.call(ctx, http.MethodDelete, c.route("/namespaces/%s", nsPart(ns)), nil, nil, nil, iceberg.ErrNoSuchNamespace)
	return alreadyExists(err, iceberg.ErrNamespaceNotEmpty)
}
