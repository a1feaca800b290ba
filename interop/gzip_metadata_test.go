package interop

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
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

// A gzipped metadata.json with a long history (its snapshots copied into
// the file as deflate runs compressed at earlier commits, spliced with
// what each commit compresses anew) reads in iceberg-go with every
// snapshot and snapshot-log entry.
func TestGzipMetadataLongHistoryIcebergGoReads(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	catFile := filepath.Join(dir, "catalog.db")
	ice := openIce(t, catFile, dir, false)
	ident := table.Identifier{Namespace: []string{"db"}, Name: "gzlong"}
	tbl := ice.createTable(t, ident, nestedSchema(t), iceberg.UnpartitionedSpec,
		map[string]string{iceberg.PropMetadataCompression: "gzip"})
	sc := arrowOf(t, tbl.Schema())
	appendRows := func(from int) {
		t.Helper()
		rec := buildRecord(t, sc, nestedRows(from, from+5))
		defer rec.Release()
		var err error
		if tbl, err = iceAppend(ctx, tbl, rec); err != nil {
			t.Fatal(err)
		}
	}
	appendRows(0)
	// 600 copies of the snapshot (about 400 KB of snapshots), then real
	// appends on top, each compressing only what follows the last run.
	cur := tbl.Metadata().CurrentSnapshot()
	var ups []iceberg.Update
	parent, seq := cur.SnapshotID, tbl.Metadata().LastSequenceNumber()
	for i := range 600 {
		seq++
		s := *cur
		s.SnapshotID = cur.SnapshotID + int64(i) + 1
		p := parent
		s.ParentSnapshotID, s.SequenceNumber, s.TimestampMs = &p, seq, cur.TimestampMs+int64(i)+1
		s.Summary = maps.Clone(cur.Summary)
		ups = append(ups, iceberg.AddSnapshotUpdate{Snapshot: &s}, iceberg.SetSnapshotRefUpdate{Name: "main", Ref: iceberg.NewBranch(s.SnapshotID)})
		parent = s.SnapshotID
	}
	var err error
	if tbl, err = tbl.CommitUpdates(ctx, ups); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		appendRows(5 * i)
	}
	// Long enough for several runs (zRunSize, 16 KiB): one gzip member.
	path, err := fileio.LocalPath(tbl.MetadataLocation())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	br := bytes.NewReader(raw)
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	plain, err := io.ReadAll(zr)
	if err != nil || br.Len() != 0 || len(plain) < 4*64<<10 {
		t.Fatalf("%s: %d bytes in one gzip member, %d after it (%v)", path, len(plain), br.Len(), err)
	}
	goTbl := goLoad(t, openGoCatalog(t, catFile, dir), goIdent(ident.Namespace, ident.Name))
	m, gm := tbl.Metadata(), goTbl.Metadata()
	goLog := 0
	for range gm.SnapshotLogs() {
		goLog++
	}
	if len(gm.Snapshots()) != len(m.Snapshots()) || len(m.Snapshots()) != 604 || goLog != len(m.SnapshotLog()) {
		t.Fatalf("iceberg-go reads %d snapshots, %d log entries; icesql wrote %d, %d",
			len(gm.Snapshots()), goLog, len(m.Snapshots()), len(m.SnapshotLog()))
	}
	if got, want := goTbl.CurrentSnapshot().SnapshotID, m.CurrentSnapshotID(); got != want {
		t.Fatalf("iceberg-go sees snapshot %d, icesql committed %d", got, want)
	}
	requireSameRows(t, "icesql", iceRows(t, tbl), "iceberg-go", goRows(t, goTbl))
}
