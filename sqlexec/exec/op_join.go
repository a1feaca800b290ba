package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// JoinType is the kind of join.
type JoinType int

// Join types. Semi and Anti output only the left (probe) columns.
const (
	JoinInner JoinType = iota
	JoinLeft
	JoinRight
	JoinFull
	JoinSemi
	JoinAnti
)

var joinNames = [...]string{"inner", "left", "right", "full", "semi", "anti"}

func (t JoinType) String() string { return joinNames[t] }

// DefaultJoinBatchRows bounds the rows of one join output batch.
const DefaultJoinBatchRows = 8192

// HashJoin joins Left (probed, streamed) with Right (built into a hash table)
// on LeftKeys[i] = RightKeys[i], then Residual over the combined row. With
// no keys every pair is a candidate, which makes it the nested-loop join.
// NullAware gives Anti the semantics of NOT IN: a NULL on either side
// never counts as "not found".
//
// Output streams in batches of at most BatchRows rows however many
// matches a probe batch has, so a cross join's memory stays bounded by
// the build side plus one batch.
//
// A build side whose estimate passes EvalContext.MemoryLimit spills:
// both inputs are partitioned by key hash into files in
// EvalContext.SpillDir and joined partition by partition (see
// join_spill.go); output order then differs from the in-memory join's.
// Limits: a shared build side (Shared) never spills, nor does a join
// without keys, and a partition of one key is joined in memory.
type HashJoin struct {
	Left, Right         RecordIterator
	LeftKeys, RightKeys []Expr
	Residual            Expr
	Type                JoinType
	NullAware           bool
	NullsEqual          bool // set operations match NULL with NULL
	Out                 *arrow.Schema
	EC                  *EvalContext
	// Shared, if set, is a build side owned by someone else (parallel
	// probers share one); Right and RightKeys are then unused.
	Shared *JoinBuild
	// BatchRows bounds output batches (0: DefaultJoinBatchRows).
	BatchRows int
	// Unread marks output columns no consumer reads (nil: all are read);
	// they are emitted as NULLs instead of gathered.
	Unread []bool

	jb       *JoinBuild
	matched  []bool // build rows matched, for Right and Full
	probe    *probeCursor
	leftDone bool
	rightPos int // next build row for the unmatched-right tail
	pairs    *arrow.Schema
	buf      []byte
	spill    *joinSpill // set once the build side spilled
}

func (j *HashJoin) Schema() *arrow.Schema { return j.Out }

func (j *HashJoin) Close() {
	if j.spill != nil {
		j.spill.release()
	}
	j.Left.Close()
	j.probe.release()
	j.probe = nil
	if j.Shared == nil {
		if j.jb != nil {
			j.jb.Close()
		} else if j.Right != nil {
			j.Right.Close()
		}
	}
}

func (j *HashJoin) batchRows() int {
	if j.BatchRows > 0 {
		return j.BatchRows
	}
	return DefaultJoinBatchRows
}

func (j *HashJoin) init(ctx context.Context) error {
	if j.Shared != nil {
		j.jb = j.Shared
		if err := j.jb.Build(ctx); err != nil {
			return err
		}
	} else {
		held, over, err := j.collectBuild(ctx)
		if err != nil {
			return err
		}
		if over {
			j.spill = newJoinSpill(j)
			return j.spill.start(ctx, held)
		}
		j.jb = NewJoinBuild(j.EC, j.Right, j.RightKeys, j.NullsEqual)
		if err := j.jb.buildFrom(ctx, held); err != nil {
			return err
		}
	}
	if j.Type == JoinRight || j.Type == JoinFull {
		j.matched = make([]bool, j.jb.rows)
	}
	lf, rf := j.Left.Schema().Fields(), j.jb.Schema().Fields()
	j.pairs = arrow.NewSchema(append(append([]arrow.Field{}, lf...), rf...), nil)
	return nil
}

func (j *HashJoin) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if j.jb == nil && j.spill == nil {
		if err := j.init(ctx); err != nil {
			return nil, err
		}
	}
	if j.spill != nil {
		return j.spill.next(ctx)
	}
	for !j.leftDone {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if j.probe == nil {
			b, err := j.Left.Next(ctx)
			if err != nil {
				return nil, err
			}
			if b == nil {
				j.leftDone = true
				break
			}
			if j.probe, err = j.newProbe(b); err != nil {
				return nil, err
			}
		}
		out, err := j.step(ctx)
		if err != nil {
			return nil, err
		}
		if out != nil {
			if out.NumRows() > 0 {
				return out, nil
			}
			out.Release()
		}
	}
	if j.Type == JoinRight || j.Type == JoinFull {
		return j.unmatchedRight(ctx)
	}
	return nil, nil
}

// collectBuild reads the build input until it ends or, for a join with
// keys, until its estimate passes the memory limit (over). The caller
// owns the batches.
func (j *HashJoin) collectBuild(ctx context.Context) (held []arrow.RecordBatch, over bool, err error) {
	limit := j.EC.memoryLimit()
	var bytes, rows int64
	for {
		if err := ctx.Err(); err != nil {
			ReleaseAll(held)
			return nil, false, err
		}
		b, err := j.Right.Next(ctx)
		if err != nil {
			ReleaseAll(held)
			return nil, false, err
		}
		if b == nil {
			return held, false, nil
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		held = append(held, b)
		bytes += batchBytes(b)
		rows += b.NumRows()
		if len(j.RightKeys) > 0 && buildEstimate(bytes, rows) > limit {
			return held, true, nil
		}
	}
}
