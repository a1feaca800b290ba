package sqlexec

import (
	"context"
	"fmt"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// A view's metadata file is parsed once per location: later queries use
// the cached value, a replaced view (a new file) is read again, and the
// cache stays bounded.
func TestViewMetadataCache(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE t (id INT)")
	mustExec(t, s, "CREATE VIEW v AS SELECT id FROM t")
	mustExec(t, s, "SELECT * FROM v")
	first, err := s.engine.catalog.LoadView(ctx, viewTestIdent("default", "v"))
	if err != nil {
		t.Fatal(err)
	}
	cached, ok := s.engine.views.get(first.MetadataLocation)
	if !ok {
		t.Fatal("the view's metadata was not cached")
	}
	mustExec(t, s, "SELECT * FROM v")
	if again, _ := s.engine.views.get(first.MetadataLocation); again != cached {
		t.Fatal("a second query parsed the view's metadata again")
	}
	mustExec(t, s, "CREATE OR REPLACE VIEW v AS SELECT id + 1 AS id FROM t")
	mustExec(t, s, "SELECT * FROM v")
	second, err := s.engine.catalog.LoadView(ctx, viewTestIdent("default", "v"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.engine.views.get(second.MetadataLocation); !ok || second.MetadataLocation == first.MetadataLocation {
		t.Fatalf("the replaced view (%s) was not read from its new file", second.MetadataLocation)
	}

	var c viewMetaCache
	for i := range maxCachedViews + 10 {
		c.put(fmt.Sprint(i), &iceberg.ViewMetadata{})
	}
	if len(c.m) > maxCachedViews {
		t.Fatalf("cache holds %d entries, limit %d", len(c.m), maxCachedViews)
	}
}
