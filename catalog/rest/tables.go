package rest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/restapi"
)

func errorIs(err, target error) bool { return errors.Is(err, target) }

func (c *Catalog) tableURL(id catalog.Identifier) string {
	return c.route("/namespaces/%s/tables/%s", nsPart(id.Namespace), id.Name)
}

// CreateTable registers the table at a metadata file written elsewhere;
// the engine creates tables through CreateFromMetadata.
func (c *Catalog) CreateTable(ctx context.Context, id catalog.Identifier, metadataLocation string) error {
	return c.RegisterTable(ctx, id, metadataLocation)
}

func (c *Catalog) RegisterTable(ctx context.Context, id catalog.Identifier, metadataLocation string) error {
	if err := c.writable(); err != nil {
		return err
	}
	if err := iceberg.CheckIdentifier(id.Namespace, id.Name); err != nil {
		return err
	}
	err := c.call(ctx, http.MethodPost, c.route("/namespaces/%s/register", nsPart(id.Namespace)), nil,
		restapi.RegisterTableRequest{Name: id.Name, MetadataLocation: metadataLocation}, nil, iceberg.ErrNoSuchNamespace)
	return alreadyExists(err, iceberg.ErrTableAlreadyExists)
}

func (c *Catalog) LoadTable(ctx context.Context, id catalog.Identifier) (catalog.Record, error) {
	var r restapi.LoadTableResult
	// The engine reads the metadata file itself: ask for the small form.
	q := url.Values{"snapshots": {"refs"}}
	if err := c.call(ctx, http.MethodGet, c.tableURL(id), q, nil, &r, iceberg.ErrNoSuchTable); err != nil {
		return catalog.Record{}, err
	}
	if r.MetadataLocation == nil || *r.MetadataLocation == "" {
		return catalog.Record{}, &ServerError{Method: "GET", URL: c.tableURL(id), Status: 200, Message: "load-table response without metadata-location", Kind: ErrBadResponse}
	}
	if len(r.Config) > 0 {
		var m struct {
			Location string `json:"location"`
		}
		json.Unmarshal(r.Metadata, &m) // without a location, no FileIO is fed
		c.tableConfigured(id, m.Location, r.Config)
	}
	return catalog.Record{MetadataLocation: *r.MetadataLocation}, nil
}

// tableConfigured keeps a load- or create-table response's config (vended
// storage credentials, FileIO properties) and hands it on with the
// table's location.
func (c *Catalog) tableConfigured(id catalog.Identifier, location string, config map[string]string) {
	if len(config) == 0 {
		return
	}
	c.mu.Lock()
	c.tableConfig[id.String()] = config
	c.mu.Unlock()
	if c.onConfig != nil && location != "" {
		c.onConfig(location, config)
	}
}

// LoadTables loads each table in turn: the REST protocol has no
// consistent read of several pointers.
func (c *Catalog) LoadTables(ctx context.Context, ids []catalog.Identifier) ([]catalog.Record, error) {
	out := make([]catalog.Record, len(ids))
	for i, id := range ids {
		r, err := c.LoadTable(ctx, id)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// AllTables walks every namespace and loads every table.
func (c *Catalog) AllTables(ctx context.Context) (map[string]catalog.Record, error) {
	out := map[string]catalog.Record{}
	var walk func(parent []string) error
	walk = func(parent []string) error {
		children, err := c.ListNamespaces(ctx, parent)
		if err != nil {
			return err
		}
		for _, ns := range children {
			ids, err := c.ListTables(ctx, ns)
			if err != nil {
				return err
			}
			for _, id := range ids {
				r, err := c.LoadTable(ctx, id)
				if errors.Is(err, iceberg.ErrNoSuchTable) {
					continue // dropped meanwhile
				}
				if err != nil {
					return err
				}
				out[id.String()] = r
			}
			if err := walk(ns); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(nil)
}

func (c *Catalog) TableExists(ctx context.Context, id catalog.Identifier) (bool, error) {
	if !c.Supports(restapi.EndpointTableExists) {
		_, err := c.LoadTable(ctx, id)
		if errors.Is(err, iceberg.ErrNoSuchTable) {
			return false, nil
		}
		return err == nil, err
	}
	return c.exists(ctx, c.tableURL(id))
}

func (c *Catalog) ListTables(ctx context.Context, ns []string) ([]catalog.Identifier, error) {
	return c.listIdents(ctx, c.route("/namespaces/%s/tables", nsPart(ns)))
}

func (c *Catalog) listIdents(ctx context.Context, u string) ([]catalog.Identifier, error) {
	return listAll(ctx, c, u, nil, iceberg.ErrNoSuchNamespace, func(b []byte) ([]catalog.Identifier, *string, error) {
		var r restapi.ListTablesResponse
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, nil, err
		}
		out := make([]catalog.Identifier, len(r.Identifiers))
		for i, id := range r.Identifiers {
			out[i] = catalog.Identifier{Namespace: id.Namespace, Name: id.Name}
		}
		return out, r.NextPageToken, nil
	})
}

func (c *Catalog) RenameTable(ctx context.Context, from, to catalog.Identifier) error {
	if err := c.writable(); err != nil {
		return err
	}
	if err := iceberg.CheckIdentifier(to.Namespace, to.Name); err != nil {
		return err
	}
	err := c.call(ctx, http.MethodPost, c.route("/tables/rename"), nil, restapi.RenameTableRequest{
		Source:      restapi.TableIdentifier{Namespace: from.Namespace, Name: from.Name},
		Destination: restapi.TableIdentifier{Namespace: to.Namespace, Name: to.Name}}, nil, iceberg.ErrNoSuchTable)
	return alreadyExists(err, iceberg.ErrTableAlreadyExists)
}

// DropTable removes the catalog entry (no purge: the engine removes files
// itself when asked to).
func (c *Catalog) DropTable(ctx context.Context, id catalog.Identifier) (catalog.Record, error) {
	if err := c.writable(); err != nil {
		return catalog.Record{}, err
	}
	rec, err := c.LoadTable(ctx, id)
	if err != nil {
		return catalog.Record{}, err
	}
	if err := c.call(ctx, http.MethodDelete, c.tableURL(id), nil, nil, nil, iceberg.ErrNoSuchTable); err != nil {
		return catalog.Record{}, err
	}
	return rec, nil
}
