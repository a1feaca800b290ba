package dml

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
	"github.com/icesql/icesql/sqlexec/writeorder"
)

// changes are a statement's effect before commit: the target rows it
// removes (by data file) and the new rows, already written.
type changes struct {
	deletes  map[string][]int64
	matched  map[string][]int64 // MERGE: every matched target row, for the cardinality check
	affected int64
}

// collect runs the query, writes the new rows to w and records the
// removed target rows.
func collect(ctx context.Context, q *rowQuery, tt *targetTable, w writeorder.DataWriter) (*changes, error) {
	ec := planner.NewEvalContext(ctx, nil)
	it, err := planner.Build(ctx, ec, q.plan)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	ch := &changes{deletes: map[string][]int64{}, matched: map[string][]int64{}}
	checkCardinality := false
	for _, c := range q.clauses {
		checkCardinality = checkCardinality || (q.srcCol >= 0 && c.match == parser.Matched)
	}
	emits := make([][]int32, len(q.clauses))
	for {
		b, err := it.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		err = ch.batch(ctx, ec, q, tt, w, b, emits, checkCardinality)
		b.Release()
		if err != nil {
			return nil, err
		}
	}
	return ch, nil
}

func (ch *changes) batch(ctx context.Context, ec *exec.EvalContext, q *rowQuery, tt *targetTable, w writeorder.DataWriter,
	b arrow.RecordBatch, emits [][]int32, checkCardinality bool) error {
	files, ok1 := b.Column(q.fileCol).(*array.String)
	pos, ok2 := b.Column(q.posCol).(*array.Int64)
	if !ok1 || !ok2 {
		return invalidf("internal: row identity columns have types %s, %s", b.Column(q.fileCol).DataType(), b.Column(q.posCol).DataType())
	}
	var src arrow.Array
	if q.srcCol >= 0 {
		src = b.Column(q.srcCol)
	}
	conds := make([][]bool, len(q.clauses))
	for i, c := range q.clauses {
		if c.condCol >= 0 {
			conds[i] = exec.TruthMask(b.Column(c.condCol))
		}
	}
	for i := range emits {
		emits[i] = emits[i][:0]
	}
	n := int(b.NumRows())
	for row := 0; row < n; row++ {
		hasTarget := pos.IsValid(row)
		hasSource := src == nil || src.IsValid(row)
		var match parser.MergeMatch
		switch {
		case hasTarget && hasSource:
			match = parser.Matched
			if checkCardinality {
				p := files.Value(row)
				ch.matched[p] = append(ch.matched[p], pos.Value(row))
			}
		case hasSource:
			match = parser.NotMatched
		case hasTarget:
			match = parser.NotMatchedBySource
		default:
			continue
		}
		for k, c := range q.clauses {
			if c.match != match || (conds[k] != nil && !conds[k][row]) {
				continue
			}
			ch.affected++
			if c.action != parser.MergeInsert {
				p := files.Value(row)
				ch.deletes[p] = append(ch.deletes[p], pos.Value(row))
			}
			if c.action != parser.MergeDelete {
				emits[k] = append(emits[k], int32(row))
			}
			break
		}
	}
	for k, idx := range emits {
		if len(idx) == 0 {
			continue
		}
		cols := make([]arrow.Array, len(q.clauses[k].valCols))
		for i, c := range q.clauses[k].valCols {
			cols[i] = b.Column(c)
		}
		rec, err := exec.TakeBatch(ctx, ec, tt.cols, cols, idx)
		if err != nil {
			return err
		}
		err = w.Write(ctx, rec)
		rec.Release()
		if err != nil {
			return writeError(err)
		}
	}
	return nil
}

// sortedPositions sorts each file's positions, reporting a position seen
// twice (a target row matched twice).
func sortedPositions(m map[string][]int64) (string, int64, bool) {
	for path, ps := range m {
		slices.Sort(ps)
		for i := 1; i < len(ps); i++ {
			if ps[i] == ps[i-1] {
				return path, ps[i], false
			}
		}
	}
	return "", 0, true
}
