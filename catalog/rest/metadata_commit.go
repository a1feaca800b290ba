package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strconv"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/internal/restapi"
)

// The engine commits to a REST catalog the way the protocol intends: it
// sends requirements and updates and the server writes metadata.json
// (table.MetadataCommitter), so no metadata file of the engine's is left
// unreferenced, and new tables are created, not registered.
var _ table.MetadataCommitter = (*Catalog)(nil)

// CreateFromMetadata creates a table through POST .../tables from the
// schema, spec, sort order, properties and location of its first version.
func (c *Catalog) CreateFromMetadata(ctx context.Context, id catalog.Identifier, meta *iceberg.TableMetadata) (table.Committed, error) {
	if err := c.writable(); err != nil {
		return table.Committed{}, err
	}
	if err := iceberg.CheckIdentifier(id.Namespace, id.Name); err != nil {
		return table.Committed{}, err
	}
	req, err := createRequest(id, meta)
	if err != nil {
		return table.Committed{}, err
	}
	var r restapi.LoadTableResult
	u := c.route("/namespaces/%s/tables", nsPart(id.Namespace))
	err = c.call(ctx, http.MethodPost, u, nil, req, &r, iceberg.ErrNoSuchNamespace)
	if err = alreadyExists(err, iceberg.ErrTableAlreadyExists); err != nil {
		return table.Committed{}, err
	}
	if r.MetadataLocation == nil || *r.MetadataLocation == "" {
		return table.Committed{}, &ServerError{Method: "POST", URL: u, Status: 200, Message: "create-table response without metadata-location", Kind: ErrBadResponse}
	}
	m, err := c.responseMetadata("POST", u, r.Metadata)
	if err != nil {
		return table.Committed{}, err
	}
	c.tableConfigured(id, m.Location(), r.Config)
	return table.Committed{Location: *r.MetadataLocation, Metadata: m}, nil
}

func createRequest(id catalog.Identifier, meta *iceberg.TableMetadata) (restapi.CreateTableRequest, error) {
	schema, err := json.Marshal(meta.CurrentSchema())
	if err != nil {
		return restapi.CreateTableRequest{}, err
	}
	spec, err := json.Marshal(meta.CurrentSpec())
	if err != nil {
		return restapi.CreateTableRequest{}, err
	}
	order, err := json.Marshal(meta.SortOrder())
	if err != nil {
		return restapi.CreateTableRequest{}, err
	}
	props := maps.Clone(meta.Properties())
	if props == nil {
		props = map[string]string{}
	}
	// The format version is a field of the metadata, asked for by property.
	props[iceberg.PropFormatVersion] = strconv.Itoa(meta.FormatVersion())
	return restapi.CreateTableRequest{Name: id.Name, Location: meta.Location(), Schema: schema,
		PartitionSpec: spec, WriteOrder: order, Properties: props}, nil
}

// CommitChanges sends one table's change to POST .../tables/{table} and
// several tables' through POST /v1/transactions/commit (refused before
// sending when the server does not list it).
func (c *Catalog) CommitChanges(ctx context.Context, changes []table.TableChange) ([]table.Committed, error) {
	if err := c.writable(); err != nil {
		return nil, err
	}
	if len(changes) > 1 && !c.Supports(restapi.EndpointCommitTransaction) {
		return nil, ErrTransactionsUnsupported
	}
	added := map[string][]int64{}
	ids := make([]catalog.Identifier, len(changes))
	reqs := make([]restapi.CommitTableRequest, len(changes))
	for i, ch := range changes {
		ids[i] = ch.Ident
		reqs[i] = restapi.CommitTableRequest{
			Identifier:   &restapi.TableIdentifier{Namespace: ch.Ident.Namespace, Name: ch.Ident.Name},
			Requirements: ch.Requirements, Updates: ch.Updates}
		added[ch.Ident.String()] = addedSnapshots(ch.Updates)
	}
	if len(changes) == 1 {
		var r restapi.CommitTableResponse
		u := c.tableURL(ids[0])
		err := c.call(ctx, http.MethodPost, u, nil, reqs[0], &r, iceberg.ErrNoSuchTable)
		if err == nil {
			m, err := c.responseMetadata("POST", u, r.Metadata)
			if err != nil {
				return nil, fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
			}
			return []table.Committed{{Location: r.MetadataLocation, Metadata: m}}, nil
		}
		if err := c.commitOutcome(ctx, err, added, ids); err != nil {
			return nil, err
		}
		return c.readBack(ctx, ids) // landed, though the reply was lost
	}
	err := c.call(ctx, http.MethodPost, c.route("/transactions/commit"), nil,
		restapi.CommitTransactionRequest{TableChanges: reqs}, nil, iceberg.ErrNoSuchTable)
	if err := c.commitOutcome(ctx, err, added, ids); err != nil {
		return nil, err
	}
	return c.readBack(ctx, ids)
}

// readBack loads the tables after a commit whose reply names no metadata
// (a transaction's 204): the version read holds the commit, and may hold
// later ones too.
func (c *Catalog) readBack(ctx context.Context, ids []catalog.Identifier) ([]table.Committed, error) {
	out := make([]table.Committed, len(ids))
	for i, id := range ids {
		rec, err := c.LoadTable(ctx, id)
		if err == nil {
			var m *iceberg.TableMetadata
			if m, err = c.readMetadata(ctx, rec.MetadataLocation); err == nil {
				out[i] = table.Committed{Location: rec.MetadataLocation, Metadata: m}
				continue
			}
		}
		// The commit happened: only what it wrote is unknown.
		return nil, fmt.Errorf("%w: committed, but reading %s back failed: %w", iceberg.ErrCommitStateUnknown, id, err)
	}
	return out, nil
}

func (c *Catalog) responseMetadata(method, u string, data []byte) (*iceberg.TableMetadata, error) {
	m, err := iceberg.ParseMetadata(data)
	if err != nil {
		return nil, &ServerError{Method: method, URL: u, Status: 200, Message: "response metadata: " + err.Error(), Kind: ErrBadResponse}
	}
	return m, nil
}
