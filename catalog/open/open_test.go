package open

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/catalog"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		uri  string
		kind Kind
		path string
		err  error
	}{
		{"/data/catalog.db", KindSQLite, "/data/catalog.db", nil},
		{"rel/catalog.db", KindSQLite, "rel/catalog.db", nil},
		{"file:/data/c.db", KindSQLite, "/data/c.db", nil},
		{"file:///data/c.db", KindSQLite, "/data/c.db", nil},
		{"sqlite:/data/c.db", KindSQLite, "/data/c.db", nil},
		{`C:\lake\c.db`, KindSQLite, `C:\lake\c.db`, nil},
		{"file://elsewhere/c.db", 0, "", catalog.ErrUnsupportedURI},
		{"sqlite:", 0, "", catalog.ErrUnsupportedURI},
		{"", 0, "", catalog.ErrUnsupportedURI},
		{"ftp://h/c.db", 0, "", catalog.ErrUnsupportedURI},
		{"postgres://u:p@h:5432/db", KindPostgres, "postgres://u:p@h:5432/db", nil},
		{"postgresql://h/db", KindPostgres, "postgresql://h/db", nil},
	}
	for _, c := range cases {
		t.Run(c.uri, func(t *testing.T) {
			kind, path, err := Classify(c.uri)
			if !errors.Is(err, c.err) || (c.err == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, c.err)
			}
			if kind != c.kind || path != c.path {
				t.Fatalf("got %v %q, want %v %q", kind, path, c.kind, c.path)
			}
		})
	}
}

func TestOpenSQLite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	c, err := Catalog(ctx, "sqlite:"+path, Options{CatalogName: "prod"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Name() != "prod" || c.ReadOnly() {
		t.Fatalf("name %q read-only %v", c.Name(), c.ReadOnly())
	}
	if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ro, err := Catalog(ctx, path, Options{CatalogName: "prod", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if ok, err := ro.NamespaceExists(ctx, []string{"db"}); err != nil || !ok {
		t.Fatalf("namespace through the second handle: %v %v", ok, err)
	}
	if err := ro.CreateNamespace(ctx, []string{"x"}, nil); !errors.Is(err, catalog.ErrReadOnly) {
		t.Fatalf("write on read-only: %v", err)
	}
}

func TestOpenRefusesUnknownScheme(t *testing.T) {
	_, err := Catalog(context.Background(), "ftp://u:hunter2@h/c", Options{})
	if !errors.Is(err, catalog.ErrUnsupportedURI) {
		t.Fatalf("got %v", err)
	}
	if got := err.Error(); strings.Contains(got, "hunter2") {
		t.Fatalf("error shows the password: %s", got)
	}
}
