package parquetfile

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// A shredded variant column (VariantShredding.md in parquet-format) is a
// group of metadata, an optional value and a typed_value: a primitive
// column, a group of shredded object fields (each a group of its own
// value and typed_value) or a 3-level LIST of element groups (value and
// typed_value again). Its columns are read like any nested columns
// (Arrow arrays of the file's types), and each batch is reassembled into
// the unshredded encoding (metadata, value) the rest of icesql reads
// (variant_assemble.go): a shredded file reads as the same values as an
// unshredded one.

// shredKind is the shape of a typed_value.
type shredKind uint8

const (
	shredPrimitive shredKind = iota
	shredObject
	shredArray
)

// shredPair is a group of value and typed_value: the variant group itself
// or a shredded object field or array element. value and typed are the
// indexes of those columns among the group node's children (-1: absent).
type shredPair struct {
	col          string // the group's path in the file, for errors
	value, typed int
	shape        *shredType // typed_value's shape; nil when absent
}

// shredType is the shape of a typed_value column.
type shredType struct {
	kind   shredKind
	prim   byte // shredPrimitive: the variant primitive type id
	scale  byte // decimals
	names  []string
	fields []shredPair // shredObject: the fields, as names
	elem   *shredPair  // shredArray: the element group
}

// Variant primitive type ids (VariantEncoding.md).
const (
	vpNull          = 0
	vpTrue          = 1
	vpFalse         = 2
	vpInt8          = 3
	vpInt16         = 4
	vpInt32         = 5
	vpInt64         = 6
	vpDouble        = 7
	vpDecimal4      = 8
	vpDecimal8      = 9
	vpDecimal16     = 10
	vpDate          = 11
	vpTimestampTz   = 12
	vpTimestampNtz  = 13
	vpFloat         = 14
	vpBinary        = 15
	vpString        = 16
	vpTime          = 17
	vpTimestampTzNs = 18
	vpTimestampNs   = 19
	vpUUID          = 20
)

// isShreddedVariant reports a variant group read through reassembly: one
// with a typed_value, or whose value is optional (a null value with no
// typed_value is a missing value, read as a variant null).
func isShreddedVariant(c *parquet.Column) bool {
	for _, child := range c.Columns() {
		switch child.Name() {
		case "typed_value":
			return true
		case "value":
			if child.Optional() {
				return true
			}
		}
	}
	return false
}

// bindShreddedVariant binds a shredded variant group: n's children are the
// metadata leaf, then the value and typed_value nodes present.
func (b *binder) bindShreddedVariant(n *rnode, c *parquet.Column, path []string, slotDef, rep byte) error {
	col := strings.Join(path, ".")
	var meta *parquet.Column
	for _, child := range c.Columns() {
		if child.Name() == "metadata" {
			meta = child
		}
	}
	if meta == nil || !meta.Leaf() || meta.Repeated() || meta.Type().Kind() != parquet.ByteArray {
		return shredErr(col, "no binary metadata column")
	}
	mn := b.shredLeaf(meta, iceberg.BinaryType{}, col+".metadata", slotDef, rep)
	n.children = []*rnode{mn}
	n.kind = kindShreddedVariant
	pair, err := b.bindShredPair(n, c, col, slotDef, rep)
	if err != nil {
		return err
	}
	// the indexes count from the nodes after metadata
	if pair.value >= 0 {
		pair.value++
	}
	if pair.typed >= 0 {
		pair.typed++
	}
	n.variant = &pair
	return nil
}

// bindShredPair binds the value and typed_value columns of group c,
// appending their nodes to parent's children, and returns their indexes
// among the nodes appended (value first).
func (b *binder) bindShredPair(parent *rnode, c *parquet.Column, col string, slotDef, rep byte) (shredPair, error) {
	p := shredPair{col: col, value: -1, typed: -1}
	var value, typed *parquet.Column
	for _, child := range c.Columns() {
		switch child.Name() {
		case "value":
			value = child
		case "typed_value":
			typed = child
		default:
			if parent.kind != kindShreddedVariant || child.Name() != "metadata" {
				return p, shredErr(col, fmt.Sprintf("unexpected column %q beside value and typed_value", child.Name()))
			}
		}
	}
	if value == nil && typed == nil {
		return p, shredErr(col, "neither value nor typed_value is present")
	}
	k := 0
	if value != nil {
		if !value.Leaf() || value.Repeated() || value.Type().Kind() != parquet.ByteArray {
			return p, shredErr(col, "value is not an optional binary column")
		}
		parent.children = append(parent.children, b.shredLeaf(value, iceberg.BinaryType{}, col+".value", slotDef, rep))
		p.value = k
		k++
	}
	if typed != nil {
		tn, shape, err := b.bindShredTyped(typed, col+".typed_value", slotDef, rep)
		if err != nil {
			return p, err
		}
		parent.children = append(parent.children, tn)
		p.typed, p.shape = k, shape
	}
	return p, nil
}

// bindShredGroup binds a group of value and typed_value (an object field
// or an array element) as a struct node of them.
func (b *binder) bindShredGroup(c *parquet.Column, col string, slotDef, rep byte) (*rnode, shredPair, error) {
	if c.Leaf() || c.Repeated() || isListColumn(c) || isMapColumn(c) {
		return nil, shredPair{}, shredErr(col, "a shredded field or element is not a group of value and typed_value")
	}
	first := len(b.leaves)
	n := &rnode{kind: kindStruct, field: iceberg.NestedField{Name: col}, slotDef: slotDef, rep: rep, defPresent: byte(c.MaxDefinitionLevel())}
	p, err := b.bindShredPair(n, c, col, slotDef, rep)
	if err != nil {
		return nil, p, err
	}
	n.arrowType = structOfChildren(n.children)
	n.leaves = b.leaves[first:len(b.leaves):len(b.leaves)]
	return n, p, nil
}

// bindShredTyped binds a typed_value column: an object's group of fields,
// an array's LIST, or a primitive leaf.
func (b *binder) bindShredTyped(c *parquet.Column, col string, slotDef, rep byte) (*rnode, *shredType, error) {
	if c.Repeated() {
		return nil, nil, shredErr(col, "typed_value is repeated")
	}
	first := len(b.leaves)
	n := &rnode{field: iceberg.NestedField{Name: col}, slotDef: slotDef, rep: rep, defPresent: byte(c.MaxDefinitionLevel())}
	var shape *shredType
	switch {
	case c.Leaf():
		t, prim, scale, err := shreddedPrimitive(c.Type())
		if err != nil {
			return nil, nil, shredErr(col, err.Error())
		}
		n = b.shredLeaf(c, t, col, slotDef, rep)
		return n, &shredType{kind: shredPrimitive, prim: prim, scale: scale}, nil
	case isListColumn(c):
		group, elem := listElement(c, int(rep))
		if elem == nil || group == elem {
			return nil, nil, shredErr(col, "typed_value is a LIST but not a 3-level list of element groups")
		}
		en, ep, err := b.bindShredGroup(elem, col+".element", byte(group.MaxDefinitionLevel()), byte(group.MaxRepetitionLevel()))
		if err != nil {
			return nil, nil, err
		}
		n.kind = kindList
		n.children = []*rnode{en}
		n.arrowType = arrow.ListOf(en.arrowType)
		shape = &shredType{kind: shredArray, elem: &ep}
	case isMapColumn(c):
		return nil, nil, shredErr(col, "typed_value is a MAP (a variant shreds objects as groups)")
	default:
		n.kind = kindStruct
		shape = &shredType{kind: shredObject}
		seen := map[string]bool{}
		for _, f := range c.Columns() {
			if seen[f.Name()] {
				return nil, nil, shredErr(col, fmt.Sprintf("field %q is shredded twice", f.Name()))
			}
			seen[f.Name()] = true
			fn, fp, err := b.bindShredGroup(f, col+"."+f.Name(), slotDef, rep)
			if err != nil {
				return nil, nil, err
			}
			n.children = append(n.children, fn)
			shape.names = append(shape.names, f.Name())
			shape.fields = append(shape.fields, fp)
		}
		if len(n.children) == 0 {
			return nil, nil, shredErr(col, "typed_value is a group without fields")
		}
		n.arrowType = structOfChildren(n.children)
	}
	n.leaves = b.leaves[first:len(b.leaves):len(b.leaves)]
	return n, shape, nil
}

// shredLeaf binds a leaf of a shredded variant, read as Iceberg type t in
// the file's own unit (timestamps are not scaled: the variant keeps the
// unit the column has).
func (b *binder) shredLeaf(c *parquet.Column, t iceberg.Type, col string, slotDef, rep byte) *rnode {
	at, _ := arrowschema.TypeToArrow(t)
	n := &rnode{kind: kindLeaf, field: iceberg.NestedField{Name: col, Type: t}, arrowType: at,
		slotDef: slotDef, rep: rep, defPresent: byte(c.MaxDefinitionLevel())}
	n.leaf = &rleaf{col: c, fileType: t, timeUnit: 1}
	b.leaves = append(b.leaves, n.leaf)
	n.leaves = b.leaves[len(b.leaves)-1 : len(b.leaves) : len(b.leaves)]
	return n
}

func structOfChildren(children []*rnode) arrow.DataType {
	fields := make([]arrow.Field, len(children))
	for i, c := range children {
		fields[i] = arrow.Field{Name: fmt.Sprint("f", i), Type: c.arrowType, Nullable: true}
	}
	return arrow.StructOf(fields...)
}

// shreddedPrimitive maps a typed_value leaf's Parquet type to the Iceberg
// type its values are read as and the variant primitive they become, by
// the table of "Shredded Value Types"; other types are refused.
func shreddedPrimitive(t parquet.Type) (iceberg.Type, byte, byte, error) {
	var lt format.LogicalTypeValue
	if l := t.LogicalType(); l != nil {
		lt = l.Value
	}
	unsupported := func() (iceberg.Type, byte, byte, error) {
		what := strings.ToLower(t.Kind().String())
		if t.Kind() == parquet.FixedLenByteArray {
			what = fmt.Sprintf("fixed_len_byte_array(%d)", t.Length())
		}
		if lt != nil {
			what += " " + lt.String()
		}
		return nil, 0, 0, fmt.Errorf("unsupported shredded value type %s", what)
	}
	decimal := func(d *format.DecimalType, max int32, prim byte) (iceberg.Type, byte, byte, error) {
		if d.Precision < 1 || d.Precision > max || d.Scale < 0 || d.Scale > d.Precision {
			return unsupported()
		}
		return iceberg.DecimalType{Precision: int(d.Precision), Scale: int(d.Scale)}, prim, byte(d.Scale), nil
	}
	switch t.Kind() {
	case parquet.Boolean:
		if lt == nil {
			return iceberg.BooleanType{}, vpTrue, 0, nil
		}
	case parquet.Int32:
		switch l := lt.(type) {
		case nil:
			return iceberg.IntType{}, vpInt32, 0, nil
		case *format.IntType:
			if !l.IsSigned {
				return unsupported()
			}
			switch l.BitWidth {
			case 8:
				return iceberg.IntType{}, vpInt8, 0, nil
			case 16:
				return iceberg.IntType{}, vpInt16, 0, nil
			case 32:
				return iceberg.IntType{}, vpInt32, 0, nil
			}
		case *format.DecimalType:
			return decimal(l, 9, vpDecimal4)
		case *format.DateType:
			return iceberg.DateType{}, vpDate, 0, nil
		}
	case parquet.Int64:
		switch l := lt.(type) {
		case nil:
			return iceberg.LongType{}, vpInt64, 0, nil
		case *format.IntType:
			if l.IsSigned && l.BitWidth == 64 {
				return iceberg.LongType{}, vpInt64, 0, nil
			}
		case *format.DecimalType:
			return decimal(l, 18, vpDecimal8)
		case *format.TimeType:
			if _, micros := l.Unit.Value.(*format.MicroSeconds); micros && !l.IsAdjustedToUTC {
				return iceberg.TimeType{}, vpTime, 0, nil
			}
		case *format.TimestampType:
			switch l.Unit.Value.(type) {
			case *format.MicroSeconds:
				if l.IsAdjustedToUTC {
					return iceberg.TimestampTzType{}, vpTimestampTz, 0, nil
				}
				return iceberg.TimestampType{}, vpTimestampNtz, 0, nil
			case *format.NanoSeconds:
				if l.IsAdjustedToUTC {
					return iceberg.TimestampTzNsType{}, vpTimestampTzNs, 0, nil
				}
				return iceberg.TimestampNsType{}, vpTimestampNs, 0, nil
			}
		}
	case parquet.Float:
		if lt == nil {
			return iceberg.FloatType{}, vpFloat, 0, nil
		}
	case parquet.Double:
		if lt == nil {
			return iceberg.DoubleType{}, vpDouble, 0, nil
		}
	case parquet.ByteArray:
		switch l := lt.(type) {
		case nil:
			return iceberg.BinaryType{}, vpBinary, 0, nil
		case *format.StringType:
			return iceberg.StringType{}, vpString, 0, nil
		case *format.DecimalType:
			return decimal(l, 38, vpDecimal16)
		}
	case parquet.FixedLenByteArray:
		switch l := lt.(type) {
		case *format.UUIDType:
			if t.Length() == 16 {
				return iceberg.UUIDType{}, vpUUID, 0, nil
			}
		case *format.DecimalType:
			if t.Length() <= 16 {
				return decimal(l, 38, vpDecimal16)
			}
		}
	}
	return unsupported()
}
