package datafile

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow/array"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/icesql/icesql/iceberg/scan"
)

func TestFileCache(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	files := writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 0, 300, []string{"a", ""}))
	want := seqInts(0, 300, nil)
	task := scan.FileScanTask{File: files[0]}

	t.Run("a second read is served from memory", func(t *testing.T) {
		c := NewFileCache(0)
		var st ReadStats
		for i := range 2 {
			got := int64Column(t, readAll(t, tt, task, tt.meta.CurrentSchema(), ReadOptions{Files: c, Stats: &st}), "id")
			if !slices.Equal(got, want) {
				t.Fatalf("read %d: ids %v, want 0..299", i, got)
			}
		}
		if c.Misses() != 1 || c.Hits() != 1 || st.CacheHits.Load() != 1 || c.Len() != 1 {
			t.Fatalf("misses %d hits %d (stats %d) len %d, want 1 1 1 1", c.Misses(), c.Hits(), st.CacheHits.Load(), c.Len())
		}
		// Served without touching storage: the file may even be gone.
		if err := os.Remove(strings.TrimPrefix(files[0].FilePath, "file://")); err != nil {
			t.Fatal(err)
		}
		if got := int64Column(t, readAll(t, tt, task, tt.meta.CurrentSchema(), ReadOptions{Files: c}), "id"); !slices.Equal(got, want) {
			t.Fatalf("from the cache: ids %v", got)
		}
	})

	t.Run("a size the manifest does not record is not kept", func(t *testing.T) {
		tt := newTestTable(t, testSchema(), nil, nil)
		files := writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 0, 300, []string{"a"}))
		f := files[0]
		f.FileSizeInBytes++
		c := NewFileCache(0)
		// The reader reads the file as it is; the cache keeps nothing.
		_ = readAll(t, tt, scan.FileScanTask{File: f}, tt.meta.CurrentSchema(), ReadOptions{Files: c})
		if c.Len() != 0 {
			t.Fatalf("%d files cached under a wrong size", c.Len())
		}
	})

	t.Run("files larger than the bound are not admitted", func(t *testing.T) {
		c := NewFileCache(0)
		if c.admits(MaxCachedFileBytes+1) || !c.admits(MaxCachedFileBytes) || c.admits(0) {
			t.Fatal("admission bound")
		}
		var nilCache *FileCache
		if nilCache.admits(10) {
			t.Fatal("a nil cache admits")
		}
	})

	t.Run("least recently used is evicted beyond the byte bound", func(t *testing.T) {
		tt := newTestTable(t, testSchema(), nil, nil)
		a := writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 0, 10, []string{"a"}))[0]
		b := writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 10, 10, []string{"b"}))[0]
		probe := NewFileCache(1 << 30)
		_ = readAll(t, tt, scan.FileScanTask{File: a}, tt.meta.CurrentSchema(), ReadOptions{Files: probe})
		// room for one of them (their costs are about equal)
		c := NewFileCache(probe.used * 3 / 2)
		for _, f := range []scan.FileScanTask{{File: a}, {File: b}, {File: a}} {
			_ = readAll(t, tt, f, tt.meta.CurrentSchema(), ReadOptions{Files: c})
		}
		if c.Len() != 1 || c.Hits() != 0 {
			t.Fatalf("len %d hits %d, want 1 file and no hit", c.Len(), c.Hits())
		}
	})

	t.Run("concurrent scans share an entry", func(t *testing.T) {
		tt := newTestTable(t, testSchema(), nil, nil)
		task := scan.FileScanTask{File: writeAll(t, tt, WriterOptions{}, testRows(t, testSchema(), 0, 300, []string{"a", ""}))[0]}
		c := NewFileCache(0)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				ids, err := readIDs(tt, task, ReadOptions{Files: c, SkipPageChecksums: true})
				if err == nil && !slices.Equal(ids, want) {
					err = fmt.Errorf("ids %v", ids)
				}
				if err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	})
}

// readIDs drains a task off the test goroutine, returning its id column.
func readIDs(tt testTable, task scan.FileScanTask, opts ReadOptions) ([]int64, error) {
	ctx := context.Background()
	it, err := ReadTask(ctx, tt.fio, tt.meta, task, tt.meta.CurrentSchema(), opts)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var ids []int64
	for {
		rec, err := it.Next(ctx)
		if err == io.EOF {
			return ids, nil
		}
		if err != nil {
			return nil, err
		}
		ids = append(ids, rec.Column(rec.Schema().FieldIndices("id")[0]).(*array.Int64).Int64Values()...)
		rec.Release()
	}
}
