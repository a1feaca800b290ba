package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/internal/restapi"
)

// testServer is a REST catalog over a fresh SQLite catalog and local
// warehouse, listening on 127.0.0.1.
type testServer struct {
	t         *testing.T
	url       string
	token     string
	warehouse string // file:// URI
	srv       *Server
}

func newTestServer(t *testing.T, opts Options) *testServer {
	t.Helper()
	dir := t.TempDir()
	cat, err := sqlite.Open(context.Background(), filepath.Join(dir, "catalog.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	wh, err := fileio.LocalURI(filepath.Join(dir, "warehouse"))
	if err != nil {
		t.Fatal(err)
	}
	opts.Warehouse = wh
	s := New(cat, &fileio.Local{}, opts)
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	return &testServer{t: t, url: hs.URL, token: opts.Token, warehouse: wh, srv: s}
}

// do sends a request with a JSON body (nil for none) and returns the
// status and body.
func (ts *testServer) do(method, path string, body any) (int, []byte) {
	ts.t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		default:
			data, err := json.Marshal(b)
			if err != nil {
				ts.t.Fatal(err)
			}
			rd = bytes.NewReader(data)
		}
	}
	req, err := http.NewRequest(method, ts.url+path, rd)
	if err != nil {
		ts.t.Fatal(err)
	}
	if ts.token != "" {
		req.Header.Set("Authorization", "Bearer "+ts.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatal(err)
	}
	return resp.StatusCode, data
}

// must expects status want and decodes the body into out (when non-nil).
func (ts *testServer) must(want int, method, path string, body, out any) {
	ts.t.Helper()
	code, data := ts.do(method, path, body)
	if code != want {
		ts.t.Fatalf("%s %s: status %d, want %d: %s", method, path, code, want, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			ts.t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
}

// fails expects an error response with status code and exception type.
func (ts *testServer) fails(code int, typ, method, path string, body any) restapi.ErrorModel {
	ts.t.Helper()
	got, data := ts.do(method, path, body)
	var er restapi.ErrorResponse
	if err := json.Unmarshal(data, &er); err != nil && method != http.MethodHead {
		ts.t.Fatalf("%s %s: error body %q: %v", method, path, data, err)
	}
	if got != code || (method != http.MethodHead && (er.Error.Type != typ || er.Error.Code != code || er.Error.Message == "")) {
		ts.t.Fatalf("%s %s: status %d %+v, want %d %s", method, path, got, er.Error, code, typ)
	}
	return er.Error
}

const testSchema = `{"type":"struct","schema-id":0,"fields":[
 {"id":1,"name":"id","required":true,"type":"long"},
 {"id":2,"name":"day","required":false,"type":"date"},
 {"id":3,"name":"name","required":false,"type":"string"}]}`

func (ts *testServer) createTable(ns, name string) restapi.LoadTableResult {
	ts.t.Helper()
	var res restapi.LoadTableResult
	ts.must(http.StatusOK, "POST", "/v1/namespaces/"+ns+"/tables",
		`{"name":"`+name+`","schema":`+testSchema+`,"partition-spec":{"fields":[{"source-id":2,"field-id":1000,"name":"day_month","transform":"month"}]}}`, &res)
	return res
}
