package postgres

import (
	"context"
	"testing"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/catalog/catalogtest"
	"github.com/icesql/icesql/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func openTest(t *testing.T, opts Options) *Catalog {
	t.Helper()
	c, err := Open(context.Background(), pgtest.Database(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestCatalogSuite(t *testing.T) {
	catalogtest.Run(t, func(t *testing.T, hooks catalog.Hooks) catalog.Catalog {
		c, err := Open(context.Background(), pgtest.Database(t), Options{Hooks: hooks})
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
}
