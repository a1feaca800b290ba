package interop

import (
	"context"
	"database/sql"
	"net/url"
	"strings"
	"testing"

	gotable "github.com/apache/iceberg-go/table"

	"github.com/icesql/icesql/server/rest"
)

// TestRESTViewsIcebergGoReads: icesql creates and replaces views through
// POST .../views and POST .../views/{view} (the server writes the view
// metadata), and iceberg-go's REST client lists and loads them: the
// current version's SQL and dialect, the schema, the properties.
func TestRESTViewsIcebergGoReads(t *testing.T) {
	ctx := context.Background()
	srv := startRESTServer(t, rest.Options{})
	db, err := sql.Open("iceberg", srv.warehouse+"?catalog_uri="+url.QueryEscape(srv.url))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE t (id BIGINT, name STRING)",
		"INSERT INTO t VALUES (1, 'a'), (2, 'b')",
		"CREATE VIEW v AS SELECT id FROM t",
		"CREATE OR REPLACE VIEW v AS SELECT id, name FROM t WHERE id > 1",
		"ALTER VIEW v SET TBLPROPERTIES ('owner'='icesql')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	cat := goRESTCatalog(t, srv.url)
	var names []string
	for id, err := range cat.ListViews(ctx, gotable.Identifier{"default"}) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, strings.Join(id, "."))
	}
	if len(names) != 1 || names[0] != "default.v" {
		t.Fatalf("iceberg-go lists views %v", names)
	}
	v, err := cat.LoadView(ctx, gotable.Identifier{"default", "v"})
	if err != nil {
		t.Fatal(err)
	}
	cur := v.CurrentVersion()
	if cur == nil || cur.VersionID != 2 || len(cur.Representations) != 1 ||
		cur.Representations[0].Sql != "SELECT id, name FROM t WHERE id > 1" || cur.Representations[0].Dialect != "spark" {
		t.Fatalf("current version %+v", cur)
	}
	if f := v.CurrentSchema().Fields(); len(f) != 2 || f[0].Name != "id" || f[1].Name != "name" {
		t.Fatalf("schema %v", v.CurrentSchema())
	}
	if v.Properties()["owner"] != "icesql" || len(v.Versions()) != 2 {
		t.Fatalf("properties %v, %d versions", v.Properties(), len(v.Versions()))
	}
	if !strings.Contains(v.MetadataLocation(), "/default.db/v/metadata/00002-") {
		t.Errorf("metadata location %s, want the server's third file", v.MetadataLocation())
	}
}
