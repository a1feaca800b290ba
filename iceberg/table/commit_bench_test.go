package table

import (
	"context"
	"fmt"
	"maps"
	"os"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// BenchmarkAppendCommit measures one single-file append commit end to end
// (manifest, manifest list, metadata.json, swap) on local disk, with and
// without fsync.
func BenchmarkAppendCommit(b *testing.B) {
	for _, sync := range []bool{true, false} {
		name := "fsync"
		if !sync {
			name = "nosync"
		}
		b.Run(name, func(b *testing.B) {
			f := newFixture(b)
			f.env.IO = &fileio.Local{NoSync: !sync}
			tbl := f.createEvents(b, nil)
			ctx := context.Background()
			df := f.dayFile(b, tbl, 0, 1)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if tbl, err = tbl.NewAppend().AddDataFile(df).Commit(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendCommitHistory: one single-file append commit on a table
// whose history holds 10, 1,000 or 10,000 snapshots, all kept (default
// properties), with and without fsync. It reports the bytes of the
// metadata.json each commit writes.
func BenchmarkAppendCommitHistory(b *testing.B) {
	for _, sync := range []bool{true, false} {
		for _, n := range []int{10, 1000, 10000} {
			name := fmt.Sprintf("fsync/snapshots=%d", n)
			if !sync {
				name = fmt.Sprintf("nosync/snapshots=%d", n)
			}
			b.Run(name, func(b *testing.B) { benchCommitHistory(b, n, sync) })
		}
	}
}

func benchCommitHistory(b *testing.B, n int, sync bool) {
	f := newFixture(b)
	f.env.IO = &fileio.Local{NoSync: !sync}
	tbl := f.createEvents(b, nil)
	ctx := context.Background()
	df := f.dayFile(b, tbl, 0, 1)
	tbl, err := tbl.NewAppend().AddDataFile(df).Commit(ctx)
	if err != nil {
		b.Fatal(err)
	}
	tbl = addHistory(b, tbl, n-1)
	b.ResetTimer()
	for b.Loop() {
		if tbl, err = tbl.NewAppend().AddDataFile(df).Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	path, _ := fileio.LocalPath(tbl.MetadataLocation())
	if st, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(st.Size()), "metadata-bytes")
	}
}

// addHistory gives tbl n more snapshots in one metadata commit, each a
// copy of the current one (same manifest list) on top of the previous.
func addHistory(b *testing.B, tbl *Table, n int) *Table {
	b.Helper()
	m := tbl.Metadata()
	cur := m.CurrentSnapshot()
	seq := m.LastSequenceNumber()
	var ups []iceberg.Update
	parent := cur.SnapshotID
	for i := 0; i < n; i++ {
		seq++
		s := *cur
		s.SnapshotID = cur.SnapshotID + int64(i) + 1
		p := parent
		s.ParentSnapshotID = &p
		s.SequenceNumber = seq
		s.TimestampMs = cur.TimestampMs + int64(i) + 1
		s.Summary = maps.Clone(cur.Summary)
		ups = append(ups, iceberg.AddSnapshotUpdate{Snapshot: &s}, iceberg.SetSnapshotRefUpdate{Name: MainBranch, Ref: iceberg.NewBranch(s.SnapshotID)})
		parent = s.SnapshotID
	}
	t, err := tbl.CommitUpdates(context.Background(), ups)
	if err != nil {
		b.Fatal(err)
	}
	return t
}
