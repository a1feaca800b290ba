package rest

import (
	"errors"
	"net/http"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// An error about names reads as a local catalog's does, with the REST
// status after it; other errors keep the request for debugging.
func TestServerErrorMessage(t *testing.T) {
	u := "http://user:pw@127.0.0.1:1/v1/namespaces/db/tables/t?x=secret"
	tests := []struct {
		status int
		body   string
		want   string
		is     error
	}{
		{404, `{"error":{"message":"Table does not exist: db.t","type":"NoSuchTableException","code":404}}`,
			"Table does not exist: db.t (REST catalog: 404 NoSuchTableException)", iceberg.ErrNoSuchTable},
		{500, `{"error":{"message":"boom","type":"RuntimeException","code":500}}`,
			"rest catalog: GET http://127.0.0.1:1/v1/namespaces/db/tables/t: 500 RuntimeException: boom", ErrServer},
		{401, `{"error":{"message":"bad token","type":"NotAuthorizedException","code":401}}`,
			"rest catalog: GET http://127.0.0.1:1/v1/namespaces/db/tables/t: 401 NotAuthorizedException: bad token", ErrNotAuthorized},
		{404, `not json`, "rest catalog: GET http://127.0.0.1:1/v1/namespaces/db/tables/t: 404 : Not Found", iceberg.ErrNoSuchTable},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			err := responseError(http.MethodGet, u, tt.status, []byte(tt.body), iceberg.ErrNoSuchTable)
			if err.Error() != tt.want || !errors.Is(err, tt.is) {
				t.Fatalf("got %q (is %v: %v), want %q", err, tt.is, errors.Is(err, tt.is), tt.want)
			}
		})
	}
}
