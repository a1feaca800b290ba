package rest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"net/http"
	"strconv"
	"strings"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/internal/restapi"
)

// Views: create, load, list, exists, drop, rename, and replace through a
// commit of view updates (add-schema, add-view-version,
// set-current-view-version, set-properties, remove-properties,
// set-location) with the assert-view-uuid requirement.

func (s *Server) listViews(w http.ResponseWriter, r *http.Request) error {
	return s.listIdents(w, r, s.cat.ListViews)
}

func (s *Server) readView(ctx context.Context, location string) (*iceberg.ViewMetadata, error) {
	f, err := s.env.IO.Open(ctx, location)
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

// writeView writes the view metadata file that follows previous, named
// as the engine names its own: <location>/metadata/<NNNNN>-<uuid>.metadata.json.
func (s *Server) writeView(ctx context.Context, meta *iceberg.ViewMetadata, previous string) (string, error) {
	data, err := iceberg.EncodeViewMetadata(meta)
	if err != nil {
		return "", err
	}
	version := 0
	if previous != "" {
		name := previous[strings.LastIndexByte(previous, '/')+1:]
		if n, err := strconv.Atoi(strings.SplitN(name, "-", 2)[0]); err == nil && n >= 0 {
			version = n + 1
		}
	}
	loc := fmt.Sprintf("%s/metadata/%05d-%s.metadata.json", fileio.NewFileBase(strings.TrimRight(meta.Location, "/")), version, iceberg.NewUUIDString())
	out, err := s.env.IO.Create(ctx, loc)
	if err != nil {
		return "", err
	}
	if _, err := out.Write(data); err != nil {
		return "", errors.Join(err, out.Abort())
	}
	return loc, out.Close()
}

func (s *Server) answerView(w http.ResponseWriter, meta *iceberg.ViewMetadata, loc string) error {
	data, err := iceberg.EncodeViewMetadata(meta)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, restapi.LoadViewResult{MetadataLocation: loc, Metadata: data, Config: s.opts.TableConfig})
}

func (s *Server) createView(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespaceParam(r)
	if err != nil {
		return err
	}
	var req restapi.CreateViewRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if req.Name == "" || len(req.Schema) == 0 || len(req.ViewVersion) == 0 {
		return badRequest("create view: name, schema and view-version are required")
	}
	schema, err := iceberg.ParseSchemaJSON(req.Schema)
	if err != nil {
		return err
	}
	version, err := iceberg.ParseViewVersionJSON(req.ViewVersion)
	if err != nil {
		return err
	}
	id := catalog.Identifier{Namespace: ns, Name: req.Name}
	loc := strings.TrimSuffix(req.Location, "/")
	if loc == "" {
		if loc, err = s.defaultLocation(id); err != nil {
			return err
		}
	}
	meta, err := iceberg.NewViewMetadata(loc, schema, version, req.Properties)
	if err != nil {
		return err
	}
	ctx := r.Context()
	mloc, err := s.writeView(ctx, meta, "")
	if err != nil {
		return err
	}
	if err := s.cat.CreateView(ctx, id, mloc); err != nil {
		if !refused(err) {
			return unknownOutcome(err)
		}
		s.env.IO.Remove(context.WithoutCancel(ctx), mloc)
		return err
	}
	return s.answerView(w, meta, mloc)
}

func (s *Server) loadView(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "view")
	if err != nil {
		return err
	}
	rec, err := s.cat.LoadView(r.Context(), id)
	if err != nil {
		return err
	}
	meta, err := s.readView(r.Context(), rec.MetadataLocation)
	if err != nil {
		return err
	}
	return s.answerView(w, meta, rec.MetadataLocation)
}

func (s *Server) viewExists(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "view")
	if err != nil {
		return err
	}
	ok, err := s.cat.ViewExists(r.Context(), id)
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

func (s *Server) dropView(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "view")
	if err != nil {
		return err
	}
	rec, err := s.cat.DropView(r.Context(), id)
	if err != nil {
		return err
	}
	// The dropped view's current metadata file goes, as Java's catalogs
	// drop it (and as the engine does on its own catalogs).
	if rec.MetadataLocation != "" {
		if err := s.env.IO.Remove(context.WithoutCancel(r.Context()), rec.MetadataLocation); err != nil && !errors.Is(err, fs.ErrNotExist) {
			slog.Warn("rest catalog: dropped view's metadata file not removed", "view", id.String(), "err", err)
		}
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) renameView(w http.ResponseWriter, r *http.Request) error {
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
	if err := s.cat.RenameView(r.Context(), from, to); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) replaceView(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "view")
	if err != nil {
		return err
	}
	var req restapi.CommitViewRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	// A swap lost to another writer is tried again on the view it
	// installed while the requirements still hold, as table commits are.
	for attempt := 0; ; attempt++ {
		meta, loc, err := s.replaceViewOnce(ctx, id, req)
		if errors.Is(err, errSwapLost) && attempt < viewSwapRetries {
			continue
		}
		if err != nil {
			return err
		}
		return s.answerView(w, meta, loc)
	}
}

// viewSwapRetries bounds the retries of a view commit whose pointer swap
// lost to a concurrent one.
const viewSwapRetries = 4

var errSwapLost = errors.New("view pointer moved")

func (s *Server) replaceViewOnce(ctx context.Context, id catalog.Identifier, req restapi.CommitViewRequest) (*iceberg.ViewMetadata, string, error) {
	rec, err := s.cat.LoadView(ctx, id)
	if err != nil {
		return nil, "", err
	}
	base, err := s.readView(ctx, rec.MetadataLocation)
	if err != nil {
		return nil, "", err
	}
	for _, q := range req.Requirements {
		if q.Type != "assert-view-uuid" {
			return nil, "", badRequest("unknown view requirement %q", q.Type)
		}
		if q.UUID != base.UUID {
			return nil, "", fmt.Errorf("%w: view %s has UUID %s, expected %s", iceberg.ErrCommitFailed, id, base.UUID, q.UUID)
		}
	}
	meta, err := applyViewChanges(base, req.Updates)
	if err != nil {
		return nil, "", err
	}
	if meta == base {
		return base, rec.MetadataLocation, nil // nothing changed: no new file
	}
	loc, err := s.writeView(ctx, meta, rec.MetadataLocation)
	if err != nil {
		return nil, "", err
	}
	if err := s.cat.CommitView(ctx, id, rec.MetadataLocation, loc); err != nil {
		if !refused(err) {
			return nil, "", unknownOutcome(err)
		}
		s.env.IO.Remove(context.WithoutCancel(ctx), loc)
		if errors.Is(err, iceberg.ErrCommitFailed) {
			return nil, "", fmt.Errorf("%w: %w", errSwapLost, err)
		}
		return nil, "", err
	}
	return meta, loc, nil
}

// applyViewChanges folds the updates into one ReplaceVersion: the last
// added schema and version (or the version set current) become current.
// Changes of properties or location alone keep the current version and
// its log as they are.
func applyViewChanges(base *iceberg.ViewMetadata, changes []restapi.ViewUpdate) (*iceberg.ViewMetadata, error) {
	schema := base.CurrentSchema()
	version, _ := base.CurrentVersion()
	props := map[string]string{}
	for k, v := range base.Properties {
		props[k] = v
	}
	location := base.Location
	touched, other := false, false
	for _, c := range changes {
		switch c.Action {
		case "assign-uuid":
			if c.UUID != base.UUID {
				return nil, fmt.Errorf("%w: cannot reassign view UUID", iceberg.ErrInvalidViewMetadata)
			}
		case "upgrade-format-version":
			if c.FormatVersion != base.FormatVersion {
				return nil, fmt.Errorf("%w: view format version %d", iceberg.ErrUnsupported, c.FormatVersion)
			}
		case "add-schema":
			sc, err := iceberg.ParseSchemaJSON(c.Schema)
			if err != nil {
				return nil, err
			}
			schema = sc
		case "add-view-version":
			v, err := iceberg.ParseViewVersionJSON(c.ViewVersion)
			if err != nil {
				return nil, err
			}
			version, touched = v, true
		case "set-current-view-version":
			if c.ViewVersionID == nil {
				return nil, badRequest("set-current-view-version without view-version-id")
			}
			if *c.ViewVersionID != iceberg.LastAdded {
				v, ok := base.VersionByID(*c.ViewVersionID)
				if !ok {
					return nil, fmt.Errorf("%w: no view version %d", iceberg.ErrInvalidViewMetadata, *c.ViewVersionID)
				}
				version, touched = v, true
				if sc, ok := base.SchemaByID(v.SchemaID); ok {
					schema = sc
				}
			}
		case "set-properties":
			for k, v := range c.Updates {
				props[k] = v
			}
			other = true
		case "remove-properties":
			for _, k := range c.Removals {
				delete(props, k)
			}
			other = true
		case "set-location":
			if strings.TrimSpace(c.Location) == "" {
				return nil, badRequest("set-location without location")
			}
			location, other = strings.TrimSuffix(c.Location, "/"), true
		default:
			return nil, fmt.Errorf("%w: view update %q", iceberg.ErrUnknownUpdate, c.Action)
		}
	}
	if !touched && !other {
		return base, nil
	}
	out := base
	if touched {
		var err error
		if out, err = base.ReplaceVersion(schema, version, props); err != nil {
			return nil, err
		}
	} else if !maps.Equal(props, base.Properties) {
		cp := *base
		cp.Properties = props
		out = &cp
	}
	if location != out.Location {
		cp := *out
		cp.Location = location
		out = &cp
	}
	return out, nil
}

func (s *Server) registerView(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespaceParam(r)
	if err != nil {
		return err
	}
	var req restapi.RegisterTableRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if req.Name == "" || req.MetadataLocation == "" {
		return badRequest("register view: name and metadata-location are required")
	}
	meta, err := s.readView(r.Context(), req.MetadataLocation)
	if err != nil {
		return err
	}
	if err := s.cat.CreateView(r.Context(), catalog.Identifier{Namespace: ns, Name: req.Name}, req.MetadataLocation); err != nil {
		return err
	}
	return s.answerView(w, meta, req.MetadataLocation)
}
