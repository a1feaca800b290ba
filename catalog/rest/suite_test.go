package rest_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/catalog/catalogtest"
	"github.com/icesql/icesql/catalog/postgres"
	restcat "github.com/icesql/icesql/catalog/rest"
	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/internal/pgtest"
	"github.com/icesql/icesql/server/rest"
)

// TestCatalogSuite runs the engine's catalog suite on the REST client
// against the handler icesql serve runs, with SQLite and with Postgres
// behind it. The suite's hooks go to the catalog behind the server, so a
// crash or a lost reply happens where the server swaps. The REST client
// writes no metadata (table.MetadataCommitter,
// catalog.ViewMetadataCommitter), so the suite hands it real metadata files.
func TestCatalogSuite(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			catalogtest.Run(t, func(t *testing.T, hooks catalog.Hooks) catalog.Catalog {
				ctx := context.Background()
				dir := t.TempDir()
				var back catalog.Catalog
				var err error
				if backend == "sqlite" {
					back, err = sqlite.Open(ctx, filepath.Join(dir, "catalog.db"), sqlite.Options{Hooks: hooks})
				} else {
					back, err = postgres.Open(ctx, pgtest.Database(t), postgres.Options{Hooks: hooks})
				}
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { back.Close() })
				wh, err := fileio.LocalURI(dir)
				if err != nil {
					t.Fatal(err)
				}
				hs := httptest.NewServer(rest.New(back, &fileio.Local{}, rest.Options{Warehouse: wh}))
				t.Cleanup(hs.Close)
				c, err := restcat.Open(ctx, hs.URL, restcat.Options{})
				if err != nil {
					t.Fatal(err)
				}
				return c
			})
		})
	}
}
