package datafile

import (
	"context"
	"errors"
	"io"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// probeDense is how many matching rows in one probed row group end the
// probing for the rest of the task: a filter matching that often will
// match in the other row groups too (a row group with m matches predicts
// none elsewhere with odds about e^-m), and probing them would only
// decode the filter's columns twice.
const probeDense = 3

// probeMinGroups is the fewest row groups a task must have left after
// their statistics for it to probe them: a probed group that matches is
// decoded twice, which a lookup pruned to a group or two would pay for
// nothing (point lookups and a day's range on icesql's own files, 20% slower).
const probeMinGroups = 4

// groupProbe decides whether a row group holds any row matching the
// residual by decoding only the residual's columns, before the task's
// readers decode every projected column of it: a selective filter on a
// column whose statistics cannot prune (a lookup by a key the file is not
// ordered by) then skips the rest of the row group, as engines with late
// materialisation do. Deleted rows are ignored (a group without a match
// has none among its live rows either).
//
// Each reader of the task asks its RowGroupFilter about every row group
// in file order, so decision k is about row group k; the first reader to
// ask about it probes, the others replay its answer, and they stay in step.
type groupProbe struct {
	ctx      context.Context
	pr       *parquetfile.Reader
	schema   *iceberg.Schema // the residual's columns
	ids      []int
	residual expr.BoundExpr
	opts     parquetfile.ReadOptions // the task's, for mapping and sizes
	stats    *ReadStats

	keep, whole []bool // the statistics' decisions (nil: none)
	start, end  int64  // the task's split

	decided []bool // per row group, in order
	off     bool   // probing stopped (not selective, or not evaluable)
	err     error
}

// filter returns a RowGroupFilter replaying the probe's decisions.
func (p *groupProbe) filter() func(map[int]parquetfile.ColumnStats) bool {
	next := 0
	return func(map[int]parquetfile.ColumnStats) bool {
		k := next
		next++
		for len(p.decided) <= k {
			p.decided = append(p.decided, p.decide(len(p.decided)))
		}
		return p.decided[k]
	}
}

// decide is row group g's decision.
func (p *groupProbe) decide(g int) bool {
	if p.keep != nil && g < len(p.keep) && !p.keep[g] {
		return false
	}
	if p.off || !p.pr.InRange(g, p.start, p.end) || (p.whole != nil && g < len(p.whole) && p.whole[g]) {
		return true
	}
	matches, err := p.probe(g)
	if err != nil {
		// the readers will meet the same failure, and report it with
		// their context; here only stop probing
		p.off, p.err = true, err
		return true
	}
	if matches == 0 {
		if p.stats != nil {
			p.stats.RowGroupsNoMatch.Add(1)
		}
		return false
	}
	if matches >= probeDense {
		p.off = true
	}
	return true
}

// probe reads row group g's residual columns and counts its matching
// rows, up to probeDense.
func (p *groupProbe) probe(g int) (int, error) {
	only := 0
	// Scratch: a record is only evaluated, and released before the next.
	ro := parquetfile.ReadOptions{BatchSize: p.opts.BatchSize, NameMapping: p.opts.NameMapping, Constants: p.opts.Constants, Concurrency: 1,
		RowGroupFilter: func(map[int]parquetfile.ColumnStats) bool { only++; return only-1 == g }, Scratch: true}
	rr, err := p.pr.NewRecordReader(p.ctx, p.schema, ro)
	if err != nil {
		return 0, err
	}
	defer rr.Close()
	cols := map[int]colRef{}
	matches := 0
	for {
		rec, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return matches, nil
		}
		if err != nil {
			return 0, err
		}
		clear(cols)
		err = resolveColumns(rec, p.schema, p.ids, cols)
		var mask []bool
		ok := false
		if err == nil {
			mask, ok = evalVector(p.residual, cols, int(rec.NumRows()))
		}
		rec.Release()
		if err != nil {
			return 0, err
		}
		if !ok { // not evaluable column-wise: no probing
			return probeDense, nil
		}
		for _, m := range mask {
			if m {
				if matches++; matches >= probeDense {
					return matches, nil
				}
			}
		}
	}
}
