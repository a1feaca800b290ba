package sqlexec

import (
	"fmt"
	"strings"
)

// removeCarryovers drops the pairs of an identical deleted and inserted row
// that copy-on-write commits produce (a removed file's surviving rows
// written again), as Spark's create_changelog_view does. Without net, pairs
// cancel within one commit; with net, across the whole changelog, leaving
// each distinct row's net change (its last inserts or first deletes).
func removeCarryovers(rows []changeRow, net bool) []changeRow {
	groups := map[string][]int{}
	var order []string
	for i, r := range rows {
		k := r.key
		if !net {
			k = fmt.Sprintf("%d\x01%s", r.batch.ordinal, k)
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	keep := make([]bool, len(rows))
	for _, k := range order {
		var ins, del []int
		for _, i := range groups[k] {
			if rows[i].typ == changeDelete {
				del = append(del, i)
			} else {
				ins = append(ins, i)
			}
		}
		switch n := len(ins) - len(del); {
		case n > 0:
			for _, i := range ins[len(ins)-n:] {
				keep[i] = true
			}
		case n < 0:
			for _, i := range del[:-n] {
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
	groups := map[string][]int{}
	var order []string
	for i, r := range rows {
		k := fmt.Sprintf("%d\x01%s", r.batch.ordinal, rowKey(r.batch.rec, r.row, idCols))
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	keep := make([]bool, len(rows))
	for i := range keep {
		keep[i] = true
	}
	for _, k := range order {
		var ins, del []int
		for _, i := range groups[k] {
			if rows[i].typ == changeDelete {
				del = append(del, i)
			} else {
				ins = append(ins, i)
			}
		}
		if len(ins) > 1 || len(del) > 1 {
			return nil, fmt.Errorf("cannot compute updates: several rows of one commit share the identifier values (%s); the identifier columns must identify rows",
				strings.Join(idNames, ", "))
		}
		if len(ins) == 1 && len(del) == 1 {
			d, n := del[0], ins[0]
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
