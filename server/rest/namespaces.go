package rest

import (
	"net/http"
	"slices"
	"sort"
	"strconv"

	"github.com/icesql/icesql/internal/restapi"
)

// namespaceParam decodes the {namespace} path segment (levels joined by
// the unit separator; ServeMux has already unescaped "%1F").
func namespaceParam(r *http.Request) ([]string, error) {
	ns := restapi.DecodeNamespace(r.PathValue("namespace"))
	if len(ns) == 0 {
		return nil, badRequest("empty namespace")
	}
	for _, l := range ns {
		if l == "" {
			return nil, badRequest("namespace %q has an empty level", r.PathValue("namespace"))
		}
	}
	return ns, nil
}

// page cuts a sorted listing at the opaque pageToken (the key of the last
// item already returned) to at most pageSize items. Without a pageToken
// parameter everything is returned, as the spec requires.
func page[T any](r *http.Request, items []T, key func(T) string) ([]T, *string, error) {
	q := r.URL.Query()
	if !q.Has("pageToken") {
		return items, nil, nil
	}
	size := len(items)
	if v := q.Get("pageSize"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, nil, badRequest("pageSize %q: want a positive integer", v)
		}
		size = n
	}
	after := q.Get("pageToken")
	start := sort.Search(len(items), func(i int) bool { return key(items[i]) > after })
	end := min(start+size, len(items))
	out := items[start:end]
	if end < len(items) && len(out) > 0 {
		next := key(out[len(out)-1])
		return out, &next, nil
	}
	return out, nil, nil
}

func (s *Server) listNamespaces(w http.ResponseWriter, r *http.Request) error {
	parent := restapi.DecodeNamespace(r.URL.Query().Get("parent"))
	if len(parent) > 0 {
		ok, err := s.cat.NamespaceExists(r.Context(), parent)
		if err != nil {
			return err
		}
		if !ok {
			return errorf(http.StatusNotFound, "NoSuchNamespaceException", "namespace %v does not exist", parent)
		}
	}
	all, err := s.cat.ListNamespaces(r.Context(), parent)
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b []string) int { return compareStrings(restapi.EncodeNamespace(a), restapi.EncodeNamespace(b)) })
	items, next, err := page(r, all, restapi.EncodeNamespace)
	if err != nil {
		return err
	}
	if items == nil {
		items = [][]string{}
	}
	return writeJSON(w, http.StatusOK, restapi.ListNamespacesResponse{Namespaces: items, NextPageToken: next})
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (s *Server) createNamespace(w http.ResponseWriter, r *http.Request) error {
	var req restapi.CreateNamespaceRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if len(req.Namespace) == 0 {
		return badRequest("create namespace: empty namespace")
	}
	if err := s.cat.CreateNamespace(r.Context(), req.Namespace, req.Properties); err != nil {
		return err
	}
	props, err := s.cat.LoadNamespaceProperties(r.Context(), req.Namespace)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, restapi.NamespaceResponse{Namespace: req.Namespace, Properties: nonNil(props)})
}

func (s *Server) loadNamespace(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespaceParam(r)
	if err != nil {
		return err
	}
	props, err := s.cat.LoadNamespaceProperties(r.Context(), ns)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, restapi.NamespaceResponse{Namespace: ns, Properties: nonNil(props)})
}

func (s *Server) namespaceExists(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespaceParam(r)
	if err != nil {
		return err
	}
	ok, err := s.cat.NamespaceExists(r.Context(), ns)
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

func (s *Server) dropNamespace(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespaceParam(r)
	if err != nil {
		return err
	}
	if err := s.cat.DropNamespace(r.Context(), ns); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) updateNamespaceProperties(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespaceParam(r)
	if err != nil {
		return err
	}
	var req restapi.UpdateNamespacePropertiesRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	for _, k := range req.Removals {
		if _, ok := req.Updates[k]; ok {
			return errorf(http.StatusUnprocessableEntity, "UnprocessableEntityException", "property %q is both removed and updated", k)
		}
	}
	before, err := s.cat.LoadNamespaceProperties(r.Context(), ns)
	if err != nil {
		return err
	}
	if err := s.cat.UpdateNamespaceProperties(r.Context(), ns, req.Removals, req.Updates); err != nil {
		return err
	}
	resp := restapi.UpdateNamespacePropertiesResponse{Updated: []string{}, Removed: []string{}}
	for k := range req.Updates {
		resp.Updated = append(resp.Updated, k)
	}
	for _, k := range req.Removals {
		if _, ok := before[k]; ok {
			resp.Removed = append(resp.Removed, k)
		} else {
			resp.Missing = append(resp.Missing, k)
		}
	}
	slices.Sort(resp.Updated)
	return writeJSON(w, http.StatusOK, resp)
}

func nonNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
