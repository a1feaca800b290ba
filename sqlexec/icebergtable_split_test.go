package sqlexec

import (
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/scan"
)

func TestSplitTask(t *testing.T) {
	file := func(size int64, offs ...int64) scan.FileScanTask {
		return scan.FileScanTask{File: iceberg.DataFile{FilePath: "f", FileFormat: iceberg.FormatParquet, FileSizeInBytes: size, SplitOffsets: offs}}
	}
	type piece struct{ start, length int64 }
	for _, tc := range []struct {
		name   string
		task   scan.FileScanTask
		target int64
		want   []piece // nil: not split
	}{
		{"pieces of the target", file(1000, 4, 250, 500, 750), 250, []piece{{0, 250}, {250, 250}, {500, 250}, {750, 250}}},
		{"offsets merged up to the target", file(1000, 4, 100, 200, 300, 600, 900), 250, []piece{{0, 300}, {300, 300}, {600, 400}}},
		{"small tail joins the last piece", file(1000, 4, 500, 950), 400, []piece{{0, 500}, {500, 500}}},
		{"below twice the target", file(1000, 4, 500), 600, nil},
		{"one row group", file(1000, 4), 10, nil},
		{"offsets out of order", file(1000, 4, 600, 300), 100, nil},
		{"offset past the end", file(1000, 4, 500, 1200), 100, nil},
		{"already a split", func() scan.FileScanTask { t := file(1000, 4, 500); t.Start, t.Length = 0, 500; return t }(), 100, nil},
		{"not parquet", func() scan.FileScanTask { t := file(1000, 4, 500); t.File.FileFormat = iceberg.FormatAvro; return t }(), 100, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := splitTask(tc.task, tc.target)
			if tc.want == nil {
				if len(got) != 1 || got[0].Split() != tc.task.Split() {
					t.Fatalf("split into %d: %+v", len(got), got)
				}
				return
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d pieces, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, p := range tc.want {
				if got[i].Start != p.start || got[i].Length != p.length || got[i].File.FilePath != "f" {
					t.Errorf("piece %d: [%d +%d), want [%d +%d)", i, got[i].Start, got[i].Length, p.start, p.length)
				}
			}
		})
	}
}
