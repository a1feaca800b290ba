package datafile

import (
	"context"
	"os"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// FuzzPositionDeleteFile feeds arbitrary bytes to the position delete
// reader: it must return positions or an error, never panic.
func FuzzPositionDeleteFile(f *testing.F) {
	tt := newTestTable(f, testSchema(), nil, nil)
	ctx := context.Background()
	data := iceberg.DataFile{FilePath: tt.loc + "/data/a.parquet", RecordCount: 100}
	w := NewPositionDeleteWriter(ctx, tt.fio, tt.meta, PositionDeleteOptions{})
	if err := w.Delete(ctx, data, []int64{1, 2, 50}); err != nil {
		f.Fatal(err)
	}
	dfs, err := w.Close(ctx)
	if err != nil {
		f.Fatal(err)
	}
	p, _ := fileio.LocalPath(dfs[0].FilePath)
	valid, err := os.ReadFile(p)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add([]byte("PAR1PAR1"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		path := dir + "/d.parquet"
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		// Without a cache, then with one (the first read learns the order,
		// the second may rely on it).
		cache := NewDeleteCache(0)
		for _, c := range []*DeleteCache{nil, cache, cache} {
			pos, err := loadPositionDeletes(ctx, tt.fio, data.FilePath, []iceberg.DataFile{{FilePath: path, FileFormat: iceberg.FormatParquet}}, c)
			if err != nil {
				return
			}
			for i, p := range pos {
				if p < 0 || (i > 0 && p <= pos[i-1]) {
					t.Fatalf("positions not sorted and unique: %v", pos)
				}
			}
		}
	})
}
