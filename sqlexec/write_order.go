package sqlexec

import (
	"context"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/writeorder"
)

// sortForWrite orders the rows a write appends by the table's default
// sort order (writeorder.Keys); the sort spills past the session's
// memory_limit. It returns it unchanged when there is nothing to sort,
// and the order id to record on the files. The caller closes what it
// returns; closing it does not close it.
func sortForWrite(ctx context.Context, meta *iceberg.TableMetadata, it exec.RecordIterator) (exec.RecordIterator, int, error) {
	keys, id, err := writeorder.Keys(meta, it.Schema())
	if err != nil || len(keys) == 0 {
		return it, id, err
	}
	return &exec.Sort{Input: keepOpen{it}, Keys: keys, EC: planner.NewEvalContext(ctx, nil)}, id, nil
}

// keepOpen is an iterator whose Close leaves the wrapped one open (its
// owner closes it).
type keepOpen struct{ exec.RecordIterator }

func (keepOpen) Close() {}
