package scan

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
)

// countingOpener counts the files a plan opens.
type countingOpener struct {
	open  Opener
	opens atomic.Int64
}

func (c *countingOpener) Open(path string) (io.ReadCloser, error) {
	c.opens.Add(1)
	return c.open(path)
}

// manyManifests commits n data manifests of perManifest files each, file
// i of manifest m covering ids [1000*m+10*i, 1000*m+10*i+9].
func manyManifests(t testing.TB, tb *table, n, perManifest int) int64 {
	var mfs []iceberg.ManifestFile
	for m := range n {
		var files []iceberg.DataFile
		for i := range perManifest {
			lo := int64(1000*m + 10*i)
			files = append(files, dataFile(t, fmt.Sprintf("d-%d-%d.parquet", m, i), []any{}, lo, lo+9, base, base))
		}
		mfs = append(mfs, tb.manifestOf(fmt.Sprintf("m%d.avro", m), iceberg.ManifestContentData, 1, files...))
	}
	return tb.commit(mfs...)
}

func TestManifestCacheReusesDecodedManifests(t *testing.T) {
	tb := newTable(t, nil)
	snap := manyManifests(t, tb, 3, 5)
	ctx := context.Background()
	want, wantStats, err := Plan(ctx, tb.open, tb.meta, snap, expr.Eq("id", 1023), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cache := NewManifestCache(0)
	opener := &countingOpener{open: tb.open}
	for run := range 3 {
		got, stats, err := Plan(ctx, opener.Open, tb.meta, snap, expr.Eq("id", 1023), Options{Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(paths(got), paths(want)) || stats != wantStats {
			t.Fatalf("run %d: planned %v %+v, want %v %+v", run, paths(got), stats, paths(want), wantStats)
		}
	}
	// the list and three manifests are read once, then come from the cache
	if n := opener.opens.Load(); n != 4 {
		t.Errorf("opened %d files over three plans, want 4", n)
	}
	cs := cache.Stats()
	if cs.Misses != 4 || cs.Hits != 8 || cs.Items != 4 || cs.Bytes <= 0 || cs.Evictions != 0 {
		t.Errorf("cache stats = %+v", cs)
	}
	// a different filter reuses the same decoded entries
	got, _, err := Plan(ctx, opener.Open, tb.meta, snap, expr.Eq("id", 2041), Options{Cache: cache})
	if err != nil || len(got) != 1 || got[0].File.FilePath != "d-2-4.parquet" || opener.opens.Load() != 4 {
		t.Fatalf("planned %v err %v after %d opens", paths(got), err, opener.opens.Load())
	}
}

func TestManifestCacheStaysWithinBytes(t *testing.T) {
	tb := newTable(t, nil)
	snap := manyManifests(t, tb, 6, 4)
	full := NewManifestCache(0)
	if _, _, err := Plan(context.Background(), tb.open, tb.meta, snap, nil, Options{Cache: full}); err != nil {
		t.Fatal(err)
	}
	total := full.Stats().Bytes
	tests := []struct {
		name      string
		max       int64
		wantItems func(int) bool
	}{
		{"everything fits", total, func(n int) bool { return n == 7 }},
		{"half fits", total / 2, func(n int) bool { return n > 0 && n < 7 }},
		{"nothing fits", 1, func(n int) bool { return n == 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := NewManifestCache(tt.max)
			for range 2 {
				tasks, _, err := Plan(context.Background(), tb.open, tb.meta, snap, nil, Options{Cache: cache, Workers: 1})
				if err != nil || len(tasks) != 24 {
					t.Fatalf("planned %d tasks, err %v", len(tasks), err)
				}
			}
			cs := cache.Stats()
			if cs.Bytes > tt.max || !tt.wantItems(cs.Items) {
				t.Errorf("max %d: stats %+v", tt.max, cs)
			}
			if tt.max < total && tt.max > 1 && cs.Evictions == 0 {
				t.Errorf("no evictions under a bound below the total: %+v", cs)
			}
		})
	}
}

func TestManifestCacheKeyDependsOnInheritedFields(t *testing.T) {
	mf := iceberg.ManifestFile{Path: "m.avro", Length: 10, SequenceNumber: 3, AddedSnapshotID: 7}
	other := mf
	other.SequenceNumber = 4
	longer := mf
	longer.Length = 11
	withRow := mf
	row := int64(0)
	withRow.FirstRowID = &row
	keys := map[string]bool{}
	for _, m := range []iceberg.ManifestFile{mf, other, longer, withRow} {
		keys[manifestKey(&m, "")] = true
	}
	keys[manifestKey(&mf, partitionTypeKey(&iceberg.StructType{FieldList: []iceberg.NestedField{{ID: 1000, Type: iceberg.IntType{}}}}))] = true
	if len(keys) != 5 {
		t.Errorf("keys collide: %v", keys)
	}
}

func TestManifestCacheConcurrentPlans(t *testing.T) {
	tb := newTable(t, nil)
	snap := manyManifests(t, tb, 4, 5)
	// small enough to evict while plans run
	cache := NewManifestCache(8 << 10)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Go(func() {
			id := int64(1000*(g%4) + 10*(g%5))
			tasks, _, err := Plan(context.Background(), tb.open, tb.meta, snap, expr.Eq("id", id), Options{Cache: cache})
			if err == nil && (len(tasks) != 1 || tasks[0].File.FilePath != fmt.Sprintf("d-%d-%d.parquet", g%4, g%5)) {
				err = fmt.Errorf("id %d planned %v", id, paths(tasks))
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if cs := cache.Stats(); cs.Bytes > 8<<10 {
		t.Errorf("over the bound: %+v", cs)
	}
}

func TestManifestCacheDoesNotKeepErrors(t *testing.T) {
	tb := newTable(t, nil)
	snap := manyManifests(t, tb, 1, 1)
	cache := NewManifestCache(0)
	failing := func(string) (io.ReadCloser, error) { return nil, fmt.Errorf("disk gone") }
	if _, _, err := Plan(context.Background(), failing, tb.meta, snap, nil, Options{Cache: cache}); err == nil {
		t.Fatal("plan with a failing opener succeeded")
	}
	if tasks, _, err := Plan(context.Background(), tb.open, tb.meta, snap, nil, Options{Cache: cache}); err != nil || len(tasks) != 1 {
		t.Fatalf("retry planned %d tasks, err %v", len(tasks), err)
	}
}
