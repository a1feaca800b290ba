package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/internal/restapi"
)

func identParam(r *http.Request, name string) (catalog.Identifier, error) {
	ns, err := namespaceParam(r)
	if err != nil {
		return catalog.Identifier{}, err
	}
	n := r.PathValue(name)
	if n == "" {
		return catalog.Identifier{}, badRequest("empty %s name", name)
	}
	return catalog.Identifier{Namespace: ns, Name: n}, nil
}

func toIdent(id restapi.TableIdentifier) (catalog.Identifier, error) {
	if len(id.Namespace) == 0 || id.Name == "" {
		return catalog.Identifier{}, badRequest("identifier needs a namespace and a name")
	}
	return catalog.Identifier{Namespace: id.Namespace, Name: id.Name}, nil
}

// defaultLocation is <warehouse>/<ns>.db/<name>, the layout of the
// engine's own tables.
func (s *Server) defaultLocation(id catalog.Identifier) (string, error) {
	if s.opts.Warehouse == "" {
		return "", badRequest("the server has no warehouse: the request must name a location")
	}
	return strings.TrimSuffix(s.opts.Warehouse, "/") + "/" + strings.Join(id.Namespace, ".") + ".db/" + id.Name, nil
}

func (s *Server) listTables(w http.ResponseWriter, r *http.Request) error {
	return s.listIdents(w, r, s.cat.ListTables)
}

func (s *Server) listIdents(w http.ResponseWriter, r *http.Request,
	list func(context.Context, []string) ([]catalog.Identifier, error)) error {
	ns, err := namespaceParam(r)
	if err != nil {
		return err
	}
	ok, err := s.cat.NamespaceExists(r.Context(), ns)
	if err != nil {
		return err
	}
	if !ok {
		return errorf(http.StatusNotFound, "NoSuchNamespaceException", "namespace %s does not exist", strings.Join(ns, "."))
	}
	ids, err := list(r.Context(), ns)
	if err != nil {
		return err
	}
	items, next, err := page(r, ids, func(id catalog.Identifier) string { return id.Name })
	if err != nil {
		return err
	}
	resp := restapi.ListTablesResponse{Identifiers: []restapi.TableIdentifier{}, NextPageToken: next}
	for _, id := range items {
		resp.Identifiers = append(resp.Identifiers, restapi.TableIdentifier{Namespace: id.Namespace, Name: id.Name})
	}
	return writeJSON(w, http.StatusOK, resp)
}

// parseSpec and parseOrder read the optional parts of a create request;
// their ids are read-only in the REST schema and may be absent.
func parseSpec(raw json.RawMessage) (*iceberg.PartitionSpec, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	u, err := iceberg.ParseUpdate(append(append([]byte(`{"action":"add-spec","spec":`), raw...), '}'))
	if err != nil {
		return nil, err
	}
	return u.(iceberg.AddPartitionSpecUpdate).Spec, nil
}

func parseOrder(raw json.RawMessage) (*iceberg.SortOrder, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	u, err := iceberg.ParseUpdate(append(append([]byte(`{"action":"add-sort-order","sort-order":`), raw...), '}'))
	if err != nil {
		return nil, err
	}
	o := u.(iceberg.AddSortOrderUpdate).SortOrder
	if len(o.Fields) == 0 {
		return iceberg.UnsortedOrder, nil
	}
	return o, nil
}

func (s *Server) createTable(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespaceParam(r)
	if err != nil {
		return err
	}
	var req restapi.CreateTableRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if req.Name == "" {
		return badRequest("create table: empty name")
	}
	id := catalog.Identifier{Namespace: ns, Name: req.Name}
	if len(req.Schema) == 0 {
		return badRequest("create table: missing schema")
	}
	schema, err := iceberg.ParseSchemaJSON(req.Schema)
	if err != nil {
		return err
	}
	spec, err := parseSpec(req.PartitionSpec)
	if err != nil {
		return err
	}
	order, err := parseOrder(req.WriteOrder)
	if err != nil {
		return err
	}
	if spec == nil {
		spec = iceberg.UnpartitionedSpec
	}
	if order == nil {
		order = iceberg.UnsortedOrder
	}
	ctx := r.Context()
	if ok, err := s.cat.NamespaceExists(ctx, ns); err != nil {
		return err
	} else if !ok {
		return errorf(http.StatusNotFound, "NoSuchNamespaceException", "namespace %s does not exist", strings.Join(ns, "."))
	}
	if ok, err := s.cat.TableExists(ctx, id); err != nil {
		return err
	} else if ok {
		return errorf(http.StatusConflict, "AlreadyExistsException", "table %s already exists", id)
	}
	loc := strings.TrimSuffix(req.Location, "/")
	if loc == "" {
		if loc, err = s.defaultLocation(id); err != nil {
			return err
		}
	}
	meta, err := iceberg.NewTableMetadata(schema, spec, order, loc, req.Properties)
	if err != nil {
		return err
	}
	if req.StageCreate {
		return s.writeTable(w, meta, "", r)
	}
	mloc, err := table.WriteMetadata(ctx, s.env, meta, "")
	if err != nil {
		return err
	}
	if err := s.cat.CreateTable(ctx, id, mloc); err != nil {
		if !refused(err) {
			return unknownOutcome(err)
		}
		s.env.IO.Remove(context.WithoutCancel(ctx), mloc)
		return err
	}
	return s.writeTable(w, meta, mloc, r)
}

// writeTable answers with a LoadTableResult; location "" is a staged
// table (no metadata-location).
func (s *Server) writeTable(w http.ResponseWriter, meta *iceberg.TableMetadata, location string, r *http.Request) error {
	refs := r.URL.Query().Get("snapshots") == "refs"
	var data []byte
	var err error
	switch {
	case location != "" && refs:
		data, err = s.cache.put(location, meta).refsEncoded()
	case location != "":
		data, err = s.cache.put(location, meta).encoded()
	default:
		if data, err = iceberg.EncodeMetadata(meta, false); err == nil && refs {
			data, err = onlyRefSnapshots(meta, data)
		}
	}
	if err != nil {
		return err
	}
	res := restapi.LoadTableResult{Metadata: data, Config: s.opts.TableConfig}
	if location != "" {
		res.MetadataLocation = &location
	}
	return writeJSON(w, http.StatusOK, res)
}

// onlyRefSnapshots keeps the snapshots that branches and tags point to
// (snapshots=refs), as Java's suppressHistoricalSnapshots does.
func onlyRefSnapshots(meta *iceberg.TableMetadata, data []byte) ([]byte, error) {
	keep := map[int64]bool{}
	for _, ref := range meta.Refs() {
		keep[ref.SnapshotID] = true
	}
	if len(keep) == len(meta.Snapshots()) {
		return data, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, err
	}
	var snaps []json.RawMessage
	if err := json.Unmarshal(obj["snapshots"], &snaps); err != nil {
		return nil, err
	}
	kept := []json.RawMessage{}
	for i, sn := range meta.Snapshots() {
		if keep[sn.SnapshotID] && i < len(snaps) {
			kept = append(kept, snaps[i])
		}
	}
	b, err := json.Marshal(kept)
	if err != nil {
		return nil, err
	}
	obj["snapshots"] = b
	return json.Marshal(obj)
}

func (s *Server) loadTable(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "table")
	if err != nil {
		return err
	}
	if m := r.URL.Query().Get("snapshots"); m != "" && m != "all" && m != "refs" {
		return badRequest("snapshots=%q: want all or refs", m)
	}
	rec, err := s.cat.LoadTable(r.Context(), id)
	if err != nil {
		return err
	}
	e, err := s.readMetadata(r.Context(), rec.MetadataLocation)
	if err != nil {
		return err
	}
	return s.writeTable(w, e.meta, rec.MetadataLocation, r)
}

func (s *Server) tableExists(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "table")
	if err != nil {
		return err
	}
	ok, err := s.cat.TableExists(r.Context(), id)
	if err != nil {
		return err
	}
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return nil
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) dropTable(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "table")
	if err != nil {
		return err
	}
	purge := r.URL.Query().Get("purgeRequested") == "true"
	ctx := r.Context()
	rec, err := s.cat.DropTable(ctx, id)
	if err != nil {
		return err
	}
	if purge {
		// The table is gone from the catalog; a file that cannot be read or
		// removed now is an orphan, not a failed drop.
		if e, err := s.readMetadata(ctx, rec.MetadataLocation); err == nil {
			if err := table.PurgeFiles(context.WithoutCancel(ctx), s.env.IO, e.meta, rec.MetadataLocation); err != nil {
				logWarn("purge of dropped table left files", id, err)
			}
		}
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) renameTable(w http.ResponseWriter, r *http.Request) error {
	var req restapi.RenameTableRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	from, err := toIdent(req.Source)
	if err != nil {
		return err
	}
	to, err := toIdent(req.Destination)
	if err != nil {
		return err
	}
	if err := s.cat.RenameTable(r.Context(), from, to); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) registerTable(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespaceParam(r)
	if err != nil {
		return err
	}
	var req restapi.RegisterTableRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if req.Name == "" || req.MetadataLocation == "" {
		return badRequest("register table: name and metadata-location are required")
	}
	id := catalog.Identifier{Namespace: ns, Name: req.Name}
	ctx := r.Context()
	e, err := s.readMetadata(ctx, req.MetadataLocation)
	if err != nil {
		return err
	}
	err = s.cat.RegisterTable(ctx, id, req.MetadataLocation)
	if errors.Is(err, iceberg.ErrTableAlreadyExists) && req.Overwrite {
		var rec catalog.Record
		if rec, err = s.cat.LoadTable(ctx, id); err == nil {
			err = s.cat.CommitTable(ctx, id, rec.MetadataLocation, req.MetadataLocation)
		}
	}
	if err != nil {
		return err
	}
	return s.writeTable(w, e.meta, req.MetadataLocation, r)
}

// reportMetrics accepts scan and commit reports (they are only checked
// for shape and logged at debug level).
func (s *Server) reportMetrics(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "table")
	if err != nil {
		return err
	}
	var report struct {
		ReportType string `json:"report-type"`
	}
	if err := readJSON(r, &report); err != nil {
		return err
	}
	if report.ReportType == "" {
		return badRequest("metrics report without report-type")
	}
	logDebug("metrics report", id, report.ReportType)
	w.WriteHeader(http.StatusNoContent)
	return nil
}
