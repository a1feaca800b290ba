package maintenance

import (
	"context"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// dataSeqs maps each live data file to its data sequence number.
func dataSeqs(t *testing.T, tbl *table.Table) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, task := range planAll(t, tbl) {
		out[task.File.FilePath] = task.DataSequenceNumber
	}
	return out
}

func TestRewriteManifests(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name         string
		props        map[string]string
		concurrent   bool
		wantManifest func(files int) int64
	}{
		{"into one manifest", nil, false, func(int) int64 { return 1 }},
		{"rolled at a tiny target", map[string]string{iceberg.PropManifestTargetSizeBytes: "1"}, false, func(files int) int64 { return int64(files) }},
		{"redone after a concurrent append", nil, true, func(int) int64 { return 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			tbl := f.create(t, true, tc.props)
			for i := range 6 {
				tbl = appendRows(t, tbl, seq(int64(i*4), int64(i*4+4)), "b", "a", "c")
			}
			tbl = deleteIDs(t, tbl, 5)
			want := readIDs(t, tbl, 0)
			seqs := dataSeqs(t, tbl)
			before := orphansNow(t, tbl)
			if tc.concurrent {
				f.cat.beforeSwap = func() { appendRows(t, f.loadElsewhere(t), []int64{100}, "a") }
				want = append(want, 100)
			}
			res, err := RewriteManifests(ctx, tbl)
			if err != nil {
				t.Fatal(err)
			}
			tbl = f.load(t)
			head := tbl.Metadata().CurrentSnapshot()
			if head.Operation() != iceberg.OpReplace {
				t.Fatalf("head operation %q", head.Operation())
			}
			if got := readIDs(t, tbl, 0); !slices.Equal(got, want) {
				t.Fatalf("rows %v, want %v", got, want)
			}
			after := dataSeqs(t, tbl)
			for p, s := range seqs {
				if after[p] != s {
					t.Fatalf("data sequence number of %s changed %d -> %d", p, s, after[p])
				}
			}
			files := len(after)
			if res.AddedManifestsCount != tc.wantManifest(files) || res.RewrittenManifestsCount == 0 {
				t.Fatalf("result %+v with %d files", res, files)
			}
			mfs, err := table.ManifestsOf(ctx, tbl.IO(), head)
			if err != nil {
				t.Fatal(err)
			}
			var data, deletes int
			var parts [][]any
			for _, mf := range mfs {
				if mf.Content != iceberg.ManifestContentData {
					deletes++
					continue
				}
				data++
				es, err := table.EntriesOf(ctx, tbl.IO(), tbl.Metadata(), mf)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range es {
					if e.Status != iceberg.StatusExisting {
						t.Fatalf("entry status %v in a rewritten manifest", e.Status)
					}
					parts = append(parts, e.DataFile.Partition)
				}
			}
			if int64(data) != res.AddedManifestsCount || deletes != 1 {
				t.Fatalf("%d data and %d delete manifests, result %+v", data, deletes, res)
			}
			if !slices.IsSortedFunc(parts, comparePartitions) {
				t.Fatalf("entries not sorted by partition: %v", parts)
			}
			if extra, _ := diff(orphansNow(t, tbl), before); len(extra) != 0 {
				t.Fatalf("rewrite left files: %v", extra)
			}
		})
	}
}

func TestRewriteManifestsEmptyTable(t *testing.T) {
	f := newFixture(t)
	res, err := RewriteManifests(context.Background(), f.create(t, false, nil))
	if err != nil || res.RewrittenManifestsCount != 0 || res.AddedManifestsCount != 0 {
		t.Fatalf("res %+v, err %v", res, err)
	}
}
