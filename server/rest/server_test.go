package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/restapi"
)

func TestConfig(t *testing.T) {
	ts := newTestServer(t, Options{Prefix: "lake"})
	var cfg restapi.CatalogConfig
	ts.must(http.StatusOK, "GET", "/v1/config", nil, &cfg)
	if cfg.Overrides["prefix"] != "lake" || cfg.Defaults["warehouse"] != ts.warehouse {
		t.Fatalf("config %+v", cfg)
	}
	for _, e := range []string{restapi.EndpointCommitTransaction, restapi.EndpointUpdateTable, restapi.EndpointLoadView} {
		if !slices.Contains(cfg.Endpoints, e) {
			t.Errorf("endpoints lack %q", e)
		}
	}
	ts.must(http.StatusOK, "GET", "/v1/lake/namespaces", nil, nil)
	ts.fails(http.StatusNotFound, "NoSuchEndpointException", "GET", "/v1/namespaces", nil)
}

func TestBearerToken(t *testing.T) {
	ts := newTestServer(t, Options{Token: "s3cret"})
	ts.must(http.StatusOK, "GET", "/v1/config", nil, nil)
	ts.token = "wrong"
	ts.fails(http.StatusUnauthorized, "NotAuthorizedException", "GET", "/v1/config", nil)
	ts.token = ""
	ts.fails(http.StatusUnauthorized, "NotAuthorizedException", "GET", "/v1/namespaces", nil)

	// OAuth2 client credentials: the secret is the token.
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {"me"}, "client_secret": {"s3cret"}, "scope": {"catalog"}}
	resp, err := http.PostForm(ts.url+"/v1/oauth/tokens", form)
	if err != nil {
		t.Fatal(err)
	}
	var tok restapi.OAuthTokenResponse
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || tok.AccessToken != "s3cret" || tok.TokenType != "bearer" {
		t.Fatalf("token: %d %+v", resp.StatusCode, tok)
	}
	form.Set("client_secret", "nope")
	resp, err = http.PostForm(ts.url+"/v1/oauth/tokens", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong secret: %d", resp.StatusCode)
	}
}

func TestNamespaces(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["acct"],"properties":{"owner":"ann"}}`, nil)
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["acct","tax"]}`, nil)
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["ops"]}`, nil)
	ts.fails(http.StatusConflict, "AlreadyExistsException", "POST", "/v1/namespaces", `{"namespace":["ops"]}`)
	ts.fails(http.StatusBadRequest, "BadRequestException", "POST", "/v1/namespaces", `{"namespace":`)

	var list restapi.ListNamespacesResponse
	ts.must(http.StatusOK, "GET", "/v1/namespaces", nil, &list)
	if fmt.Sprint(list.Namespaces) != "[[acct] [ops]]" {
		t.Fatalf("top level: %v", list.Namespaces)
	}
	ts.must(http.StatusOK, "GET", "/v1/namespaces?parent=acct", nil, &list)
	if fmt.Sprint(list.Namespaces) != "[[acct tax]]" {
		t.Fatalf("children: %v", list.Namespaces)
	}
	ts.fails(http.StatusNotFound, "NoSuchNamespaceException", "GET", "/v1/namespaces?parent=nope", nil)

	var ns restapi.NamespaceResponse
	ts.must(http.StatusOK, "GET", "/v1/namespaces/acct", nil, &ns)
	if ns.Properties["owner"] != "ann" {
		t.Fatalf("properties: %v", ns.Properties)
	}
	ts.must(http.StatusOK, "GET", "/v1/namespaces/acct%1Ftax", nil, &ns)
	if fmt.Sprint(ns.Namespace) != "[acct tax]" {
		t.Fatalf("nested: %v", ns.Namespace)
	}
	ts.must(http.StatusNoContent, "HEAD", "/v1/namespaces/acct%1Ftax", nil, nil)
	ts.fails(http.StatusNotFound, "", "HEAD", "/v1/namespaces/none", nil)

	var upd restapi.UpdateNamespacePropertiesResponse
	ts.must(http.StatusOK, "POST", "/v1/namespaces/acct/properties", `{"removals":["owner","gone"],"updates":{"team":"x"}}`, &upd)
	if fmt.Sprint(upd.Updated, upd.Removed, upd.Missing) != "[team] [owner] [gone]" {
		t.Fatalf("update response %+v", upd)
	}
	ts.fails(http.StatusUnprocessableEntity, "UnprocessableEntityException", "POST", "/v1/namespaces/acct/properties",
		`{"removals":["a"],"updates":{"a":"1"}}`)

	ts.fails(http.StatusConflict, "NamespaceNotEmptyException", "DELETE", "/v1/namespaces/acct", nil)
	ts.must(http.StatusNoContent, "DELETE", "/v1/namespaces/acct%1Ftax", nil, nil)
	ts.must(http.StatusNoContent, "DELETE", "/v1/namespaces/acct", nil, nil)
	ts.fails(http.StatusNotFound, "NoSuchNamespaceException", "GET", "/v1/namespaces/acct", nil)
}

func TestTablesListAndPages(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["db"]}`, nil)
	for _, n := range []string{"e", "a", "c", "b", "d"} {
		ts.createTable("db", n)
	}
	var all restapi.ListTablesResponse
	ts.must(http.StatusOK, "GET", "/v1/namespaces/db/tables", nil, &all)
	if len(all.Identifiers) != 5 || all.NextPageToken != nil {
		t.Fatalf("unpaged: %+v", all)
	}
	var names []string
	token := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
		var p restapi.ListTablesResponse
		ts.must(http.StatusOK, "GET", "/v1/namespaces/db/tables?pageSize=2&pageToken="+url.QueryEscape(token), nil, &p)
		for _, id := range p.Identifiers {
			names = append(names, id.Name)
		}
		if p.NextPageToken == nil {
			break
		}
		token = *p.NextPageToken
	}
	if strings.Join(names, "") != "abcde" {
		t.Fatalf("pages gave %v", names)
	}
	ts.fails(http.StatusBadRequest, "BadRequestException", "GET", "/v1/namespaces/db/tables?pageSize=0&pageToken=", nil)
	ts.fails(http.StatusNotFound, "NoSuchNamespaceException", "GET", "/v1/namespaces/nope/tables", nil)
}

func TestTableLifecycle(t *testing.T) {
	ts := newTestServer(t, Options{TableConfig: map[string]string{"s3.endpoint": "http://127.0.0.1:9000"}})
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["db"]}`, nil)
	ts.must(http.StatusOK, "POST", "/v1/namespaces", `{"namespace":["other"]}`, nil)
	created := ts.createTable("db", "t")
	if created.MetadataLocation == nil || !strings.HasPrefix(*created.MetadataLocation, strings.TrimPrefix(ts.warehouse, "file://")+"/db.db/t/metadata/") {
		t.Fatalf("metadata location %v", created.MetadataLocation)
	}
	if created.Config["s3.endpoint"] == "" {
		t.Fatalf("no vended config: %v", created.Config)
	}
	ts.fails(http.StatusConflict, "AlreadyExistsException", "POST", "/v1/namespaces/db/tables", `{"name":"t","schema":`+testSchema+`}`)
	ts.fails(http.StatusNotFound, "NoSuchNamespaceException", "POST", "/v1/namespaces/none/tables", `{"name":"t","schema":`+testSchema+`}`)
	ts.fails(http.StatusBadRequest, "ValidationException", "POST", "/v1/namespaces/db/tables", `{"name":"u","schema":{"type":"struct","fields":[{"id":1,"name":"x","required":true,"type":"nonsense"}]}}`)

	var loaded restapi.LoadTableResult
	ts.must(http.StatusOK, "GET", "/v1/namespaces/db/tables/t", nil, &loaded)
	meta, err := iceberg.ParseMetadata(loaded.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.CurrentSpec().Fields) != 1 || *loaded.MetadataLocation != *created.MetadataLocation {
		t.Fatalf("loaded %s", loaded.Metadata)
	}
	ts.must(http.StatusNoContent, "HEAD", "/v1/namespaces/db/tables/t", nil, nil)
	ts.fails(http.StatusNotFound, "", "HEAD", "/v1/namespaces/db/tables/nope", nil)
	ts.fails(http.StatusNotFound, "NoSuchTableException", "GET", "/v1/namespaces/db/tables/nope", nil)
	ts.fails(http.StatusBadRequest, "BadRequestException", "GET", "/v1/namespaces/db/tables/t?snapshots=some", nil)

	ts.must(http.StatusNoContent, "POST", "/v1/tables/rename",
		`{"source":{"namespace":["db"],"name":"t"},"destination":{"namespace":["other"],"name":"t2"}}`, nil)
	ts.fails(http.StatusNotFound, "NoSuchTableException", "GET", "/v1/namespaces/db/tables/t", nil)
	ts.must(http.StatusOK, "GET", "/v1/namespaces/other/tables/t2", nil, nil)

	// Register the same metadata file under another name, then drop the
	// original with purge: its files go, the catalog row of the copy stays.
	var reg restapi.LoadTableResult
	ts.must(http.StatusOK, "POST", "/v1/namespaces/db/register", map[string]string{"name": "again", "metadata-location": *created.MetadataLocation}, &reg)
	ts.fails(http.StatusConflict, "AlreadyExistsException", "POST", "/v1/namespaces/db/register", map[string]string{"name": "again", "metadata-location": *created.MetadataLocation})
	ts.fails(http.StatusNotFound, "NotFoundException", "POST", "/v1/namespaces/db/register", map[string]string{"name": "x", "metadata-location": ts.warehouse + "/missing.metadata.json"})
	ts.must(http.StatusNoContent, "DELETE", "/v1/namespaces/other/tables/t2?purgeRequested=true", nil, nil)
	path, _ := url.Parse(*created.MetadataLocation)
	if _, err := os.Stat(path.Path); !os.IsNotExist(err) {
		t.Fatalf("purge left %s: %v", path.Path, err)
	}
	ts.fails(http.StatusNotFound, "NoSuchTableException", "DELETE", "/v1/namespaces/other/tables/t2", nil)
	ts.must(http.StatusNoContent, "POST", "/v1/namespaces/db/tables/again/metrics", `{"report-type":"commit-report","table-name":"db.again","snapshot-id":1,"sequence-number":1,"operation":"append","metrics":{}}`, nil)
}
