package v1compat

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/internal/sqltest"
)

// TestWriteOnInlineManifests commits onto a v1 snapshot with inline
// manifests: the new snapshot has a manifest list carrying them forward,
// and expiring the inline snapshots deletes only what they alone reached.
func TestWriteOnInlineManifests(t *testing.T) {
	f := newV1Fixture(t)
	it := f.registerInline(t, "v1w")
	mustExec(t, f.db, "INSERT INTO v1w VALUES (5, 'x', 5.5)")
	want := append(slices.Clone(batches[1]), "5|x|5.5")
	if got := sqltest.QueryStrings(t, f.db, fmt.Sprintf(selectAll, "v1w")); !slices.Equal(got, want) {
		t.Fatalf("after insert got %v, want %v", got, want)
	}

	meta := f.loadMeta(t, "v1w")
	head := meta.CurrentSnapshot()
	if meta.FormatVersion() != 1 || head.ManifestList == "" || len(head.Manifests) != 0 {
		t.Fatalf("v%d head snapshot: list %q, inline %v", meta.FormatVersion(), head.ManifestList, head.Manifests)
	}
	mfs, err := table.ManifestsOf(context.Background(), f.fio, head)
	if err != nil {
		t.Fatal(err)
	}
	m2 := slices.IndexFunc(mfs, func(mf iceberg.ManifestFile) bool { return localPath(mf.Path) == it.manifests["m2"] })
	if m2 < 0 {
		t.Fatalf("the new manifest list does not carry m2: %v", mfs)
	}
	if got := mfs[m2]; got.AddedSnapshotID != snapOverwrite || got.AddedFilesCount != int32(len(f.adds[1])) || got.Length == 0 {
		t.Errorf("m2 carried forward as %+v", got)
	}

	res := callRow(t, f.db, "CALL system.expire_snapshots(table => 'default.v1w', retain_last => 1)")
	if res["deleted_data_files_count"] != fmt.Sprint(len(f.adds[0])) || res["deleted_manifest_lists_count"] != "0" {
		t.Errorf("expire result %v", res)
	}
	if n, err := strconv.Atoi(res["deleted_manifest_files_count"]); err != nil || n < 1 {
		t.Errorf("expire deleted no manifest (m1 at least): %v", res)
	}
	for _, df := range f.adds[0] {
		if _, err := os.Stat(localPath(df.FilePath)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("expired data file %s: stat err %v", df.FilePath, err)
		}
	}
	if _, err := os.Stat(it.manifests["m1"]); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("m1, reached only by expired snapshots, was kept (stat err %v)", err)
	}
	if _, err := os.Stat(it.manifests["m2"]); err != nil {
		t.Errorf("m2, still reachable, was deleted: %v", err)
	}
	if got := sqltest.QueryStrings(t, f.db, fmt.Sprintf(selectAll, "v1w")); !slices.Equal(got, want) {
		t.Fatalf("after expire got %v, want %v", got, want)
	}
	stray := filepath.Join(it.location, "metadata", "stray.avro")
	writeFile(t, stray, []byte("unreferenced"))
	orphans := sqltest.QueryStrings(t, f.db, "CALL system.remove_orphan_files(table => 'default.v1w', older_than => TIMESTAMP '2999-01-01 00:00:00', dry_run => true)")
	if len(orphans) != 1 || localPath(orphans[0]) != stray {
		t.Errorf("orphans %v, want only %s", orphans, stray)
	}
}

// TestBadInlineManifest: a missing or corrupt inline manifest fails reads
// and writes with an error naming it, matching the iceberg sentinels.
func TestBadInlineManifest(t *testing.T) {
	f := newV1Fixture(t)
	tests := []struct {
		name  string
		spoil func(path string) error
		is    error
	}{
		{"missing", os.Remove, iceberg.ErrNotFound},
		{"corrupt", func(p string) error { return os.WriteFile(p, []byte("Obj\x01not a manifest"), 0o644) }, iceberg.ErrInvalidManifest},
		{"truncated", func(p string) error { return os.Truncate(p, 40) }, iceberg.ErrInvalidManifest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := "bad_" + tc.name
			it := f.registerInline(t, name)
			before := f.loadMeta(t, name)
			if err := tc.spoil(it.manifests["m2"]); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				fmt.Sprintf(selectAll, name),
				fmt.Sprintf("SELECT count(*) FROM %s.files", name),
				fmt.Sprintf("INSERT INTO %s VALUES (9, 'x', 9.5)", name),
			} {
				_, err := sqltest.JoinedRows(f.db, q)
				if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), "m2.avro") {
					t.Errorf("%s: err = %v, want %v naming m2.avro", q, err, tc.is)
				}
			}
			if after := f.loadMeta(t, name); after.CurrentSnapshot().SnapshotID != before.CurrentSnapshot().SnapshotID {
				t.Error("a failed insert committed")
			}
		})
	}
}

// loadMeta reads table name's current metadata through the catalog.
func (f *v1Fixture) loadMeta(t *testing.T, name string) *iceberg.TableMetadata {
	t.Helper()
	ctx := context.Background()
	rec, err := f.cat.LoadTable(ctx, sqlite.Identifier{Namespace: []string{"default"}, Name: name})
	if err != nil {
		t.Fatal(err)
	}
	meta, err := table.ReadMetadata(ctx, f.fio, rec.MetadataLocation)
	if err != nil {
		t.Fatal(err)
	}
	return meta
}

func localPath(loc string) string {
	p, err := fileio.LocalPath(loc)
	if err != nil {
		return loc
	}
	return p
}

// callRow runs a procedure that returns one row, by column name.
func callRow(t *testing.T, db *sql.DB, q string) map[string]string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatalf("%s: no row (%v)", q, rows.Err())
	}
	vals, err := sqltest.ScanRow(rows, len(cols))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, c := range cols {
		out[c] = fmt.Sprint(vals[i])
	}
	return out
}
