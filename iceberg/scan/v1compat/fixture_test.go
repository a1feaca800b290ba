package v1compat

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/manifest"
	"github.com/icesql/icesql/iceberg/table"

	_ "github.com/icesql/icesql/driver"
)

// Snapshot ids and times of the hand-written v1 history.
const (
	snapAppend1   int64 = 101 // manifests [m1]: adds batch 1
	snapAppend2   int64 = 102 // manifests [m1, m2]: adds batch 2
	snapOverwrite int64 = 103 // manifests [m3, m2]: deletes batch 1
	baseMs        int64 = 1_600_000_000_000
)

// batches are the rows of the three source inserts ("id|s|v").
var batches = [][]string{
	{"1|x|1.5", "2|y|2.5"},
	{"3|x|3.5", "4|z|4.5"},
}

// v1Fixture is a warehouse with table default.src (written by the engine,
// format v1) and the tables registered from hand-written v1 metadata.
type v1Fixture struct {
	wh   string
	db   *sql.DB
	cat  *sqlite.Catalog
	src  *iceberg.TableMetadata
	fio  fileio.FileIO
	adds [][]iceberg.DataFile // the data files of each batch
}

func newV1Fixture(t *testing.T) *v1Fixture {
	t.Helper()
	ctx := context.Background()
	wh := t.TempDir()
	db, err := sql.Open("iceberg", wh)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	mustExec(t, db, "CREATE TABLE src (id BIGINT NOT NULL, s STRING, v DOUBLE) PARTITIONED BY (s) TBLPROPERTIES ('format-version'='1')")
	for _, batch := range batches {
		var vals []string
		for _, r := range batch {
			p := strings.Split(r, "|")
			vals = append(vals, fmt.Sprintf("(%s, '%s', %s)", p[0], p[1], p[2]))
		}
		mustExec(t, db, "INSERT INTO src VALUES "+strings.Join(vals, ", "))
	}
	cat, err := sqlite.Open(ctx, filepath.Join(wh, "catalog.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	f := &v1Fixture{wh: wh, db: db, cat: cat, fio: &fileio.Local{NoSync: true}}
	rec, err := cat.LoadTable(ctx, sqlite.Identifier{Namespace: []string{"default"}, Name: "src"})
	if err != nil {
		t.Fatal(err)
	}
	if f.src, err = table.ReadMetadata(ctx, f.fio, rec.MetadataLocation); err != nil {
		t.Fatal(err)
	}
	if f.src.FormatVersion() != 1 {
		t.Fatalf("src is format v%d", f.src.FormatVersion())
	}
	f.adds = f.addedFiles(t)
	return f
}

// addedFiles groups src's data files by the insert that added them.
func (f *v1Fixture) addedFiles(t *testing.T) [][]iceberg.DataFile {
	t.Helper()
	ctx := context.Background()
	mfs, err := table.ManifestsOf(ctx, f.fio, f.src.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	bySnap := map[int64][]iceberg.DataFile{}
	for _, mf := range mfs {
		entries, err := table.EntriesOf(ctx, f.fio, f.src, mf)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			bySnap[*e.SnapshotID] = append(bySnap[*e.SnapshotID], e.DataFile)
		}
	}
	var out [][]iceberg.DataFile
	for _, s := range f.src.Snapshots() {
		files := bySnap[s.SnapshotID]
		slices.SortFunc(files, func(a, b iceberg.DataFile) int { return strings.Compare(a.FilePath, b.FilePath) })
		out = append(out, files)
	}
	if len(out) != len(batches) {
		t.Fatalf("src has %d snapshots, want %d", len(out), len(batches))
	}
	return out
}

// writeManifest writes a v1 manifest as snapshot snapID wrote it: added
// files, then files it deleted (added earlier by deletedBy).
func (f *v1Fixture) writeManifest(t *testing.T, path string, snapID int64, added []iceberg.DataFile, deleted []iceberg.DataFile, deletedBy int64) {
	t.Helper()
	var buf bytes.Buffer
	w, err := manifest.NewManifestWriter(&buf, 1, f.src.CurrentSpec(), f.src.CurrentSchema(), iceberg.ManifestContentData, snapID)
	if err != nil {
		t.Fatal(err)
	}
	for _, df := range added {
		if err := w.Add(df); err != nil {
			t.Fatal(err)
		}
	}
	for _, df := range deleted {
		if err := w.Delete(iceberg.ManifestEntry{SnapshotID: &deletedBy, DataFile: df}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, buf.Bytes())
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// inlineTable is a registered v1 table and its inline manifests.
type inlineTable struct {
	name      string
	location  string // table directory (a local path)
	manifests map[string]string
}

// registerInline writes v1 manifests m1..m3 and an old-style v1
// metadata.json (single "schema" and "partition-spec", snapshots with
// "manifests" and no "manifest-list") for table name, and registers it.
func (f *v1Fixture) registerInline(t *testing.T, name string) *inlineTable {
	t.Helper()
	loc := filepath.Join(f.wh, "default.db", name)
	it := &inlineTable{name: name, location: loc, manifests: map[string]string{}}
	for _, m := range []string{"m1", "m2", "m3"} {
		it.manifests[m] = filepath.Join(loc, "metadata", m+".avro")
	}
	f.writeManifest(t, it.manifests["m1"], snapAppend1, f.adds[0], nil, 0)
	f.writeManifest(t, it.manifests["m2"], snapAppend2, f.adds[1], nil, 0)
	f.writeManifest(t, it.manifests["m3"], snapOverwrite, nil, f.adds[0], snapAppend1)

	schema, err := json.Marshal(f.src.CurrentSchema())
	if err != nil {
		t.Fatal(err)
	}
	fields, err := json.Marshal(f.src.CurrentSpec().Fields)
	if err != nil {
		t.Fatal(err)
	}
	snap := func(id, parent int64, op string, manifests ...string) map[string]any {
		s := map[string]any{"snapshot-id": id, "timestamp-ms": baseMs + id, "summary": map[string]string{"operation": op}, "manifests": manifests}
		if parent != 0 {
			s["parent-snapshot-id"] = parent
		}
		return s
	}
	meta := map[string]any{
		"format-version":      1,
		"table-uuid":          fmt.Sprintf("00000000-0000-4000-8000-%012d", len(name)),
		"location":            "file://" + loc,
		"last-updated-ms":     baseMs + snapOverwrite,
		"last-column-id":      f.src.LastColumnID(),
		"schema":              json.RawMessage(schema),
		"partition-spec":      json.RawMessage(fields),
		"properties":          map[string]string{},
		"current-snapshot-id": snapOverwrite,
		"snapshots": []any{
			snap(snapAppend1, 0, "append", it.manifests["m1"]),
			snap(snapAppend2, snapAppend1, "append", it.manifests["m1"], it.manifests["m2"]),
			snap(snapOverwrite, snapAppend2, "overwrite", it.manifests["m3"], it.manifests["m2"]),
		},
		"snapshot-log": []any{
			map[string]int64{"snapshot-id": snapAppend1, "timestamp-ms": baseMs + snapAppend1},
			map[string]int64{"snapshot-id": snapAppend2, "timestamp-ms": baseMs + snapAppend2},
			map[string]int64{"snapshot-id": snapOverwrite, "timestamp-ms": baseMs + snapOverwrite},
		},
	}
	data, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	metaPath := filepath.Join(loc, "metadata", "00000-"+meta["table-uuid"].(string)+".metadata.json")
	writeFile(t, metaPath, data)
	ident := sqlite.Identifier{Namespace: []string{"default"}, Name: name}
	if err := f.cat.RegisterTable(context.Background(), ident, "file://"+metaPath); err != nil {
		t.Fatal(err)
	}
	return it
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// manifestPath is where registerInline wrote manifest m of table name.
func (f *v1Fixture) manifestPath(name, m string) string {
	return filepath.Join(f.wh, "default.db", name, "metadata", m+".avro")
}
