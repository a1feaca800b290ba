package sqlexec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

var _ planner.MetadataAggregator = (*icebergTable)(nil)

// AggregateFromMetadata answers count(*), count(col), min(col) and
// max(col) over the snapshot from its live data files' metrics: record
// counts, null and NaN counts, lower and upper bounds. It answers only
// when they are exact: no delete file applies to any data file (rows
// would be dropped by it), every file that may hold a non-null value of
// a min/max column has its bounds, a float column has a NaN count of zero
// in every file, and the column's type has untruncated bounds (not
// strings, binary or nested values). A column a file lacks (added after
// the file was written) has no metrics in it, so the answer falls back
// to a scan.
func (it *icebergTable) AggregateFromMetadata(ctx context.Context, aggs []planner.MetadataAgg) ([]any, bool, error) {
	fields := it.schema.Fields()
	states := make([]metaAggState, len(aggs))
	for i, a := range aggs {
		st := &states[i]
		st.agg = a
		if a.Func == exec.AggCountStar {
			continue
		}
		if a.Column < 0 || a.Column >= len(fields) {
			return nil, false, nil
		}
		st.field = fields[a.Column]
		switch a.Func {
		case exec.AggCount:
			if _, ok := st.field.Type.(iceberg.PrimitiveType); !ok {
				return nil, false, nil
			}
		case exec.AggMin, exec.AggMax:
			if !exactBounds(st.field.Type) {
				return nil, false, nil
			}
		default:
			return nil, false, nil
		}
	}
	if it.snap != nil {
		tasks, _, err := it.plan(ctx, planner.ScanRequest{Limit: -1})
		if err != nil {
			return nil, false, err
		}
		for _, t := range tasks {
			if len(t.Deletes) > 0 || t.File.Content != iceberg.ContentData {
				return nil, false, nil
			}
			for i := range states {
				if !states[i].add(t.File) {
					return nil, false, nil
				}
			}
		}
	}
	out := make([]any, len(states))
	for i, st := range states {
		v, ok := st.result()
		if !ok {
			return nil, false, nil
		}
		out[i] = v
	}
	return out, true, nil
}

// metaAggState is one aggregate summed over data files.
type metaAggState struct {
	agg   planner.MetadataAgg
	field iceberg.NestedField
	count int64
	best  any // min or max so far in the Iceberg value form; nil: none
}

// add folds in one data file, or reports false when the file's metrics
// do not determine the aggregate.
func (st *metaAggState) add(f iceberg.DataFile) bool {
	switch st.agg.Func {
	case exec.AggCountStar:
		st.count += f.RecordCount
		return true
	case exec.AggCount:
		nulls, ok := f.NullValueCounts[st.field.ID]
		if !ok {
			if !st.field.Required {
				return false
			}
			nulls = 0
		}
		if nulls < 0 || nulls > f.RecordCount {
			return false
		}
		st.count += f.RecordCount - nulls
		return true
	}
	if f.RecordCount == 0 {
		return true
	}
	id := st.field.ID
	if isFloat(st.field.Type) {
		if nan, ok := f.NaNValueCounts[id]; !ok || nan != 0 {
			return false
		}
	}
	raw, ok := f.LowerBounds[id]
	if st.agg.Func == exec.AggMax {
		raw, ok = f.UpperBounds[id]
	}
	if !ok {
		// no bound: fine only when every value of the file is null
		nulls, known := f.NullValueCounts[id]
		return known && nulls == f.RecordCount
	}
	v, err := iceberg.DeserializeValue(st.field.Type, raw)
	if err != nil {
		return false
	}
	if st.best == nil {
		st.best = v
		return true
	}
	c, ok := iceberg.CompareValues(v, st.best)
	if !ok {
		return false
	}
	if (st.agg.Func == exec.AggMin && c < 0) || (st.agg.Func == exec.AggMax && c > 0) {
		st.best = v
	}
	return true
}

// result is the aggregate's value in the exec.ValueAt form.
func (st *metaAggState) result() (any, bool) {
	switch st.agg.Func {
	case exec.AggCountStar, exec.AggCount:
		return st.count, true
	}
	if st.best == nil {
		return nil, true
	}
	switch v := st.best.(type) {
	case bool, int32, int64, float32, float64:
		return v, true
	case iceberg.Date:
		return arrow.Date32(v), true
	case iceberg.Time:
		return arrow.Time64(v), true
	case iceberg.Timestamp:
		return arrow.Timestamp(v), true
	case iceberg.TimestampNano:
		return arrow.Timestamp(v), true
	case iceberg.Decimal:
		return v.Unscaled, true
	}
	return nil, false
}

// exactBounds reports whether a column type's bounds are its values (not
// truncated prefixes, as string and binary bounds may be).
func exactBounds(t iceberg.Type) bool {
	switch t.(type) {
	case iceberg.BooleanType, iceberg.IntType, iceberg.LongType, iceberg.FloatType, iceberg.DoubleType,
		iceberg.DateType, iceberg.TimeType, iceberg.TimestampType, iceberg.TimestampTzType,
		iceberg.TimestampNsType, iceberg.TimestampTzNsType, iceberg.DecimalType:
		return true
	}
	return false
}

func isFloat(t iceberg.Type) bool {
	switch t.(type) {
	case iceberg.FloatType, iceberg.DoubleType:
		return true
	}
	return false
}
