package interop

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// A table icesql writes with write.metadata.compression-codec=gzip
// (<version>-<uuid>.gz.metadata.json, as Java names it) reads in
// iceberg-go: the same snapshot and rows.
func TestGzipMetadataIcebergGoReads(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	catFile := filepath.Join(dir, "catalog.db")
	ice := openIce(t, catFile, dir, false)
	ident := table.Identifier{Namespace: []string{"db"}, Name: "gz"}
	schema := nestedSchema(t)
	tbl := ice.createTable(t, ident, schema, iceberg.UnpartitionedSpec,
		map[string]string{iceberg.PropMetadataCompression: "gzip"})
	sc := arrowOf(t, tbl.Schema())
	rec := buildRecord(t, sc, nestedRows(0, 50))
	tbl, err := iceAppend(ctx, tbl, rec)
	rec.Release()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(tbl.MetadataLocation(), ".gz.metadata.json") {
		t.Fatalf("metadata at %s, want a .gz.metadata.json name", tbl.MetadataLocation())
	}
	goTbl := goLoad(t, openGoCatalog(t, catFile, dir), goIdent(ident.Namespace, ident.Name))
	if got, want := goTbl.CurrentSnapshot().SnapshotID, tbl.Metadata().CurrentSnapshotID(); got != want {
		t.Fatalf("iceberg-go sees snapshot %d, icesql committed %d", got, want)
	}
	requireSameRows(t, "icesql", iceRows(t, tbl), "iceberg-go", goRows(t, goTbl))
}
