package exec

import (
	"bufio"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// spillBufferSize is the write buffer of one aggregation or window spill
// file; a pass keeps aggFanOut of them open, outside the Arrow budget.
const spillBufferSize = 16 << 10

// newSpillWriter opens a new Arrow IPC stream file in files' directory,
// written like a sorted run (so openRun reads it back).
func newSpillWriter(ec *EvalContext, files *spillFiles, pattern string, schema *arrow.Schema) (*runWriter, error) {
	fh, err := files.create(pattern)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(fh, spillBufferSize)
	w := ipc.NewWriter(bw, ipc.WithSchema(schema), ipc.WithAllocator(ec.Mem))
	return &runWriter{fh: fh, bw: bw, w: w}, nil
}
