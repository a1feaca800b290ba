package datafile

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/scan"
)

// TestDeleteCacheEqualityDeletes reads several tasks sharing equality
// delete files through one cache, concurrently: each file is parsed once
// while it fits, every task gets the right rows, and a bound too small for
// a set parses it per task.
func TestDeleteCacheEqualityDeletes(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	cats := []string{"a", "b", "", "c"}
	var data []iceberg.DataFile
	for k := 0; k < 4; k++ {
		data = append(data, writeAll(t, tt, WriterOptions{TaskID: int64(k)}, testRows(t, testSchema(), k*100, 100, cats))...)
	}
	eqB := writeEqualityDeletes(t, tt, "b")
	eqNull := writeEqualityDeletes(t, tt, "")
	deleted := func(i int) bool { return cats[i%4] == "b" || cats[i%4] == "" }
	tests := []struct {
		name     string
		maxBytes int64
		minLoads int64 // concurrent tasks share a load in flight
		maxLoads int64
		wantKept bool
	}{
		{"fits", 0, 2, 2, true},
		{"too small to keep", 1, 2 * 3, 2 * 4 * 3, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cache := NewDeleteCache(tc.maxBytes)
			var wg sync.WaitGroup
			for round := 0; round < 3; round++ {
				for k, f := range data {
					wg.Go(func() {
						task := scan.FileScanTask{File: f, DataSequenceNumber: 1, Deletes: []scan.DeleteFile{
							{File: eqB, DataSequenceNumber: 2}, {File: eqNull, DataSequenceNumber: 2}}}
						recs := readAll(t, tt, task, nil, ReadOptions{DeleteCache: cache})
						if got, want := int64Column(t, recs, "id"), seqInts(k*100, k*100+100, deleted); !slices.Equal(got, want) {
							t.Errorf("task %d: ids %v, want %v", k, got, want)
						}
					})
				}
				wg.Wait()
			}
			cache.mu.Lock()
			loads := cache.loads
			cache.mu.Unlock()
			if loads < tc.minLoads || loads > tc.maxLoads {
				t.Errorf("%d equality delete files parsed, want %d to %d", loads, tc.minLoads, tc.maxLoads)
			}
			if kept := cache.CachedBytes() > 0; kept != tc.wantKept {
				t.Errorf("cached %d bytes", cache.CachedBytes())
			}
			if cache.CachedBytes() > max(tc.maxBytes, 0) && tc.maxBytes > 0 {
				t.Errorf("cached %d bytes over the bound %d", cache.CachedBytes(), tc.maxBytes)
			}
		})
	}
}

// TestDeleteCacheEvictsLeastRecentlyUsed fills a cache beyond its bound.
func TestDeleteCacheEvictsLeastRecentlyUsed(t *testing.T) {
	set := func(keys ...string) func() (map[string]struct{}, error) {
		return func() (map[string]struct{}, error) {
			m := map[string]struct{}{}
			for _, k := range keys {
				m[k] = struct{}{}
			}
			return m, nil
		}
	}
	one := keySetBytes(map[string]struct{}{"k1": {}})
	c := NewDeleteCache(2 * one)
	key := func(p string) eqCacheKey { return eqCacheKey{path: p, ids: "[1]"} }
	for _, p := range []string{"a", "b", "a", "c"} { // c evicts b, the least recently used
		if _, err := c.equalityKeys(key(p), set("k"+"1")); err != nil {
			t.Fatal(err)
		}
	}
	if c.loads != 3 {
		t.Errorf("%d loads, want 3", c.loads)
	}
	for p, want := range map[string]bool{"a": true, "b": false, "c": true} {
		if _, ok := c.eq[key(p)]; ok != want {
			t.Errorf("%s cached %v, want %v", p, ok, want)
		}
	}
	if c.CachedBytes() != 2*one {
		t.Errorf("cached %d bytes, want %d", c.CachedBytes(), 2*one)
	}
}

// TestDeleteCacheDoesNotKeepErrors retries a failed load.
func TestDeleteCacheDoesNotKeepErrors(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	data := writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 0, 10, []string{"a"}))[0]
	cache := NewDeleteCache(0)
	missing := iceberg.DataFile{Content: iceberg.ContentEqualityDeletes, FilePath: tt.loc + "/data/missing.parquet",
		FileFormat: iceberg.FormatParquet, EqualityIDs: []int{2}}
	task := scan.FileScanTask{File: data, DataSequenceNumber: 1, Deletes: []scan.DeleteFile{{File: missing, DataSequenceNumber: 2}}}
	for range 2 {
		if _, err := ReadTask(context.Background(), tt.fio, tt.meta, task, nil, ReadOptions{DeleteCache: cache}); err == nil {
			t.Fatal("missing delete file read")
		}
	}
	if cache.loads != 2 || len(cache.eq) != 0 {
		t.Errorf("loads %d, entries %d", cache.loads, len(cache.eq))
	}
}
