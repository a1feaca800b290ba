package scan

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/manifest"
)

var inlineSpec = &iceberg.PartitionSpec{Fields: []iceberg.PartitionField{
	{SourceID: 3, FieldID: 1000, Name: "s", Transform: iceberg.IdentityTransform{}}}}

// writeV1Manifest writes a v1 manifest of entries for spec as snapshot 7
// wrote it and returns its path and bytes.
func writeV1Manifest(t testing.TB, dir, name string, spec *iceberg.PartitionSpec, entries ...iceberg.ManifestEntry) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	w, err := manifest.NewManifestWriter(&buf, 1, spec, testSchema, iceberg.ManifestContentData, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		e.DataFile.SpecID = spec.ID
		if err := w.WriteEntry(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, buf.Bytes()
}

func entry(t testing.TB, status iceberg.EntryStatus, path, part string, rows int64) iceberg.ManifestEntry {
	f := dataFile(t, path, []any{part}, 0, 10, base, base)
	f.RecordCount = rows
	id := int64(7)
	return iceberg.ManifestEntry{Status: status, SnapshotID: &id, DataFile: f}
}

func openFileRC(path string) (io.ReadCloser, error) { return os.Open(path) }

func TestInlineManifest(t *testing.T) {
	dir := t.TempDir()
	spec3 := &iceberg.PartitionSpec{ID: 3, Fields: inlineSpec.Fields}
	mixed := []iceberg.ManifestEntry{
		entry(t, iceberg.StatusAdded, "a.parquet", "x", 10),
		entry(t, iceberg.StatusAdded, "b.parquet", "y", 20),
		entry(t, iceberg.StatusExisting, "c.parquet", "x", 5),
		entry(t, iceberg.StatusDeleted, "d.parquet", "y", 1),
	}
	mixedPath, mixedBytes := writeV1Manifest(t, dir, "mixed.avro", spec3, mixed...)
	// A header without partition-spec-id, as the earliest writers left
	// it: renaming the key keeps the Avro map valid.
	noID := bytes.Replace(mixedBytes, []byte("partition-spec-id"), []byte("partition-spec-xx"), 1)
	noIDPath := filepath.Join(dir, "noid.avro")
	if err := os.WriteFile(noIDPath, noID, 0o644); err != nil {
		t.Fatal(err)
	}
	emptyPath, emptyBytes := writeV1Manifest(t, dir, "empty.avro", inlineSpec)

	tests := []struct {
		name   string
		path   string
		length int
		want   iceberg.ManifestFile
	}{
		{"counts and spec id from the file", mixedPath, len(mixedBytes), iceberg.ManifestFile{SpecID: 3,
			AddedFilesCount: 2, AddedRowsCount: 30, ExistingFilesCount: 1, ExistingRowsCount: 5, DeletedFilesCount: 1, DeletedRowsCount: 1}},
		{"no partition-spec-id reads as spec 0", noIDPath, len(noID), iceberg.ManifestFile{SpecID: 0,
			AddedFilesCount: 2, AddedRowsCount: 30, ExistingFilesCount: 1, ExistingRowsCount: 5, DeletedFilesCount: 1, DeletedRowsCount: 1}},
		{"no entries", emptyPath, len(emptyBytes), iceberg.ManifestFile{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := InlineManifest(openFileRC, tc.path, 42)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			want.Path, want.Length, want.AddedSnapshotID, want.Content = tc.path, int64(tc.length), 42, iceberg.ManifestContentData
			if !manifestFilesEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

func manifestFilesEqual(a, b iceberg.ManifestFile) bool {
	return a.Path == b.Path && a.Length == b.Length && a.SpecID == b.SpecID && a.Content == b.Content &&
		a.SequenceNumber == b.SequenceNumber && a.MinSequenceNumber == b.MinSequenceNumber &&
		a.AddedSnapshotID == b.AddedSnapshotID && a.AddedFilesCount == b.AddedFilesCount &&
		a.ExistingFilesCount == b.ExistingFilesCount && a.DeletedFilesCount == b.DeletedFilesCount &&
		a.AddedRowsCount == b.AddedRowsCount && a.ExistingRowsCount == b.ExistingRowsCount &&
		a.DeletedRowsCount == b.DeletedRowsCount && a.Partitions == nil && a.FirstRowID == nil
}

func TestInlineManifestBadFiles(t *testing.T) {
	dir := t.TempDir()
	_, good := writeV1Manifest(t, dir, "good.avro", inlineSpec, entry(t, iceberg.StatusAdded, "a.parquet", "x", 10))
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var deletes bytes.Buffer
	w, err := manifest.NewManifestWriter(&deletes, 2, inlineSpec, testSchema, iceberg.ManifestContentDeletes, 7)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		path     string
		notFound bool
	}{
		{"missing", filepath.Join(dir, "gone.avro"), true},
		{"not avro", write("text.avro", []byte("not an avro file")), false},
		{"truncated", write("cut.avro", good[:len(good)-7]), false},
		{"empty file", write("zero.avro", nil), false},
		{"delete manifest", write("deletes.avro", deletes.Bytes()), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := InlineManifest(openFileRC, tc.path, 1)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.notFound {
				if !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("err = %v, want not-exist", err)
				}
				return
			}
			var cf *iceberg.CorruptFileError
			if !errors.As(err, &cf) || cf.Path != tc.path || !errors.Is(err, iceberg.ErrInvalidManifest) {
				t.Fatalf("err = %v, want a CorruptFileError for %s", err, tc.path)
			}
		})
	}
}

// v1InlineTable is a v1 table whose snapshot 7 lists two manifests inline.
func v1InlineTable(t *testing.T) (*iceberg.TableMetadata, string, []string) {
	t.Helper()
	dir := t.TempDir()
	meta, err := iceberg.NewTableMetadata(testSchema, inlineSpec, nil, "file:///t", map[string]string{"format-version": "1"})
	if err != nil {
		t.Fatal(err)
	}
	specID := meta.CurrentSpec().ID
	spec := &iceberg.PartitionSpec{ID: specID, Fields: meta.CurrentSpec().Fields}
	m1, _ := writeV1Manifest(t, dir, "m1.avro", spec, entry(t, iceberg.StatusAdded, "a.parquet", "x", 10))
	m2, _ := writeV1Manifest(t, dir, "m2.avro", spec,
		entry(t, iceberg.StatusAdded, "b.parquet", "y", 20), entry(t, iceberg.StatusDeleted, "c.parquet", "y", 3))
	b := iceberg.NewMetadataBuilder(meta)
	snap := &iceberg.Snapshot{SnapshotID: 7, TimestampMs: 1, Manifests: []string{m1, m2},
		Summary: map[string]string{"operation": "append"}}
	if err := b.AddSnapshot(snap); err != nil {
		t.Fatal(err)
	}
	if err := b.SetSnapshotRef("main", iceberg.NewBranch(7)); err != nil {
		t.Fatal(err)
	}
	if meta, err = b.Build(); err != nil {
		t.Fatal(err)
	}
	return meta, dir, []string{m1, m2}
}

func TestPlanInlineManifests(t *testing.T) {
	meta, _, _ := v1InlineTable(t)
	cache := NewManifestCache(0)
	for _, run := range []string{"cold", "cached"} {
		t.Run(run, func(t *testing.T) {
			tasks, stats, err := Plan(context.Background(), openFileRC, meta, 7, nil, Options{Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(tasks); len(got) != 2 || got[0] != "a.parquet" || got[1] != "b.parquet" {
				t.Fatalf("planned %v", got)
			}
			if stats.Manifests != 2 || tasks[0].DataSequenceNumber != 0 || tasks[0].Spec == nil {
				t.Errorf("stats %+v, seq %d", stats, tasks[0].DataSequenceNumber)
			}
		})
	}
	if cache.Stats().Hits == 0 {
		t.Error("the second plan read the inline manifests again")
	}
	// the partition prunes entries of inline manifests like any other
	tasks, _, err := Plan(context.Background(), openFileRC, meta, 7, expr.Eq("s", "y"), Options{})
	if err != nil || len(tasks) != 1 || tasks[0].File.FilePath != "b.parquet" {
		t.Fatalf("planned %v, err %v", paths(tasks), err)
	}
}

func TestPlanInlineManifestErrors(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, path string)
		check func(error) bool
	}{
		{"missing", func(t *testing.T, p string) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}, func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
		{"corrupt", func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte("Obj\x01garbage"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, func(err error) bool {
			var cf *iceberg.CorruptFileError
			return errors.As(err, &cf) && errors.Is(err, iceberg.ErrInvalidManifest)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			meta, _, mfs := v1InlineTable(t)
			tc.spoil(t, mfs[1])
			_, _, err := Plan(context.Background(), openFileRC, meta, 7, nil, Options{})
			var pe *PlanError
			if !errors.As(err, &pe) || pe.Path != mfs[1] || !tc.check(err) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}
