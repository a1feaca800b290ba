package sqlexec

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// unifiedPartition is the partition struct of the files, entries and
// partitions tables, as Java's Partitioning.partitionType builds it: the
// union of every spec's fields by partition field id, in id order, named
// as in the newest spec that has them. A file's tuple has NULL for the
// fields its own spec lacks.
type unifiedPartition struct {
	ids   []int
	typ   *iceberg.StructType
	specs map[int]map[int]int // spec id -> field id -> position in the file's tuple
}

func newUnifiedPartition(meta *iceberg.TableMetadata) (*unifiedPartition, error) {
	specs := append([]*iceberg.PartitionSpec(nil), meta.Specs()...)
	// Newest spec first, so its names win.
	sort.Slice(specs, func(i, j int) bool { return specs[i].ID > specs[j].ID })
	u := &unifiedPartition{specs: map[int]map[int]int{}}
	fields := map[int]iceberg.NestedField{}
	voids := map[int]bool{}
	for _, spec := range specs {
		pos := map[int]int{}
		for i, pf := range spec.Fields {
			pos[pf.FieldID] = i
			rt, err := partitionFieldType(meta, pf)
			if err != nil {
				return nil, err
			}
			_, isVoid := pf.Transform.(iceberg.VoidTransform)
			prev, seen := fields[pf.FieldID]
			switch {
			case !seen:
				fields[pf.FieldID] = iceberg.NestedField{ID: pf.FieldID, Name: pf.Name, Type: rt}
				voids[pf.FieldID] = isVoid
			case voids[pf.FieldID] && !isVoid:
				// A v1 table replaces a dropped field by a void transform
				// under the same id; the real type is the older one.
				prev.Type = rt
				fields[pf.FieldID] = prev
				voids[pf.FieldID] = false
			case !isVoid && !iceberg.TypesEqual(prev.Type, rt):
				return nil, fmt.Errorf("%w: partition field id %d has type %s in spec %d and %s in another spec",
					iceberg.ErrInvalidMetadata, pf.FieldID, rt, spec.ID, prev.Type)
			}
		}
		u.specs[spec.ID] = pos
	}
	for id := range fields {
		u.ids = append(u.ids, id)
	}
	sort.Ints(u.ids)
	u.typ = &iceberg.StructType{FieldList: make([]iceberg.NestedField, len(u.ids))}
	for i, id := range u.ids {
		u.typ.FieldList[i] = fields[id]
	}
	return u, nil
}

// partitionFieldType is a partition field's result type, from the
// newest schema that still has its source column.
func partitionFieldType(meta *iceberg.TableMetadata, pf iceberg.PartitionField) (iceberg.Type, error) {
	schemas := meta.Schemas()
	for _, s := range append([]*iceberg.Schema{meta.CurrentSchema()}, schemas...) {
		if src, ok := s.FindFieldByID(pf.SourceID); ok {
			return pf.Transform.ResultType(src.Type), nil
		}
	}
	switch pf.Transform.(type) {
	case iceberg.VoidTransform:
		return iceberg.IntType{}, nil
	case iceberg.UnknownTransform:
		return iceberg.StringType{}, nil
	}
	return nil, fmt.Errorf("%w: partition field %q: source field %d is in no schema", iceberg.ErrInvalidPartitionSpec, pf.Name, pf.SourceID)
}

// arrowType is the Arrow form of the unified struct.
func (u *unifiedPartition) arrowType() (arrow.DataType, error) {
	return arrowschema.TypeToArrow(u.typ)
}

// tuple is a file's partition in the unified struct.
func (u *unifiedPartition) tuple(f iceberg.DataFile) []any {
	out := make([]any, len(u.ids))
	pos, ok := u.specs[f.SpecID]
	if !ok {
		return out
	}
	for i, id := range u.ids {
		if j, ok := pos[id]; ok && j < len(f.Partition) {
			out[i] = f.Partition[j]
		}
	}
	return out
}
