package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/catalog/catalogtest"
)

func TestCatalogSuite(t *testing.T) {
	catalogtest.Run(t, func(t *testing.T, hooks catalog.Hooks) catalog.Catalog {
		c, err := Open(context.Background(), filepath.Join(t.TempDir(), "catalog.db"), Options{Hooks: hooks})
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
}
