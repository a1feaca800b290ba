package sqlexec

import (
	"fmt"
	"strings"
)

// changeGroup is the rows (indexes) of one key, inserted and deleted.
type changeGroup struct{ ins, del []int }

// groupChanges groups rows by key, in the order keys first appear.
func groupChanges(rows []changeRow, key func(r changeRow) string) []changeGroup {
	index := map[string]int{}
	var out []changeGroup
	for i, r := range rows {
		k := key(r)
		g, ok := index[k]
		if !ok {
			g = len(out)
			index[k] = g
			out = append(out, changeGroup{})
		}
		if r.typ == changeDelete {
			out[g].del = append(out[g].del, i)
		} else {
			out[g].ins = append(out[g].ins, i)
		}
	}
	return out
}

// removeCarryovers drops the pairs of an identical deleted and inserted row
// that copy-on-write commits produce (a removed file's surviving rows
// written again), as Spark's create_changelog_view does. Without net, pairs
// cancel within one commit; with net, across the whole changelog, leaving
// each distinct row's net change (its last inserts or first deletes).
func removeCarryovers(rows []changeRow, net bool) []changeRow {
	key := func(r changeRow) string {
		if net {
			return r.key
		}
		return fmt.Sprintf("%d\x01%s", r.batch.ordinal, r.key)
	}
	keep := make([]bool, len(rows))
	for _, g := range groupChanges(rows, key) {
		switch n := len(g.ins) - len(g.del); {
		case n > 0:
			for _, i := range g.ins[len(g.ins)-n:] {
				keep[i] = true
			}
		case n < 0:
			for _, i := range g.del[:-n] {
				keep[i] = true
			}
		}
	}
	return keepRows(rows, keep)
}

// computeUpdates turns a deleted and an inserted row of one commit that
// share identifier values into UPDATE_BEFORE and UPDATE_AFTER (identical
// pairs are carry-overs and dropped), as Spark's create_changelog_view with
// compute_updates. Several deleted or inserted rows with the same
// identifier in one commit are an error, as in Spark.
func computeUpdates(rows []changeRow, idCols []int, idNames []string) ([]changeRow, error) {
	key := func(r changeRow) string {
		return fmt.Sprintf("%d\x01%s", r.batch.ordinal, rowKey(r.batch.rec, r.row, idCols))
	}
	keep := make([]bool, len(rows))
	for i := range keep {
		keep[i] = true
	}
	for _, g := range groupChanges(rows, key) {
		if len(g.ins) > 1 || len(g.del) > 1 {
			return nil, fmt.Errorf("cannot compute updates: several rows of one commit share the identifier values (%s); the identifier columns must identify rows",
				strings.Join(idNames, ", "))
		}
		if len(g.ins) == 1 && len(g.del) == 1 {
			d, n := g.del[0], g.ins[0]
			if rows[d].key == rows[n].key {
				keep[d], keep[n] = false, false
				continue
			}
			rows[d].typ, rows[n].typ = changeUpdateBefore, changeUpdateAfter
		}
	}
	return keepRows(rows, keep), nil
}

func keepRows(rows []changeRow, keep []bool) []changeRow {
	out := rows[:0:0]
	for i, r := range rows {
		if keep[i] {
			out = append(out, r)
		}
	}
	return out
}
