package interop

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
)

// partitionedNestedTable creates the nested fixture table with icesql,
// partitioned by identity(category), day(ts) and bucket(id, 4).
func partitionedNestedTable(tb testing.TB, ice *iceSide, ident table.Identifier) *table.Table {
	tb.Helper()
	schema := nestedSchema(tb)
	spec, err := iceberg.NewPartitionSpecBuilder(schema).Identity("category").Day("ts").Bucket("id", 4).Build()
	if err != nil {
		tb.Fatal(err)
	}
	return ice.createTable(tb, ident, schema, spec, nil)
}

// icePositionDelete deletes, with one icesql row delta of position deletes,
// every row for which del(id) holds.
func icePositionDelete(tb testing.TB, t *table.Table, del func(id int64) bool) *table.Table {
	tb.Helper()
	ctx := context.Background()
	w := datafile.NewPositionDeleteWriter(ctx, t.IO(), t.Metadata(), datafile.PositionDeleteOptions{})
	idCol := t.Schema().Fields()[0].Name
	err := iceScan(ctx, t, datafile.ReadOptions{WithPositions: true}, func(task scan.FileScanTask, rec arrow.RecordBatch) error {
		ids := rec.Column(fieldIndex(rec, idCol)).(*array.Int64)
		pos := rec.Column(fieldIndex(rec, datafile.PosColumnName)).(*array.Int64)
		var positions []int64
		for i := range ids.Len() {
			if del(ids.Value(i)) {
				positions = append(positions, pos.Value(i))
			}
		}
		if len(positions) == 0 {
			return nil
		}
		return w.Delete(ctx, task.File, positions)
	})
	if err != nil {
		tb.Fatal(err)
	}
	files, err := w.Close(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		tb.Fatal("no position delete files written")
	}
	u := t.NewRowDelta()
	for _, f := range files {
		u = u.AddDeleteFile(f)
	}
	t, err = u.OwnFiles().Commit(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func fieldIndex(rec arrow.RecordBatch, name string) int {
	idx := rec.Schema().FieldIndices(name)
	if len(idx) != 1 {
		panic("test record lacks column " + name)
	}
	return idx[0]
}

// expectedRows renders rows the way a scan of them would.
func expectedRows(tb testing.TB, sc *arrow.Schema, rows [][]any) []string {
	tb.Helper()
	rec := buildRecord(tb, sc, rows)
	defer rec.Release()
	return sortRows(renderRecord(rec))
}

// TestIcesqlWritesIcebergGoReads: icesql creates, appends to (twice) and
// row-deletes from a partitioned table with nested columns; iceberg-go's
// SQL catalog opens the catalog file and its scan returns the same rows.
func TestIcesqlWritesIcebergGoReads(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	catFile := filepath.Join(dir, "catalog.db")
	ice := openIce(t, catFile, dir, false)
	ident := table.Identifier{Namespace: []string{"db"}, Name: "events"}
	tbl := partitionedNestedTable(t, ice, ident)
	sc := arrowOf(t, tbl.Schema())

	const n = 600
	var err error
	for _, part := range [][2]int{{0, n / 2}, {n / 2, n}} {
		rec := buildRecord(t, sc, nestedRows(part[0], part[1]))
		tbl, err = iceAppend(ctx, tbl, rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	deleted := func(id int64) bool { return id%7 == 2 || id == 0 }
	var kept [][]any
	for _, r := range nestedRows(0, n) {
		if !deleted(r[0].(int64)) {
			kept = append(kept, r)
		}
	}
	want := expectedRows(t, sc, kept)
	before := expectedRows(t, sc, nestedRows(0, n))

	goCat := openGoCatalog(t, catFile, dir)
	goTbl := goLoad(t, goCat, goIdent(ident.Namespace, ident.Name))

	t.Run("before deletes", func(t *testing.T) {
		requireSameRows(t, "written", before, "iceberg-go", goRows(t, goTbl))
	})

	tbl = icePositionDelete(t, tbl, deleted)
	if err := goTbl.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	t.Run("after position deletes", func(t *testing.T) {
		requireSameRows(t, "expected", want, "iceberg-go", goRows(t, goTbl))
	})
	t.Run("icesql agrees", func(t *testing.T) {
		requireSameRows(t, "expected", want, "icesql", iceRows(t, tbl))
	})
	t.Run("same snapshot", func(t *testing.T) {
		if got, want := goTbl.CurrentSnapshot().SnapshotID, tbl.Metadata().CurrentSnapshot().SnapshotID; got != want {
			t.Fatalf("iceberg-go sees snapshot %d, icesql committed %d", got, want)
		}
		if got, want := len(goTbl.Metadata().Snapshots()), len(tbl.Metadata().Snapshots()); got != want {
			t.Fatalf("iceberg-go sees %d snapshots, icesql %d", got, want)
		}
	})
}
