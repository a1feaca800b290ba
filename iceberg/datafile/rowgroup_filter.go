package datafile

import (
	"context"
	"errors"
	"io"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// rowGroupsMatching decides, for each row group of the file, whether rows
// in it may match the residual (keep), and whether every row must (all),
// from the footer statistics of the residual's columns (Iceberg's
// inclusive and strict metrics rules). keep is nil when every group may
// match, all when none is known to match whole. The decisions are made up
// front because the main and auxiliary readers of a task must skip the
// same groups to stay in step, while each sees the statistics of its own
// columns only.
func rowGroupsMatching(ctx context.Context, pr *parquetfile.Reader, table *iceberg.Schema, residual expr.BoundExpr, ids []int, mapping parquetfile.NameMapping) (keep, all []bool, err error) {
	for _, id := range ids {
		if _, ok := table.FindFieldByID(id); !ok {
			return nil, nil, nil // bound to another schema: leave it to the row evaluator
		}
	}
	if len(ids) == 0 {
		return nil, nil, nil
	}
	proj, err := table.Select(ids...)
	if err != nil {
		return nil, nil, nil // not selectable as a projection: no skipping
	}
	inclusive, strict := expr.NewInclusiveMetricsEvaluator(residual), expr.NewStrictMetricsEvaluator(residual)
	var evalErr error
	skipped, whole := false, false
	// A reader that skips every row group only reads their statistics.
	filter := func(stats map[int]parquetfile.ColumnStats) bool {
		f := statsAsDataFile(stats, proj)
		ok, err := inclusive.Eval(f)
		if err != nil && evalErr == nil {
			evalErr = err
		}
		ok = ok || err != nil // a bound that does not decode rules nothing out
		must, err := strict.Eval(f)
		must = must && err == nil && ok
		skipped = skipped || !ok
		whole = whole || must
		keep = append(keep, ok)
		all = append(all, must)
		return false
	}
	rr, err := pr.NewRecordReader(ctx, proj, parquetfile.ReadOptions{NameMapping: mapping, RowGroupFilter: filter})
	if err != nil {
		return nil, nil, err
	}
	defer rr.Close()
	if _, err := rr.Next(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = errors.New("internal error: statistics reader returned rows")
		}
		return nil, nil, err
	}
	if len(keep) != pr.NumRowGroups() {
		return nil, nil, nil
	}
	if !skipped || pr.NumRowGroups() < 2 {
		keep = nil
	}
	if !whole {
		all = nil
	}
	return keep, all, nil
}

// statsAsDataFile presents one row group's column statistics as the
// metrics of a data file. Null counts are trusted only where the writer
// also recorded bounds, since an absent Parquet null count reads as zero.
func statsAsDataFile(stats map[int]parquetfile.ColumnStats, schema *iceberg.Schema) *iceberg.DataFile {
	f := &iceberg.DataFile{
		RecordCount:     -1,
		ValueCounts:     map[int]int64{},
		NullValueCounts: map[int]int64{},
		LowerBounds:     map[int][]byte{},
		UpperBounds:     map[int][]byte{},
	}
	for id, st := range stats {
		// Columns with statistics are outside lists and maps: one value
		// per row.
		f.RecordCount = max(f.RecordCount, st.ValueCount)
		f.ValueCounts[id] = st.ValueCount
		if st.Min == nil || st.Max == nil {
			continue
		}
		if st.HasNulls {
			f.NullValueCounts[id] = st.NullCount
		}
		field, ok := schema.FindFieldByID(id)
		if !ok {
			continue
		}
		lo, err1 := iceberg.SerializeValue(field.Type, st.Min)
		hi, err2 := iceberg.SerializeValue(field.Type, st.Max)
		if err1 == nil && err2 == nil {
			f.LowerBounds[id], f.UpperBounds[id] = lo, hi
		}
	}
	return f
}
