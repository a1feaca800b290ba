package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/internal/restapi"
)

func (c *Catalog) viewURL(id catalog.Identifier) string {
	return c.route("/namespaces/%s/views/%s", nsPart(id.Namespace), id.Name)
}

// SupportsViews reports whether the server lists the view routes.
func (c *Catalog) SupportsViews() bool { return c.Supports(restapi.EndpointLoadView) }

func (c *Catalog) requireViews() error {
	if !c.SupportsViews() {
		return catalog.ErrViewsUnsupported
	}
	return nil
}

// CreateView registers the view at the metadata file the engine wrote.
func (c *Catalog) CreateView(ctx context.Context, id catalog.Identifier, metadataLocation string) error {
	if err := c.writable(); err != nil {
		return err
	}
	if err := c.requireViews(); err != nil {
		return err
	}
	err := c.call(ctx, http.MethodPost, c.route("/namespaces/%s/register-view", nsPart(id.Namespace)), nil,
		restapi.RegisterTableRequest{Name: id.Name, MetadataLocation: metadataLocation}, nil, iceberg.ErrNoSuchNamespace)
	return alreadyExists(err, iceberg.ErrViewAlreadyExists)
}

func (c *Catalog) LoadView(ctx context.Context, id catalog.Identifier) (catalog.Record, error) {
	if err := c.requireViews(); err != nil {
		return catalog.Record{}, err
	}
	var r restapi.LoadViewResult
	if err := c.call(ctx, http.MethodGet, c.viewURL(id), nil, nil, &r, iceberg.ErrNoSuchView); err != nil {
		return catalog.Record{}, err
	}
	return catalog.Record{MetadataLocation: r.MetadataLocation}, nil
}

func (c *Catalog) ViewExists(ctx context.Context, id catalog.Identifier) (bool, error) {
	if !c.SupportsViews() {
		return false, nil
	}
	return c.exists(ctx, c.viewURL(id))
}

func (c *Catalog) ListViews(ctx context.Context, ns []string) ([]catalog.Identifier, error) {
	if !c.SupportsViews() {
		return nil, nil
	}
	return c.listIdents(ctx, c.route("/namespaces/%s/views", nsPart(ns)))
}

// CommitView replaces the view's current version with next's, asserting
// the view's UUID; the server writes the metadata file.
func (c *Catalog) CommitView(ctx context.Context, id catalog.Identifier, expected, next string) error {
	if err := c.writable(); err != nil {
		return err
	}
	if err := c.requireViews(); err != nil {
		return err
	}
	base, err := c.readView(ctx, expected)
	if err != nil {
		return err
	}
	nm, err := c.readView(ctx, next)
	if err != nil {
		return err
	}
	version, ok := nm.CurrentVersion()
	if !ok {
		return iceberg.ErrInvalidViewMetadata
	}
	schema, err := json.Marshal(nm.CurrentSchema())
	if err != nil {
		return err
	}
	version.SchemaID = iceberg.LastAdded
	vjson, err := iceberg.EncodeViewVersionJSON(version)
	if err != nil {
		return err
	}
	var removals []string
	for k := range base.Properties {
		if _, ok := nm.Properties[k]; !ok {
			removals = append(removals, k)
		}
	}
	updates := []map[string]any{
		{"action": "add-schema", "schema": json.RawMessage(schema)},
		{"action": "add-view-version", "view-version": json.RawMessage(vjson)},
		{"action": "set-current-view-version", "view-version-id": iceberg.LastAdded},
	}
	if len(nm.Properties) > 0 {
		updates = append(updates, map[string]any{"action": "set-properties", "updates": nm.Properties})
	}
	if len(removals) > 0 {
		updates = append(updates, map[string]any{"action": "remove-properties", "removals": removals})
	}
	body := map[string]any{
		"identifier":   restapi.TableIdentifier{Namespace: id.Namespace, Name: id.Name},
		"requirements": []map[string]string{{"type": "assert-view-uuid", "uuid": base.UUID}},
		"updates":      updates,
	}
	err = c.call(ctx, http.MethodPost, c.viewURL(id), nil, body, nil, iceberg.ErrNoSuchView)
	var se *ServerError
	if errors.As(err, &se) && se.Status == http.StatusConflict {
		se.Kind = iceberg.ErrCommitFailed
	}
	return err
}

func (c *Catalog) readView(ctx context.Context, location string) (*iceberg.ViewMetadata, error) {
	f, err := c.io.Open(ctx, location)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := fileio.ReadAll(f, iceberg.MaxMetadataFileBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", iceberg.ErrInvalidViewMetadata, err)
	}
	return iceberg.ParseViewMetadata(data)
}

func (c *Catalog) RenameView(ctx context.Context, from, to catalog.Identifier) error {
	if err := c.writable(); err != nil {
		return err
	}
	if err := c.requireViews(); err != nil {
		return err
	}
	err := c.call(ctx, http.MethodPost, c.route("/views/rename"), nil, restapi.RenameTableRequest{
		Source:      restapi.TableIdentifier{Namespace: from.Namespace, Name: from.Name},
		Destination: restapi.TableIdentifier{Namespace: to.Namespace, Name: to.Name}}, nil, iceberg.ErrNoSuchView)
	return alreadyExists(err, iceberg.ErrViewAlreadyExists)
}

func (c *Catalog) DropView(ctx context.Context, id catalog.Identifier) (catalog.Record, error) {
	if err := c.writable(); err != nil {
		return catalog.Record{}, err
	}
	rec, err := c.LoadView(ctx, id)
	if err != nil {
		return catalog.Record{}, err
	}
	if err := c.call(ctx, http.MethodDelete, c.viewURL(id), nil, nil, nil, iceberg.ErrNoSuchView); err != nil {
		return catalog.Record{}, err
	}
	return rec, nil
}

var _ catalog.Catalog = (*Catalog)(nil)
