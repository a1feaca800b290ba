package datafile

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

const (
	microsPerHour = int64(3_600_000_000)
	microsPerDay  = 24 * microsPerHour
)

// partitioner groups the rows of a batch by partition. Per partition field
// it computes a cheap per-row key that refines the transform's result
// (rows with equal keys have equal partition values; e.g. the day number
// for month(ts)), so that only one row per group needs the exact transform.
type partitioner struct {
	schema *iceberg.Schema
	spec   *iceberg.PartitionSpec
	fields []fieldSource
}

// fieldSource locates a partition field's source column in a batch: path is
// the top-level column index followed by struct child indices.
type fieldSource struct {
	field   iceberg.PartitionField
	srcType iceberg.Type
	path    []int
	void    bool
}

func newPartitioner(schema *iceberg.Schema, spec *iceberg.PartitionSpec) (*partitioner, error) {
	p := &partitioner{schema: schema, spec: spec}
	for _, f := range spec.Fields {
		fs := fieldSource{field: f}
		switch f.Transform.(type) {
		case iceberg.VoidTransform:
			fs.void = true
			p.fields = append(p.fields, fs)
			continue
		case iceberg.UnknownTransform:
			return nil, fmt.Errorf("%w: %q uses unknown transform %s", ErrUnsupportedPartition, f.Name, f.Transform)
		}
		src, ok := schema.FindFieldByID(f.SourceID)
		if !ok {
			return nil, fmt.Errorf("%w: %q: source field %d is not in the schema", ErrUnsupportedPartition, f.Name, f.SourceID)
		}
		if !f.Transform.CanTransform(src.Type) {
			return nil, fmt.Errorf("%w: %q: %s cannot transform %s", ErrUnsupportedPartition, f.Name, f.Transform, src.Type)
		}
		path, err := columnPath(schema, f.SourceID)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrUnsupportedPartition, f.Name, err)
		}
		fs.srcType, fs.path = src.Type, path
		p.fields = append(p.fields, fs)
	}
	return p, nil
}

// columnPath finds the positional path to a field reachable through
// structs only.
func columnPath(schema *iceberg.Schema, id int) ([]int, error) {
	var ids []int
	for cur := id; cur != 0; cur = schema.ParentID(cur) {
		ids = append([]int{cur}, ids...)
		if len(ids) > 64 {
			return nil, fmt.Errorf("field %d: nesting too deep", id)
		}
	}
	fields := schema.Fields()
	path := make([]int, 0, len(ids))
	for depth, fid := range ids {
		idx := -1
		for i, f := range fields {
			if f.ID == fid {
				idx = i
				break
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("field %d is inside a list or map", id)
		}
		path = append(path, idx)
		if depth < len(ids)-1 {
			st, ok := fields[idx].Type.(*iceberg.StructType)
			if !ok {
				return nil, fmt.Errorf("field %d is inside a list or map", id)
			}
			fields = st.FieldList
		}
	}
	return path, nil
}

// column resolves the source of fs in rec: the leaf array and the struct
// arrays above it (whose nulls make the value null).
func (fs *fieldSource) column(rec arrow.RecordBatch) (leaf arrow.Array, parents []arrow.Array, err error) {
	if fs.path[0] >= int(rec.NumCols()) {
		return nil, nil, fmt.Errorf("%w: record has no column %d", iceberg.ErrTypeMismatch, fs.path[0])
	}
	leaf = rec.Column(fs.path[0])
	for _, idx := range fs.path[1:] {
		st, ok := leaf.(*array.Struct)
		if !ok || idx >= st.NumField() {
			return nil, nil, fmt.Errorf("%w: partition source of %q is not a struct field", iceberg.ErrTypeMismatch, fs.field.Name)
		}
		parents = append(parents, st)
		leaf = st.Field(idx)
	}
	return leaf, parents, nil
}

// value is the source value of row i in the Go value form.
func (fs *fieldSource) value(leaf arrow.Array, parents []arrow.Array, i int) (any, error) {
	for _, p := range parents {
		if p.IsNull(i) {
			return nil, nil
		}
	}
	return arrowschema.ValueAt(leaf, i, fs.srcType)
}

// batchGroups is the grouping of one batch: group[i] is row i's group, and
// rep[g] a row of group g.
type batchGroups struct {
	group []int32
	rep   []int
}

// group assigns every row of rec to a group of equal partition tuples.
func (p *partitioner) group(rec arrow.RecordBatch) (batchGroups, error) {
	n := int(rec.NumRows())
	out := batchGroups{group: make([]int32, n)}
	codes := make([]int32, n)
	first := true
	for i := range p.fields {
		fs := &p.fields[i]
		if fs.void {
			continue
		}
		leaf, parents, err := fs.column(rec)
		if err != nil {
			return out, err
		}
		if err := fs.codes(leaf, parents, codes); err != nil {
			return out, err
		}
		if first {
			copy(out.group, codes)
			first = false
			continue
		}
		combine(out.group, codes)
	}
	// Representatives: first row of each group id.
	seen := map[int32]bool{}
	for i, g := range out.group {
		if !seen[g] {
			seen[g] = true
			for int(g) >= len(out.rep) {
				out.rep = append(out.rep, -1)
			}
			out.rep[g] = i
		}
	}
	return out, nil
}

// combine folds a field's codes into the running group ids.
func combine(groups, codes []int32) {
	m := map[int64]int32{}
	for i := range groups {
		k := int64(groups[i])<<32 | int64(uint32(codes[i]))
		g, ok := m[k]
		if !ok {
			g = int32(len(m))
			m[k] = g
		}
		groups[i] = g
	}
}

// tuple computes the exact partition tuple of row i.
func (p *partitioner) tuple(rec arrow.RecordBatch, i int) ([]any, error) {
	vals := make(map[int]any, len(p.fields))
	for k := range p.fields {
		fs := &p.fields[k]
		if fs.void {
			continue
		}
		leaf, parents, err := fs.column(rec)
		if err != nil {
			return nil, err
		}
		v, err := fs.value(leaf, parents, i)
		if err != nil {
			return nil, fmt.Errorf("partition field %q: %w", fs.field.Name, err)
		}
		vals[fs.field.SourceID] = v
	}
	return p.spec.Partition(p.schema, func(id int) any { return vals[id] })
}
