package rest

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/internal/restapi"
)

const testViewSchema = `{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":false,"type":"long"}]}`

func testViewVersion(sql string) string {
	return `{"version-id":1,"schema-id":0,"timestamp-ms":1700000000000,"summary":{"engine-name":"test"},` +
		`"representations":[{"type":"sql","sql":"` + sql + `","dialect":"spark"}],"default-namespace":["ns"]}`
}

func (ts *testServer) loadView(path string) (restapi.LoadViewResult, *iceberg.ViewMetadata) {
	ts.t.Helper()
	var r restapi.LoadViewResult
	ts.must(http.StatusOK, "GET", path, nil, &r)
	m, err := iceberg.ParseViewMetadata(r.Metadata)
	if err != nil {
		ts.t.Fatal(err)
	}
	return r, m
}

// TestViewEndpoints: create (POST .../views), load, replace (POST
// .../views/{view} with assert-view-uuid and view updates), drop, with the
// spec's error model: 404 NoSuchViewException / NoSuchNamespaceException,
// 409 AlreadyExistsException / CommitFailedException, 400 for unknown
// updates. The server writes every view metadata file.
func TestViewEndpoints(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["ns"]}`, nil)
	create := `{"name":"v","schema":` + testViewSchema + `,"view-version":` + testViewVersion("SELECT 1 AS id") + `,"properties":{"a":"1"}}`
	var created restapi.LoadViewResult
	ts.must(http.StatusOK, "POST", "/v1/namespaces/ns/views", create, &created)
	if !strings.Contains(created.MetadataLocation, "/warehouse/ns.db/v/metadata/00000-") {
		t.Fatalf("metadata location %s, want the first file under <warehouse>/ns.db/v/metadata", created.MetadataLocation)
	}
	_, base := ts.loadView("/v1/namespaces/ns/views/v")

	replace := func(uuid string, updates ...string) string {
		return `{"identifier":{"namespace":["ns"],"name":"v"},"requirements":[{"type":"assert-view-uuid","uuid":"` + uuid +
			`"}],"updates":[` + strings.Join(updates, ",") + `]}`
	}
	newVersion := []string{`{"action":"add-schema","schema":` + testViewSchema + `}`,
		`{"action":"add-view-version","view-version":` + strings.Replace(testViewVersion("SELECT 2 AS id"), `"schema-id":0`, `"schema-id":-1`, 1) + `}`,
		`{"action":"set-current-view-version","view-version-id":-1}`}

	errorCases := []struct {
		name, method, path, body string
		code                     int
		typ                      string
	}{
		{"create existing", "POST", "/v1/namespaces/ns/views", create, 409, "AlreadyExistsException"},
		{"create in missing namespace", "POST", "/v1/namespaces/nope/views", create, 404, "NoSuchNamespaceException"},
		{"create without schema", "POST", "/v1/namespaces/ns/views", `{"name":"w","view-version":` + testViewVersion("SELECT 1") + `}`, 400, "BadRequestException"},
		{"load missing", "GET", "/v1/namespaces/ns/views/nope", "", 404, "NoSuchViewException"},
		{"replace missing", "POST", "/v1/namespaces/ns/views/nope", replace(base.UUID), 404, "NoSuchViewException"},
		{"replace with another uuid", "POST", "/v1/namespaces/ns/views/v", replace("00000000-0000-0000-0000-000000000000", newVersion...), 409, "CommitFailedException"},
		{"unknown update", "POST", "/v1/namespaces/ns/views/v", replace(base.UUID, `{"action":"frobnicate"}`), 400, "BadRequestException"},
		{"unknown requirement", "POST", "/v1/namespaces/ns/views/v", `{"requirements":[{"type":"assert-table-uuid","uuid":"x"}],"updates":[]}`, 400, "BadRequestException"},
		{"drop missing", "DELETE", "/v1/namespaces/ns/views/nope", "", 404, "NoSuchViewException"},
	}
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			var body any
			if c.body != "" {
				body = c.body
			}
			ts.t = t
			ts.fails(c.code, c.typ, c.method, c.path, body)
		})
	}
	ts.t = t

	// Properties alone: the current version and its log stay.
	var r restapi.LoadViewResult
	ts.must(http.StatusOK, "POST", "/v1/namespaces/ns/views/v",
		replace(base.UUID, `{"action":"set-properties","updates":{"b":"2"}}`, `{"action":"remove-properties","removals":["a"]}`), &r)
	m, err := iceberg.ParseViewMetadata(r.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	if m.Properties["b"] != "2" || m.Properties["a"] != "" || m.CurrentVersionID != 1 || len(m.VersionLog) != 1 {
		t.Errorf("after set-properties: properties %v, version %d, log %v", m.Properties, m.CurrentVersionID, m.VersionLog)
	}
	// A new version becomes current; the schema equal to the first is reused.
	ts.must(http.StatusOK, "POST", "/v1/namespaces/ns/views/v", replace(base.UUID, newVersion...), &r)
	if m, err = iceberg.ParseViewMetadata(r.Metadata); err != nil {
		t.Fatal(err)
	}
	cur, _ := m.CurrentVersion()
	if m.CurrentVersionID != 2 || len(m.Schemas) != 1 || cur.Representations[0].SQL != "SELECT 2 AS id" || m.Properties["b"] != "2" {
		t.Errorf("after a new version: current %d, %d schemas, %+v, properties %v", m.CurrentVersionID, len(m.Schemas), cur, m.Properties)
	}
	if !strings.Contains(r.MetadataLocation, "/metadata/00002-") {
		t.Errorf("third metadata file is %s", r.MetadataLocation)
	}
	// An empty commit writes nothing.
	var same restapi.LoadViewResult
	ts.must(http.StatusOK, "POST", "/v1/namespaces/ns/views/v", replace(base.UUID), &same)
	if same.MetadataLocation != r.MetadataLocation {
		t.Errorf("an empty commit moved the view to %s", same.MetadataLocation)
	}

	// DROP removes the current metadata file.
	ts.must(http.StatusNoContent, "DELETE", "/v1/namespaces/ns/views/v", nil, nil)
	path, err := fileio.LocalPath(r.MetadataLocation)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("dropped view's metadata file %s: %v", path, err)
	}
	ts.fails(404, "NoSuchViewException", "GET", "/v1/namespaces/ns/views/v", nil)
	var list restapi.ListTablesResponse
	ts.must(http.StatusOK, "GET", "/v1/namespaces/ns/views", nil, &list)
	if b, _ := json.Marshal(list); len(list.Identifiers) != 0 {
		t.Errorf("views after drop: %s", b)
	}
}
