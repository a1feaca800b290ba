package rest

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/restapi"
)

// HTTPError is an error answered with a given status and ErrorModel type.
type HTTPError struct {
	Code int
	Type string // e.g. NoSuchTableException, as Java's server names them
	Err  error
}

func (e *HTTPError) Error() string { return e.Err.Error() }
func (e *HTTPError) Unwrap() error { return e.Err }

func errorf(code int, typ, format string, args ...any) error {
	return &HTTPError{Code: code, Type: typ, Err: fmt.Errorf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return errorf(http.StatusBadRequest, "BadRequestException", format, args...)
}

// classify maps an error of the catalog, the metadata builder or storage
// to the status and exception type the spec (and Java's server) use.
func classify(err error) (int, string) {
	var he *HTTPError
	if errors.As(err, &he) {
		return he.Code, he.Type
	}
	switch {
	case errors.Is(err, iceberg.ErrNoSuchTable):
		return http.StatusNotFound, "NoSuchTableException"
	case errors.Is(err, iceberg.ErrNoSuchView):
		return http.StatusNotFound, "NoSuchViewException"
	case errors.Is(err, iceberg.ErrNoSuchNamespace):
		return http.StatusNotFound, "NoSuchNamespaceException"
	case errors.Is(err, iceberg.ErrNotFound):
		return http.StatusNotFound, "NotFoundException"
	case errors.Is(err, iceberg.ErrTableAlreadyExists), errors.Is(err, iceberg.ErrNamespaceExists),
		errors.Is(err, iceberg.ErrViewAlreadyExists):
		return http.StatusConflict, "AlreadyExistsException"
	case errors.Is(err, iceberg.ErrNamespaceNotEmpty):
		return http.StatusConflict, "NamespaceNotEmptyException"
	case errors.Is(err, iceberg.ErrCommitStateUnknown):
		return http.StatusInternalServerError, "CommitStateUnknownException"
	case errors.Is(err, iceberg.ErrRequirementFailed), errors.Is(err, iceberg.ErrCommitFailed):
		return http.StatusConflict, "CommitFailedException"
	case errors.Is(err, iceberg.ErrUnknownUpdate):
		return http.StatusBadRequest, "BadRequestException"
	case errors.Is(err, catalog.ErrReadOnly):
		return http.StatusForbidden, "ForbiddenException"
	case errors.Is(err, catalog.ErrViewsUnsupported), errors.Is(err, iceberg.ErrUnsupported):
		return http.StatusNotAcceptable, "UnsupportedOperationException"
	case errors.Is(err, iceberg.ErrInvalidMetadata), errors.Is(err, iceberg.ErrInvalidSchema),
		errors.Is(err, iceberg.ErrInvalidPartitionSpec), errors.Is(err, iceberg.ErrInvalidTransform),
		errors.Is(err, iceberg.ErrInvalidViewMetadata), errors.Is(err, iceberg.ErrNoSuchField),
		errors.Is(err, iceberg.ErrNoSuchSnapshot), errors.Is(err, iceberg.ErrNoSuchRef),
		errors.Is(err, iceberg.ErrTypeMismatch):
		return http.StatusBadRequest, "ValidationException"
	case errors.Is(err, catalog.ErrInvalidIdentifier), errors.Is(err, catalog.ErrInvalidArgument):
		return http.StatusBadRequest, "IllegalArgumentException"
	}
	return http.StatusInternalServerError, "InternalServerError"
}

func writeError(w http.ResponseWriter, err error) {
	code, typ := classify(err)
	if code >= 500 {
		slog.Error("rest catalog: request failed", "type", typ, "err", err)
	}
	writeJSON(w, code, restapi.ErrorResponse{Error: restapi.ErrorModel{Message: err.Error(), Type: typ, Code: code}})
}

func writeJSON(w http.ResponseWriter, code int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b) // a client that went away is not the handler's error
	return nil
}

// readJSON decodes a request body into v; malformed JSON is a 400.
func readJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return errorf(http.StatusRequestEntityTooLarge, "BadRequestException", "request body over %d bytes", mbe.Limit)
		}
		if errors.Is(err, iceberg.ErrUnknownUpdate) || errors.Is(err, iceberg.ErrInvalidMetadata) ||
			errors.Is(err, iceberg.ErrInvalidSchema) || errors.Is(err, iceberg.ErrInvalidPartitionSpec) {
			return &HTTPError{Code: http.StatusBadRequest, Type: "BadRequestException", Err: err}
		}
		return badRequest("malformed request body: %v", err)
	}
	return nil
}
