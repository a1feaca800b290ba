package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	var req struct {
		Name        string            `json:"name"`
		Location    string            `json:"location"`
		Schema      json.RawMessage   `json:"schema"`
		ViewVersion json.RawMessage   `json:"view-version"`
		Properties  map[string]string `json:"properties"`
	}
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
	if _, err := s.cat.DropView(r.Context(), id); err != nil {
		return err
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

type viewChange struct {
	Action        string            `json:"action"`
	UUID          string            `json:"uuid"`
	Schema        json.RawMessage   `json:"schema"`
	ViewVersion   json.RawMessage   `json:"view-version"`
	ViewVersionID *int              `json:"view-version-id"`
	Updates       map[string]string `json:"updates"`
	Removals      []string          `json:"removals"`
	Location      string            `json:"location"`
	FormatVersion int               `json:"format-version"`
}

func (s *Server) replaceView(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "view")
	if err != nil {
		return err
	}
	var req struct {
		Requirements []struct {
			Type string `json:"type"`
			UUID string `json:"uuid"`
		} `json:"requirements"`
		Updates []viewChange `json:"updates"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	rec, err := s.cat.LoadView(ctx, id)
	if err != nil {
		return err
	}
	base, err := s.readView(ctx, rec.MetadataLocation)
	if err != nil {
		return err
	}
	for _, q := range req.Requirements {
		if q.Type != "assert-view-uuid" {
			return badRequest("unknown view requirement %q", q.Type)
		}
		if q.UUID != base.UUID {
			return fmt.Errorf("%w: view %s has UUID %s, expected %s", iceberg.ErrCommitFailed, id, base.UUID, q.UUID)
		}
	}
	meta, err := applyViewChanges(base, req.Updates)
	if err != nil {
		return err
	}
	loc, err := s.writeView(ctx, meta, rec.MetadataLocation)
	if err != nil {
		return err
	}
	if err := s.cat.CommitView(ctx, id, rec.MetadataLocation, loc); err != nil {
		if !errors.Is(err, iceberg.ErrCommitStateUnknown) {
			s.env.IO.Remove(context.WithoutCancel(ctx), loc)
		}
		return err
	}
	return s.answerView(w, meta, loc)
}

// applyViewChanges folds the updates into one ReplaceVersion: the last
// added schema and version (or the version set current) become current.
func applyViewChanges(base *iceberg.ViewMetadata, changes []viewChange) (*iceberg.ViewMetadata, error) {
	schema := base.CurrentSchema()
	version, _ := base.CurrentVersion()
	props := map[string]string{}
	for k, v := range base.Properties {
		props[k] = v
	}
	location := base.Location
	touched := false
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
			touched = true
		case "remove-properties":
			for _, k := range c.Removals {
				delete(props, k)
			}
			touched = true
		case "set-location":
			location, touched = strings.TrimSuffix(c.Location, "/"), true
		default:
			return nil, fmt.Errorf("%w: view update %q", iceberg.ErrUnknownUpdate, c.Action)
		}
	}
	if !touched {
		return base, nil
	}
	out, err := base.ReplaceVersion(schema, version, props)
	if err != nil {
		return nil, err
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
