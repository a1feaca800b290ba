package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

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
	if err := iceberg.CheckIdentifier(id.Namespace, id.Name); err != nil {
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

// CommitView replaces the view's current version with the one of the
// metadata file next, asserting the view's UUID (ReplaceViewMetadata);
// the server writes its own metadata file, next stays unreferenced.
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
	_, _, err = c.ReplaceViewMetadata(ctx, id, base, nm)
	return err
}

// CreateViewFromMetadata creates a view through POST .../views (the
// spec's CreateViewRequest: name, location, schema, view-version,
// properties); the server writes the first metadata file.
func (c *Catalog) CreateViewFromMetadata(ctx context.Context, id catalog.Identifier, meta *iceberg.ViewMetadata) (string, *iceberg.ViewMetadata, error) {
	if err := c.writable(); err != nil {
		return "", nil, err
	}
	if err := c.requireViews(); err != nil {
		return "", nil, err
	}
	if err := iceberg.CheckIdentifier(id.Namespace, id.Name); err != nil {
		return "", nil, err
	}
	version, ok := meta.CurrentVersion()
	if !ok {
		return "", nil, iceberg.ErrInvalidViewMetadata
	}
	schema, err := json.Marshal(meta.CurrentSchema())
	if err != nil {
		return "", nil, err
	}
	vjson, err := iceberg.EncodeViewVersionJSON(version)
	if err != nil {
		return "", nil, err
	}
	props := meta.Properties
	if props == nil {
		props = map[string]string{} // required by the spec
	}
	req := restapi.CreateViewRequest{Name: id.Name, Location: meta.Location, Schema: schema, ViewVersion: vjson, Properties: props}
	u := c.route("/namespaces/%s/views", nsPart(id.Namespace))
	var r restapi.LoadViewResult
	err = c.call(ctx, http.MethodPost, u, nil, req, &r, iceberg.ErrNoSuchNamespace)
	if err = alreadyExists(err, iceberg.ErrViewAlreadyExists); err != nil {
		return "", nil, viewCommitOutcome(err)
	}
	return c.viewResponse(http.MethodPost, u, r)
}

// ReplaceViewMetadata sends next as updates on base through POST
// .../views/{view}: add-schema, add-view-version and
// set-current-view-version when the current version changed,
// set-properties and remove-properties for the properties, set-location,
// all under the assert-view-uuid requirement.
func (c *Catalog) ReplaceViewMetadata(ctx context.Context, id catalog.Identifier, base, next *iceberg.ViewMetadata) (string, *iceberg.ViewMetadata, error) {
	if err := c.writable(); err != nil {
		return "", nil, err
	}
	if err := c.requireViews(); err != nil {
		return "", nil, err
	}
	if next.UUID != base.UUID {
		return "", nil, fmt.Errorf("%w: view metadata %s is not a version of view %s (%s)", catalog.ErrInvalidArgument, next.UUID, id, base.UUID)
	}
	updates, err := viewUpdates(base, next)
	if err != nil {
		return "", nil, err
	}
	body := restapi.CommitViewRequest{
		Identifier:   &restapi.TableIdentifier{Namespace: id.Namespace, Name: id.Name},
		Requirements: []restapi.ViewRequirement{{Type: "assert-view-uuid", UUID: base.UUID}},
		Updates:      updates,
	}
	u := c.viewURL(id)
	var r restapi.LoadViewResult
	if err := c.call(ctx, http.MethodPost, u, nil, body, &r, iceberg.ErrNoSuchView); err != nil {
		return "", nil, viewCommitOutcome(err)
	}
	loc, m, err := c.viewResponse(http.MethodPost, u, r)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
	}
	return loc, m, nil
}

// viewCommitOutcome: a 409 that is not an AlreadyExists is a lost commit;
// a request that may have reached the server, or a 5xx, leaves the
// outcome unknown, as the spec says of a view commit's 500, 502 and 504.
func viewCommitOutcome(err error) error {
	var se *ServerError
	var send *SendError
	switch {
	case errors.As(err, &se) && se.Status == http.StatusConflict && se.Kind != iceberg.ErrViewAlreadyExists:
		se.Kind = iceberg.ErrCommitFailed
	case errors.As(err, &se) && se.Status >= 500:
		return fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
	case errors.As(err, &send):
		return fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
	}
	return err
}

// viewUpdates are the view updates that turn base into next.
func viewUpdates(base, next *iceberg.ViewMetadata) ([]restapi.ViewUpdate, error) {
	var updates []restapi.ViewUpdate
	nv, ok := next.CurrentVersion()
	if !ok {
		return nil, iceberg.ErrInvalidViewMetadata
	}
	bv, _ := base.CurrentVersion()
	same, err := sameVersion(base, bv, next, nv)
	if err != nil {
		return nil, err
	}
	if !same {
		schema, err := json.Marshal(next.CurrentSchema())
		if err != nil {
			return nil, err
		}
		nv.SchemaID = iceberg.LastAdded
		vjson, err := iceberg.EncodeViewVersionJSON(nv)
		if err != nil {
			return nil, err
		}
		last := iceberg.LastAdded
		updates = append(updates,
			restapi.ViewUpdate{Action: "add-schema", Schema: schema},
			restapi.ViewUpdate{Action: "add-view-version", ViewVersion: vjson},
			restapi.ViewUpdate{Action: "set-current-view-version", ViewVersionID: &last})
	}
	set := map[string]string{}
	for k, v := range next.Properties {
		if old, ok := base.Properties[k]; !ok || old != v {
			set[k] = v
		}
	}
	var removals []string
	for k := range base.Properties {
		if _, ok := next.Properties[k]; !ok {
			removals = append(removals, k)
		}
	}
	slices.Sort(removals)
	if len(set) > 0 {
		updates = append(updates, restapi.ViewUpdate{Action: "set-properties", Updates: set})
	}
	if len(removals) > 0 {
		updates = append(updates, restapi.ViewUpdate{Action: "remove-properties", Removals: removals})
	}
	if strings.TrimRight(next.Location, "/") != strings.TrimRight(base.Location, "/") {
		updates = append(updates, restapi.ViewUpdate{Action: "set-location", Location: next.Location})
	}
	return updates, nil
}

// sameVersion reports whether two current versions are the same version
// with the same schema (then a commit changes properties or location only).
func sameVersion(base *iceberg.ViewMetadata, bv iceberg.ViewVersion, next *iceberg.ViewMetadata, nv iceberg.ViewVersion) (bool, error) {
	if bv.VersionID != nv.VersionID {
		return false, nil
	}
	a, err := iceberg.EncodeViewVersionJSON(bv)
	if err != nil {
		return false, err
	}
	b, err := iceberg.EncodeViewVersionJSON(nv)
	if err != nil {
		return false, err
	}
	as, err := json.Marshal(base.CurrentSchema())
	if err != nil {
		return false, err
	}
	bs, err := json.Marshal(next.CurrentSchema())
	if err != nil {
		return false, err
	}
	return string(a) == string(b) && string(as) == string(bs), nil
}

// viewResponse is the location and metadata of a LoadViewResult.
func (c *Catalog) viewResponse(method, u string, r restapi.LoadViewResult) (string, *iceberg.ViewMetadata, error) {
	if r.MetadataLocation == "" {
		return "", nil, &ServerError{Method: method, URL: redact(u), Status: 200, Message: "view response without metadata-location", Kind: ErrBadResponse}
	}
	m, err := iceberg.ParseViewMetadata(r.Metadata)
	if err != nil {
		return "", nil, &ServerError{Method: method, URL: redact(u), Status: 200, Message: "response view metadata: " + err.Error(), Kind: ErrBadResponse}
	}
	return r.MetadataLocation, m, nil
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
	if err := iceberg.CheckIdentifier(to.Namespace, to.Name); err != nil {
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

var (
	_ catalog.Catalog               = (*Catalog)(nil)
	_ catalog.ViewMetadataCommitter = (*Catalog)(nil)
)
