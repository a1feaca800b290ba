package rest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/restapi"
)

var (
	// ErrInvalidURI: catalog_uri is not http(s)://host[:port][/path].
	ErrInvalidURI = fmt.Errorf("%w: REST catalog URI", catalog.ErrUnsupportedURI)
	// ErrNotAuthorized: the server refused the credentials (401, 403).
	ErrNotAuthorized = errors.New("rest catalog: not authorized")
	// ErrBadResponse: the server's answer is not what the spec describes.
	ErrBadResponse = errors.New("rest catalog: malformed server response")
	// ErrTransactionsUnsupported: a multi-table commit on a server that
	// does not list POST /v1/{prefix}/transactions/commit.
	ErrTransactionsUnsupported = fmt.Errorf("%w: the REST catalog does not offer multi-table transactions (no %s endpoint)",
		iceberg.ErrUnsupported, restapi.EndpointCommitTransaction)
	// ErrServer: a 5xx outside a commit.
	ErrServer = errors.New("rest catalog: server error")
)

// ServerError is an error response: its status, the spec's ErrorModel
// type and message, and the sentinel it matches.
type ServerError struct {
	Method, URL string
	Status      int
	Type        string
	Message     string
	Kind        error // iceberg.ErrNoSuchTable, ErrNotAuthorized, ...
}

// Error is the server's message first when it answers about the names
// in the statement (no such table, already exists, a lost commit), as a
// local catalog's error reads, with the REST status after it; other
// errors (authorization, server faults, bad requests) keep the request.
func (e *ServerError) Error() string {
	if e.Status < 500 && e.Message != "" && e.Type != "" && isNameKind(e.Kind) {
		return fmt.Sprintf("%s (REST catalog: %d %s)", e.Message, e.Status, e.Type)
	}
	return fmt.Sprintf("rest catalog: %s %s: %d %s: %s", e.Method, e.URL, e.Status, e.Type, e.Message)
}

func isNameKind(k error) bool {
	for _, n := range []error{iceberg.ErrNoSuchTable, iceberg.ErrNoSuchNamespace, iceberg.ErrNoSuchView,
		iceberg.ErrNamespaceNotEmpty, iceberg.ErrTableAlreadyExists, iceberg.ErrViewAlreadyExists,
		iceberg.ErrNamespaceExists, iceberg.ErrCommitFailed} {
		if k == n {
			return true
		}
	}
	return false
}
func (e *ServerError) Unwrap() error { return e.Kind }

// SendError is a transport failure: the request may or may not have
// reached the server.
type SendError struct {
	Method string
	Err    error
}

func (e *SendError) Error() string { return "rest catalog: " + e.Method + ": " + e.Err.Error() }
func (e *SendError) Unwrap() error { return e.Err }

func responseError(method, u string, status int, body []byte, notFound error) error {
	e := &ServerError{Method: method, URL: redact(u), Status: status}
	var er restapi.ErrorResponse
	if json.Unmarshal(body, &er) == nil && er.Error.Type != "" {
		e.Type, e.Message = er.Error.Type, er.Error.Message
	} else {
		e.Message = http.StatusText(status)
	}
	switch {
	case e.Type == "NoSuchTableException":
		e.Kind = iceberg.ErrNoSuchTable
	case e.Type == "NoSuchNamespaceException":
		e.Kind = iceberg.ErrNoSuchNamespace
	case e.Type == "NoSuchViewException":
		e.Kind = iceberg.ErrNoSuchView
	case e.Type == "NamespaceNotEmptyException":
		e.Kind = iceberg.ErrNamespaceNotEmpty
	case e.Type == "CommitFailedException":
		e.Kind = iceberg.ErrCommitFailed
	case e.Type == "CommitStateUnknownException":
		e.Kind = iceberg.ErrCommitStateUnknown
	case status == http.StatusNotFound && notFound != nil:
		e.Kind = notFound
	case status == http.StatusNotFound:
		e.Kind = iceberg.ErrNotFound
	case status == http.StatusConflict:
		e.Kind = iceberg.ErrCommitFailed // refined by callers (already exists)
	case status == http.StatusUnauthorized, status == http.StatusForbidden, status == 419:
		e.Kind = ErrNotAuthorized
	case status == http.StatusNotAcceptable, status == http.StatusNotImplemented:
		e.Kind = iceberg.ErrUnsupported
	case status >= 500:
		e.Kind = ErrServer
	default:
		e.Kind = catalog.ErrInvalidArgument
	}
	return e
}

// exists turns a 409 AlreadyExistsException into the given sentinel.
func alreadyExists(err error, kind error) error {
	var se *ServerError
	if errors.As(err, &se) && se.Status == http.StatusConflict && se.Type != "CommitFailedException" && se.Type != "NamespaceNotEmptyException" {
		se.Kind = kind
	}
	return err
}

// redact drops credentials from a URL for error messages.
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	p.User = nil
	p.RawQuery = ""
	return p.String()
}
