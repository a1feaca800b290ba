package parquetfile

import (
	"bytes"
	"context"
	"io"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// countingReaderAt counts the reads that reach the file.
type countingReaderAt struct {
	r     io.ReaderAt
	reads atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.reads.Add(1)
	return c.r.ReadAt(p, off)
}

// TestFetchAhead: with FetchAhead a file of several row groups reads the
// same records with far fewer reads reaching the file (whole chunks, not
// page headers and pages one by one), also when the budget holds only
// part of a row group.
func TestFetchAhead(t *testing.T) {
	data := benchFile(t, 4<<20)
	groups, cols := 0, len(benchSchema().Fields())
	read := func(budget int64) ([]string, int64) {
		src := &countingReaderAt{r: bytes.NewReader(data)}
		r, err := Open(src, int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.file.RowGroups()) < 3 {
			t.Fatalf("%d row groups, want several", len(r.file.RowGroups()))
		}
		groups = len(r.file.RowGroups())
		if budget > 0 {
			r.FetchAhead(4, budget, int64(len(data)))
		}
		opened := src.reads.Load()
		rr, err := r.NewRecordReader(context.Background(), benchSchema(), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer rr.Close()
		var out []string
		for {
			rec, err := rr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range int(rec.NumCols()) {
				col := rec.Column(i)
				out = append(out, col.ValueStr(0), col.ValueStr(col.Len()-1), array.NewSlice(col, 0, 1).String())
			}
			rec.Release()
		}
		r.StopFetching()
		return out, src.reads.Load() - opened
	}
	want, plain := read(0)
	for _, budget := range []int64{64 << 20, 64 << 10} {
		got, fetched := read(budget)
		if len(got) != len(want) {
			t.Fatalf("budget %d: %d values, want %d", budget, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("budget %d: value %d is %s, want %s", budget, i, got[i], want[i])
			}
		}
		t.Logf("budget %d: %d reads, %d without fetching ahead", budget, fetched, plain)
		// One read per column chunk (and a few of the footer).
		if budget == 64<<20 && fetched > int64(groups*cols+4) {
			t.Fatalf("%d reads with FetchAhead over %d row groups of %d columns, %d without", fetched, groups, cols, plain)
		}
	}
}
