package maintenance

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
)

// rollingWriter writes a rewrite group's rows into files of about
// rowsPerFile rows. The row count comes from the group's own bytes per
// row: the rows are rewritten with the same schema and codec, so the input
// files predict the output's compressed size far better than the writer's
// uncompressed estimate, which rolls files much smaller than the target.
type rollingWriter struct {
	tbl         *table.Table
	opts        datafile.WriterOptions
	rowsPerFile int64
	cur         *datafile.Writer
	rows        int64
	done        []iceberg.DataFile
}

func newRollingWriter(tbl *table.Table, g []scan.FileScanTask, target int64, sortID *int) *rollingWriter {
	var bytes, rows int64
	for _, t := range g {
		bytes += t.File.FileSizeInBytes
		rows += t.File.RecordCount
	}
	perFile := int64(math.MaxInt64)
	if bytes > 0 && rows > 0 {
		perFile = max(1, int64(float64(target)/(float64(bytes)/float64(rows))))
	}
	// The writer never rolls by itself: its uncompressed estimate would
	// cut files at a fraction of the target.
	return &rollingWriter{tbl: tbl, rowsPerFile: perFile,
		opts: datafile.WriterOptions{TargetFileSizeBytes: math.MaxInt64, SortOrderID: sortID}}
}

func (w *rollingWriter) write(ctx context.Context, rec arrow.RecordBatch) error {
	n := rec.NumRows()
	for from := int64(0); from < n; {
		if w.cur == nil {
			w.cur = datafile.NewWriter(ctx, w.tbl.IO(), w.tbl.Metadata(), w.opts)
			w.rows = 0
		}
		to := min(n, from+w.rowsPerFile-w.rows)
		chunk := rec
		if from > 0 || to < n {
			chunk = rec.NewSlice(from, to)
		}
		err := w.cur.Write(ctx, chunk)
		if chunk != rec {
			chunk.Release()
		}
		if err != nil {
			return err
		}
		w.rows += to - from
		from = to
		if w.rows >= w.rowsPerFile {
			if err := w.roll(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *rollingWriter) roll(ctx context.Context) error {
	files, err := w.cur.Close(ctx)
	w.cur = nil
	if err != nil {
		return err
	}
	w.done = append(w.done, files...)
	return nil
}

// close finishes the open file and returns every file written.
func (w *rollingWriter) close(ctx context.Context) ([]iceberg.DataFile, error) {
	if w.cur != nil {
		if err := w.roll(ctx); err != nil {
			return nil, err
		}
	}
	return w.done, nil
}

// abort removes every file written.
func (w *rollingWriter) abort(ctx context.Context) {
	if w.cur != nil {
		w.cur.Abort(ctx)
		w.cur = nil
	}
	for _, f := range w.done {
		w.tbl.IO().Remove(ctx, f.FilePath)
	}
	w.done = nil
}
