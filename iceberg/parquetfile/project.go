package parquetfile

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// rnode binds one projected Iceberg field to the file column holding it.
type rnode struct {
	kind       nodeKind
	field      iceberg.NestedField
	arrowType  arrow.DataType
	missing    bool // not in the file: a constant, the initial default or nulls
	defPresent byte // definition level when this field is non-null
	slotDef    byte // definition level at which this field's slot exists
	rep        byte // repetition level of the field's slots
	children   []*rnode
	leaf       *rleaf     // kindLeaf only
	leaves     []*rleaf   // leaves at or below (empty when missing)
	variant    *shredPair // kindShreddedVariant: how value and typed_value reassemble
}

// rleaf is a file column read for the projection.
type rleaf struct {
	col      *parquet.Column
	fileType iceberg.Type
	timeUnit int64 // multiplier to the table type's unit (negative: divisor)
	unsigned bool  // INT(32, false): int32 values widen as uint32
	chunk    chunkData
	entry    int         // next entry of the current row group
	value    int         // next value of the current row group
	lender   *bodyLender // ReadOptions.Scratch: takes the pages' bodies back
}

type binder struct {
	mapping   NameMapping
	constants map[int]any // values of fields missing from the file
	leaves    []*rleaf
}

func (b *binder) bindFields(fields []iceberg.NestedField, parent *parquet.Column, path []string, slotDef, rep byte) ([]*rnode, error) {
	byID := map[int]*parquet.Column{}
	for _, c := range parent.Columns() {
		if id, ok := columnID(c, append(path, c.Name()), b.mapping); ok {
			byID[id] = c
		}
	}
	out := make([]*rnode, 0, len(fields))
	for _, f := range fields {
		n, err := b.bind(f, byID[f.ID], append(path, f.Name), slotDef, rep)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func (b *binder) bind(f iceberg.NestedField, c *parquet.Column, path []string, slotDef, rep byte) (*rnode, error) {
	at, err := arrowschema.TypeToArrow(f.Type)
	if err != nil {
		return nil, err
	}
	n := &rnode{field: f, arrowType: at, slotDef: slotDef, rep: rep}
	if _, unknown := f.Type.(iceberg.UnknownType); unknown {
		// the spec: whatever a file holds for an unknown column is ignored;
		// only the levels of a leaf are read (they give the nulls and
		// lengths of the structs and lists above it, which may have no
		// other leaf), its values never.
		if c != nil && c.Leaf() && !bareRepeated(c, int(rep)) {
			n.defPresent = byte(c.MaxDefinitionLevel())
			n.kind = kindLeaf
			n.leaf = &rleaf{col: c, fileType: iceberg.UnknownType{}}
			b.leaves = append(b.leaves, n.leaf)
			n.leaves = b.leaves[len(b.leaves)-1 : len(b.leaves) : len(b.leaves)]
			return n, nil
		}
		c = nil
	}
	if c == nil {
		if v, ok := b.constants[f.ID]; ok {
			n.missing, n.field.InitialDefault = true, v
			return n, nil
		}
		if f.Required && f.InitialDefault == nil {
			return nil, fmt.Errorf("%w: required field %q (id %d) is missing from the file", iceberg.ErrInvalidDataFile, f.Name, f.ID)
		}
		n.missing = true
		return n, nil
	}
	n.defPresent = byte(c.MaxDefinitionLevel())
	first := len(b.leaves)
	mismatch := func() error {
		return fmt.Errorf("%w: field %q (id %d) is %v in the table but a different kind of column in the file", iceberg.ErrTypeMismatch, f.Name, f.ID, f.Type)
	}
	switch t := f.Type.(type) {
	case iceberg.VariantType:
		if err := b.bindVariant(n, c, path, slotDef, rep); err != nil {
			return nil, err
		}
	case *iceberg.StructType:
		if c.Leaf() || isListColumn(c) || isMapColumn(c) || bareRepeated(c, int(rep)) {
			return nil, mismatch()
		}
		n.kind = kindStruct
		if n.children, err = b.bindFields(t.FieldList, c, path, slotDef, rep); err != nil {
			return nil, err
		}
	case *iceberg.ListType:
		group, elem := listElement(c, int(rep))
		if elem == nil {
			return nil, mismatch()
		}
		n.kind = kindList
		if group == c {
			// an unannotated repeated field: a required list of itself
			n.defPresent = slotDef
		}
		ef := t.ElementField()
		if id, ok := columnID(elem, append(path, "element"), b.mapping); !ok || id != ef.ID {
			elem = nil
		}
		child, err := b.bind(ef, elem, append(path, "element"), byte(group.MaxDefinitionLevel()), byte(group.MaxRepetitionLevel()))
		if err != nil {
			return nil, err
		}
		n.children = []*rnode{child}
	case *iceberg.MapType:
		group, k, v := mapKeyValue(c, int(rep))
		if k == nil {
			return nil, mismatch()
		}
		n.kind = kindMap
		gd, gr := byte(group.MaxDefinitionLevel()), byte(group.MaxRepetitionLevel())
		kn, err := b.bind(t.KeyField(), k, append(path, "key"), gd, gr)
		if err != nil {
			return nil, err
		}
		// a map without values (LogicalTypes.md allows one) reads its
		// values as missing: nulls or the value's default
		if v != nil {
			if id, ok := columnID(v, append(path, "value"), b.mapping); !ok || id != t.ValueID {
				v = nil
			}
		}
		vn, err := b.bind(t.ValueField(), v, append(path, "value"), gd, gr)
		if err != nil {
			return nil, err
		}
		n.children = []*rnode{kn, vn}
	default:
		if !c.Leaf() || bareRepeated(c, int(rep)) {
			return nil, mismatch()
		}
		ft, err := primitiveFromParquet(c.Type())
		if err != nil {
			return nil, namedCRSError(err, path)
		}
		if !readableAs(ft, f.Type) {
			return nil, fmt.Errorf("%w: field %q (id %d) is %v in the file, cannot read as %v", iceberg.ErrTypeMismatch, f.Name, f.ID, ft, f.Type)
		}
		n.kind = kindLeaf
		n.leaf = &rleaf{col: c, fileType: ft, timeUnit: timeUnitTo(c.Type(), f.Type), unsigned: isUnsigned32(c.Type())}
		b.leaves = append(b.leaves, n.leaf)
	}
	n.leaves = b.leaves[first:len(b.leaves):len(b.leaves)]
	if n.kind != kindLeaf && len(n.leaves) == 0 {
		// Nothing of this field is read (all children missing): there is no
		// leaf to take its nulls from, so it cannot be reconstructed.
		return nil, fmt.Errorf("%w: none of the columns of field %q (id %d) are in the file", iceberg.ErrUnsupported, f.Name, f.ID)
	}
	return n, nil
}

// readableAs is Iceberg type promotion plus the representations other
// writers use for the same values.
func readableAs(file, table iceberg.Type) bool {
	if iceberg.CanPromote(file, table) {
		return true
	}
	switch table.(type) {
	case iceberg.GeometryType, iceberg.GeographyType:
		return geoReadableAs(file, table)
	case iceberg.StringType:
		_, ok := file.(iceberg.BinaryType)
		return ok
	case iceberg.BinaryType:
		_, ok := file.(iceberg.StringType)
		return ok
	case iceberg.UUIDType:
		ft, ok := file.(iceberg.FixedType)
		return ok && ft.Length == 16
	case iceberg.FixedType:
		_, ok := file.(iceberg.UUIDType)
		return ok && table.(iceberg.FixedType).Length == 16
	case iceberg.TimestampType, iceberg.TimestampTzType, iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		// other writers' timestamps of any unit are scaled to the table's
		switch file.(type) {
		case iceberg.TimestampType, iceberg.TimestampTzType, iceberg.TimestampNsType, iceberg.TimestampTzNsType:
			return true
		}
	}
	return false
}

// timeUnit returns the factor that turns the column's time or timestamp
// values into microseconds (negative for a divisor).
func timeUnit(t parquet.Type) int64 {
	lt := t.LogicalType()
	if lt == nil {
		return 1
	}
	var u format.TimeUnit
	switch l := lt.Value.(type) {
	case *format.TimestampType:
		u = l.Unit
	case *format.TimeType:
		u = l.Unit
	default:
		return 1
	}
	switch u.Value.(type) {
	case *format.MilliSeconds:
		return 1000
	case *format.NanoSeconds:
		return -1000
	}
	return 1
}
