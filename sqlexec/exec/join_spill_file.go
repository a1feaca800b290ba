package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// spillRunIter streams one partition file back as batches and removes
// the file when closed. A run with no path is an empty input.
type spillRunIter struct {
	ec     *EvalContext
	files  *spillFiles
	run    sortedRun
	schema *arrow.Schema
	c      *runCursor
	opened bool
}

func newSpillRunIter(ec *EvalContext, files *spillFiles, run sortedRun, schema *arrow.Schema) *spillRunIter {
	return &spillRunIter{ec: ec, files: files, run: run, schema: schema}
}

func (it *spillRunIter) Schema() *arrow.Schema { return it.schema }

func (it *spillRunIter) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !it.opened {
		it.opened = true
		if it.run.path == "" {
			return nil, nil
		}
		c, err := openRun(it.ec, it.run, it.schema, 0)
		if err != nil {
			return nil, err
		}
		it.c = c
	}
	if it.c == nil || it.c.batch == nil {
		return nil, nil
	}
	b := it.c.batch
	b.Retain()
	if err := it.c.load(); err != nil {
		b.Release()
		return nil, err
	}
	return b, nil
}

// Close releases the reader and removes the file.
func (it *spillRunIter) Close() {
	if it.c != nil {
		it.c.close()
		it.c = nil
	}
	if it.run.path != "" {
		it.files.remove(it.run.path)
		it.run.path = ""
	}
	it.opened = true
}
