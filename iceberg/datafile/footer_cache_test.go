package datafile

import (
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/iceberg/scan"
)

// A file too large to cache whole has its footer cached: later reads
// decode no footer, read their pages (flat, nested and list columns)
// from their own open of the file after the first read's is closed, and
// answer as an uncached read does, with row groups skipped.
func TestFooterCache(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	var recs []arrow.RecordBatch
	for g := range 4 {
		r := testRows(t, testSchema(), g*15000, 15000, []string{"a", "", "bb"})
		t.Cleanup(r.Release)
		recs = append(recs, r)
	}
	f := writeAll(t, tt, WriterOptions{Parquet: &parquetfile.WriterOptions{RowGroupRowLimit: 15000}}, recs...)[0]
	if f.FileSizeInBytes <= MaxCachedFileBytes {
		t.Fatalf("file of %d bytes is small enough to be cached whole", f.FileSizeInBytes)
	}
	schema := tt.meta.CurrentSchema()
	residual, err := expr.Bind(schema, expr.GtEq("id", int64(40000)), true)
	if err != nil {
		t.Fatal(err)
	}
	tasks := []scan.FileScanTask{{File: f}, {File: f, Residual: residual}}
	answer := func(recs []arrow.RecordBatch) []string {
		var out []string
		for _, r := range recs {
			for i := range int(r.NumRows()) {
				row := ""
				for c := range int(r.NumCols()) {
					row += r.Column(c).(interface{ ValueStr(int) string }).ValueStr(i) + "|"
				}
				out = append(out, row)
			}
		}
		return out
	}
	c := NewFileCache(0)
	for _, task := range tasks {
		want := answer(readAll(t, tt, task, schema, ReadOptions{WithPositions: true}))
		for i := range 3 {
			got := answer(readAll(t, tt, task, schema, ReadOptions{Files: c, WithPositions: true}))
			if !slices.Equal(got, want) {
				t.Fatalf("read %d through the cache: %d rows differ from the %d uncached", i, len(got), len(want))
			}
		}
	}
	if c.FooterHits() != 5 || c.Len() != 0 {
		t.Fatalf("%d footer hits, %d files held whole; want 5 and 0", c.FooterHits(), c.Len())
	}
	// Another recorded size is another file.
	g := f
	g.FileSizeInBytes--
	if it, err := ReadTask(t.Context(), tt.fio, tt.meta, scan.FileScanTask{File: g}, schema, ReadOptions{Files: c}); err == nil {
		it.Close()
	}
	if c.FooterHits() != 5 {
		t.Fatalf("a read under another size hit the cache")
	}
}
