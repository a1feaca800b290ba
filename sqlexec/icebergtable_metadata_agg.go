package sqlexec

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/pushdown"
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
// to a scan. With filters, every planned file must pass them whole (its
// residual after the partition values is always true): filters on
// identity partition columns, say.
func (it *icebergTable) AggregateFromMetadata(ctx context.Context, filters []planner.Expr, aggs []planner.MetadataAgg) ([]any, bool, error) {
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
		tasks, ok, err := it.wholeFiles(ctx, filters)
		if err != nil || !ok {
			return nil, false, err
		}
		for _, t := range tasks {
			if len(t.Deletes) > 0 || t.File.Content != iceberg.ContentData || !isAlwaysTrue(t.Residual) {
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

// wholeFiles plans the files of the snapshot that filters select; false
// when a filter does not convert exactly to an Iceberg expression.
func (it *icebergTable) wholeFiles(ctx context.Context, filters []planner.Expr) ([]scan.FileScanTask, bool, error) {
	var filter expr.Expr
	if len(filters) > 0 {
		if !partitionColumnsOnly(it.t.Metadata(), it.schema, filters) {
			return nil, false, nil
		}
		f, ok := pushdown.Exact(it.arrow, filters)
		if !ok {
			return nil, false, nil
		}
		filter = f
	}
	tasks, _, err := scan.Plan(ctx, opener(ctx, it.t.IO()), it.t.Metadata(), it.snap.SnapshotID, filter, scan.Options{Schema: it.schema, Cache: it.manifests})
	if err != nil && filter != nil && errors.Is(err, iceberg.ErrInvalidExpression) {
		return nil, false, nil
	}
	return tasks, err == nil, err
}

// partitionColumnsOnly reports whether filters read only columns some
// partition spec of the table derives a field from: a filter on any other
// column leaves a residual in every file, so planning is not worth it.
func partitionColumnsOnly(meta *iceberg.TableMetadata, schema *iceberg.Schema, filters []planner.Expr) bool {
	sources := map[int]bool{}
	for _, spec := range meta.Specs() {
		for _, f := range spec.Fields {
			sources[f.SourceID] = true
		}
	}
	fields := schema.Fields()
	for c := range planner.ColumnsRead(filters) {
		if c < 0 || c >= len(fields) || !sources[fields[c].ID] {
			return false
		}
	}
	return true
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
