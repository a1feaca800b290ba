package maintenance

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// smallFiles makes a table partitioned by category with files appends of
// rowsPer rows each (two partitions per append), then deletes some rows
// with position deletes.
func smallFiles(t *testing.T, files, rowsPer int) (*fixture, *table.Table, []int64) {
	t.Helper()
	f := newFixture(t)
	tbl := f.create(t, true, nil)
	for i := range files {
		tbl = appendRows(t, tbl, seq(int64(i*rowsPer), int64((i+1)*rowsPer)), "a", "b")
	}
	tbl = deleteIDs(t, tbl, 3, 4, int64(rowsPer+1), int64(files*rowsPer-1))
	return f, tbl, readIDs(t, tbl, 0)
}

func TestRewriteDataFilesBinpack(t *testing.T) {
	ctx := context.Background()
	const files, rowsPer = 12, 6000
	f, tbl, want := smallFiles(t, files, rowsPer)
	_, deletes := liveFiles(t, tbl)
	if len(deletes) == 0 {
		t.Fatal("setup made no delete files")
	}
	const target = 12 << 10
	res, err := RewriteDataFiles(ctx, tbl, RewriteOptions{TargetFileSizeBytes: target})
	if err != nil {
		t.Fatal(err)
	}
	tbl = f.load(t)
	snap := tbl.Metadata().CurrentSnapshot()
	if snap.Operation() != iceberg.OpReplace || res.SnapshotID != snap.SnapshotID {
		t.Fatalf("head %d is %q, result says %d", snap.SnapshotID, snap.Operation(), res.SnapshotID)
	}
	if got := readIDs(t, tbl, 0); !slices.Equal(got, want) {
		t.Fatalf("rows changed: %d rows, want %d", len(got), len(want))
	}
	data, deletes := liveFiles(t, tbl)
	if len(deletes) != 0 {
		t.Fatalf("%d delete files left", len(deletes))
	}
	if res.RewrittenDataFilesCount != 2*files || res.AddedDataFilesCount != int64(len(data)) || res.FailedDataFilesCount != 0 {
		t.Fatalf("result %+v, %d files now", res, len(data))
	}
	if res.RemovedDeleteFilesCount == 0 || res.RewrittenBytesCount == 0 {
		t.Fatalf("result %+v", res)
	}
	// Per partition, every file but the last reached the target, and none
	// is far beyond it.
	small := map[string]int{}
	for _, d := range data {
		if d.FileSizeInBytes < target/2 {
			small[iceberg.PartitionKey(d.SpecID, d.Partition)]++
		}
		// Compression varies along the data, so sizes scatter around the
		// target predicted from the input files.
		if d.FileSizeInBytes > 3*target {
			t.Errorf("file of %d bytes, target %d", d.FileSizeInBytes, target)
		}
	}
	for k, n := range small {
		if n > 1 {
			t.Errorf("partition %s has %d files under half the target", k, n)
		}
	}
	if len(data) >= 2*files {
		t.Fatalf("%d files after compaction of %d", len(data), 2*files)
	}
	if orphans := orphansNow(t, tbl); len(orphans) != 0 {
		t.Fatalf("rewrite left orphans: %v", orphans)
	}
}

func TestRewriteDataFilesSort(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.create(t, false, nil)
	for i := range 3 {
		tbl = appendRows(t, tbl, []int64{int64(i), int64(10 + i), int64(5 + i)}, "x")
	}
	order := &iceberg.SortOrder{OrderID: 1, Fields: []iceberg.SortField{{SourceID: 1, Transform: iceberg.IdentityTransform{},
		Direction: iceberg.SortDesc, NullOrder: iceberg.NullsLast}}}
	res, err := RewriteDataFiles(ctx, tbl, RewriteOptions{Strategy: StrategySort, SortOrder: order, MinInputFiles: 2})
	if err != nil {
		t.Fatal(err)
	}
	tbl = f.load(t)
	data, _ := liveFiles(t, tbl)
	if res.AddedDataFilesCount != 1 || len(data) != 1 {
		t.Fatalf("result %+v, %d files", res, len(data))
	}
	got := readFileIDs(t, tbl, data[0])
	want := []int64{12, 11, 10, 7, 6, 5, 2, 1, 0}
	if !slices.Equal(got, want) {
		t.Fatalf("file order %v, want %v", got, want)
	}
}

func TestRewriteDataFilesNothingToDo(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.create(t, false, nil)
	tbl = appendRows(t, tbl, seq(0, 10))
	tbl = appendRows(t, tbl, seq(10, 20))
	head := tbl.Metadata().CurrentSnapshotID()
	res, err := RewriteDataFiles(ctx, tbl, RewriteOptions{}) // 2 files < min-input-files 5
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFilesCount != 0 || f.load(t).Metadata().CurrentSnapshotID() != head {
		t.Fatalf("result %+v; head moved", res)
	}
}

func TestRewriteDataFilesOptions(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := appendRows(t, f.create(t, false, nil), seq(0, 3))
	tests := []struct {
		name string
		opts RewriteOptions
	}{
		{"unknown strategy", RewriteOptions{Strategy: "zorder"}},
		{"sort without any order", RewriteOptions{Strategy: StrategySort}},
		{"binpack with an order", RewriteOptions{SortOrder: &iceberg.SortOrder{OrderID: 1}}},
		{"negative target", RewriteOptions{TargetFileSizeBytes: -1}},
		{"min above target", RewriteOptions{TargetFileSizeBytes: 10, MinFileSizeBytes: 20}},
		{"sort by unknown column", RewriteOptions{Strategy: StrategySort, SortOrder: &iceberg.SortOrder{OrderID: 1,
			Fields: []iceberg.SortField{{SourceID: 99, Transform: iceberg.IdentityTransform{}}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RewriteDataFiles(ctx, tbl, tc.opts)
			var ae *ArgumentError
			if !errors.Is(err, ErrInvalidArgument) || !errors.As(err, &ae) {
				t.Fatalf("err = %v, want an *ArgumentError", err)
			}
		})
	}
}

// TestRewriteDataFilesConcurrent commits another writer's change right
// before the rewrite's swap.
func TestRewriteDataFilesConcurrent(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// concurrent commits on the latest table.
		concurrent func(t *testing.T, tbl *table.Table)
		wantErr    bool
		extraRows  []int64
	}{
		{"merge-on-read delete", func(t *testing.T, tbl *table.Table) { deleteIDs(t, tbl, 7) }, true, nil},
		{"copy-on-write delete", func(t *testing.T, tbl *table.Table) {
			data, _ := liveFiles(t, tbl)
			if _, err := tbl.NewOverwrite().RemoveFile(data[0]).Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}, true, nil},
		{"append", func(t *testing.T, tbl *table.Table) { appendRows(t, tbl, []int64{1000}, "a") }, false, []int64{1000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, tbl, want := smallFiles(t, 6, 20)
			before := orphansNow(t, tbl)
			f.cat.beforeSwap = func() { tc.concurrent(t, f.loadElsewhere(t)) }
			_, err := RewriteDataFiles(ctx, tbl, RewriteOptions{})
			after := f.load(t)
			if tc.wantErr {
				var ve *iceberg.ValidationError
				if !errors.As(err, &ve) {
					t.Fatalf("err = %v, want *iceberg.ValidationError", err)
				}
				if after.Metadata().CurrentSnapshot().Operation() == iceberg.OpReplace {
					t.Fatal("the rewrite committed")
				}
				if extra, _ := diff(orphansNow(t, after), before); len(extra) != 0 {
					t.Fatalf("failed rewrite left files: %v", extra)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, tc.extraRows...)
			slices.Sort(want)
			if got := readIDs(t, after, 0); !slices.Equal(got, want) {
				t.Fatalf("rows %d, want %d", len(got), len(want))
			}
		})
	}
}
