package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/manifest"
)

// commitSnapshot adds a snapshot of the given manifests on top of parent
// (0: none) and makes it main's head.
func (tb *table) commitSnapshot(id, parent, seq int64, op iceberg.Operation, mfs ...iceberg.ManifestFile) {
	tb.t.Helper()
	var buf bytes.Buffer
	var parentPtr *int64
	if parent != 0 {
		parentPtr = &parent
	}
	if _, err := manifest.WriteManifestList(&buf, tb.meta.FormatVersion(), id, parentPtr, seq, nil, mfs); err != nil {
		tb.t.Fatal(err)
	}
	path := filepath.Join(tb.dir, fmt.Sprintf("snap-%d.avro", id))
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		tb.t.Fatal(err)
	}
	b := iceberg.NewMetadataBuilder(tb.meta)
	snap := &iceberg.Snapshot{SnapshotID: id, ParentSnapshotID: parentPtr, SequenceNumber: seq, TimestampMs: seq, ManifestList: path,
		Summary: map[string]string{"operation": string(op)}}
	if err := b.AddSnapshot(snap); err != nil {
		tb.t.Fatal(err)
	}
	if err := b.SetSnapshotRef("main", iceberg.NewBranch(id)); err != nil {
		tb.t.Fatal(err)
	}
	meta, err := b.Build()
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.meta = meta
}

// changelogHistory: 1 appends a and b; 2 overwrites a with c
// (copy-on-write); 3 adds a position delete of b (merge-on-read); 4
// compacts c into d (replace); 5 adds an equality delete.
func changelogHistory(t *testing.T) *table {
	tb := newTable(t, iceberg.UnpartitionedSpec)
	a := dataFile(t, "a.parquet", nil, 1, 10, base, base)
	b := dataFile(t, "b.parquet", nil, 11, 20, base, base)
	c := dataFile(t, "c.parquet", nil, 1, 10, base, base)
	d := dataFile(t, "d.parquet", nil, 1, 10, base, base)
	target := "b.parquet"
	pos := iceberg.DataFile{Content: iceberg.ContentPositionDeletes, FilePath: "b-deletes.parquet", FileFormat: iceberg.FormatParquet, RecordCount: 1, FileSizeInBytes: 10,
		ReferencedDataFile: &target}
	eq := iceberg.DataFile{Content: iceberg.ContentEqualityDeletes, FilePath: "eq.parquet", FileFormat: iceberg.FormatParquet, RecordCount: 1, FileSizeInBytes: 10, EqualityIDs: []int{1}}
	mB := tb.manifestOf("m-b.avro", iceberg.ManifestContentData, 1, b)
	tb.commitSnapshot(1, 0, 1, iceberg.OpAppend, tb.manifestOf("m-a.avro", iceberg.ManifestContentData, 1, a), mB)
	mC := tb.manifestOf("m-c.avro", iceberg.ManifestContentData, 2, c)
	tb.commitSnapshot(2, 1, 2, iceberg.OpOverwrite, mB, mC)
	mPos := tb.manifestOf("m-pos.avro", iceberg.ManifestContentDeletes, 3, pos)
	tb.commitSnapshot(3, 2, 3, iceberg.OpDelete, mB, mC, mPos)
	mD := tb.manifestOf("m-d.avro", iceberg.ManifestContentData, 4, d)
	tb.commitSnapshot(4, 3, 4, iceberg.OpReplace, mB, mD, mPos)
	tb.commitSnapshot(5, 4, 5, iceberg.OpDelete, mB, mD, mPos, tb.manifestOf("m-eq.avro", iceberg.ManifestContentDeletes, 5, eq))
	return tb
}

func describeChangelog(tasks []ChangelogTask) string {
	var parts []string
	for _, ct := range tasks {
		s := fmt.Sprintf("%d:%d:%s:%s", ct.Ordinal, ct.SnapshotID, ct.Kind, ct.Task.File.FilePath)
		if ct.Before != nil {
			s += fmt.Sprintf("(deletes %d->%d)", len(ct.Before.Deletes), len(ct.Task.Deletes))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestPlanChangelog(t *testing.T) {
	tb := changelogHistory(t)
	one := int64(1)
	for _, tc := range []struct {
		name string
		from *int64
		to   int64
		want string
	}{
		{"all", nil, 5, "0:1:INSERT:a.parquet 0:1:INSERT:b.parquet 1:2:DELETE:a.parquet 1:2:INSERT:c.parquet " +
			"2:3:DELETE:b.parquet(deletes 0->1) 3:5:DELETE:b.parquet(deletes 1->2) 3:5:DELETE:d.parquet(deletes 0->1)"},
		{"after the first", &one, 2, "0:2:DELETE:a.parquet 0:2:INSERT:c.parquet"},
		{"replace only", func() *int64 { n := int64(3); return &n }(), 4, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tasks, err := PlanChangelog(context.Background(), tb.open, tb.meta, tc.from, tc.to, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := describeChangelog(tasks); got != tc.want {
				t.Fatalf("changelog:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestChangelogSnapshotsErrors(t *testing.T) {
	tb := changelogHistory(t)
	four, missing := int64(4), int64(99)
	for _, tc := range []struct {
		name     string
		from     *int64
		to       int64
		sentinel error
	}{
		{"start after end", &four, 2, ErrNotAncestor},
		{"unknown end", nil, 99, iceberg.ErrNoSuchSnapshot},
		{"unknown start", &missing, 5, iceberg.ErrNoSuchSnapshot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PlanChangelog(context.Background(), tb.open, tb.meta, tc.from, tc.to, Options{})
			if !errors.Is(err, tc.sentinel) {
				t.Fatalf("err = %v, want %v", err, tc.sentinel)
			}
		})
	}
}
