package parquetfile

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// wnode mirrors one Iceberg field for shredding Arrow arrays into Parquet
// column values with explicit repetition and definition levels.
type wnode struct {
	optional bool
	kind     nodeKind
	children []*wnode // struct fields; list: element; map: key, value
	repLevel byte     // list/map: repetition level of the repeated group
	leaf     *leafColumn
	leaves   []*leafColumn // every leaf at or below this node
}

type nodeKind int

const (
	kindLeaf nodeKind = iota
	kindStruct
	kindList
	kindMap
	kindOmitted         // unknown: never written to data files
	kindVariant         // variant: a group of metadata and value (unshredded)
	kindShreddedVariant // read side: a variant group reassembled from value and typed_value
)

// leafColumn is one Parquet column being written: its page buffer,
// chunk encoder and file-level metrics.
type leafColumn struct {
	fieldID    int
	typ        iceberg.Type
	index      int
	maxDef     byte
	maxRep     byte
	repeated   bool // under a list or map: no bounds (as Java)
	decimalLen int  // FIXED_LEN_BYTE_ARRAY decimal width; 0 otherwise
	decimalPhy int  // 32, 64 or 0 for the decimal physical type
	stats      boundStats
	cw         chunkWriter
	valueCount int64
	nullCount  int64
	colSize    int64
}

// buildWriteTree creates the shredding tree for the schema; leaves are
// numbered in Parquet column order (depth first).
func buildWriteTree(s *iceberg.Schema) ([]*wnode, []*leafColumn) {
	var leaves []*leafColumn
	var build func(t iceberg.Type, optional bool, def, rep byte, repeated bool, id int) *wnode
	build = func(t iceberg.Type, optional bool, def, rep byte, repeated bool, id int) *wnode {
		n := &wnode{optional: optional}
		if optional {
			def++
		}
		switch t := t.(type) {
		case iceberg.UnknownType:
			// not stored (spec): a node with no leaves writes nothing
			n.kind = kindOmitted
		case iceberg.VariantType:
			// metadata and value: binary leaves with no field ids
			n.kind = kindVariant
			n.children = []*wnode{
				build(iceberg.BinaryType{}, false, def, rep, repeated, 0),
				build(iceberg.BinaryType{}, false, def, rep, repeated, 0),
			}
		case *iceberg.StructType:
			n.kind = kindStruct
			for _, f := range t.FieldList {
				n.children = append(n.children, build(f.Type, !f.Required, def, rep, repeated, f.ID))
			}
		case *iceberg.ListType:
			n.kind = kindList
			n.repLevel = rep + 1
			n.children = []*wnode{build(t.Element, !t.ElementRequired, def+1, rep+1, true, t.ElementID)}
		case *iceberg.MapType:
			n.kind = kindMap
			n.repLevel = rep + 1
			n.children = []*wnode{
				build(t.Key, false, def+1, rep+1, true, t.KeyID),
				build(t.Value, !t.ValueRequired, def+1, rep+1, true, t.ValueID),
			}
		default:
			n.kind = kindLeaf
			lc := &leafColumn{fieldID: id, typ: t, index: len(leaves), maxDef: def, maxRep: rep, repeated: repeated}
			if d, ok := t.(iceberg.DecimalType); ok {
				switch {
				case d.Precision <= 9:
					lc.decimalPhy = 32
				case d.Precision <= 18:
					lc.decimalPhy = 64
				default:
					lc.decimalLen = decimalBytes(d.Precision)
				}
			}
			lc.stats.init(t, repeated)
			n.leaf = lc
			leaves = append(leaves, lc)
		}
		return n
	}
	var roots []*wnode
	for _, f := range s.Fields() {
		roots = append(roots, build(f.Type, !f.Required, 0, 0, false, f.ID))
	}
	var fix func(n *wnode) []*leafColumn
	fix = func(n *wnode) []*leafColumn {
		if n.kind == kindLeaf {
			n.leaves = []*leafColumn{n.leaf}
			return n.leaves
		}
		var all []*leafColumn
		for _, c := range n.children {
			all = append(all, fix(c)...)
		}
		n.leaves = all
		return all
	}
	for _, r := range roots {
		fix(r)
	}
	return roots, leaves
}

// emitRows shreds rows [from, to) of arr (the column of node n).
func (n *wnode) emitRows(arr arrow.Array, from, to int) error {
	if n.kind == kindOmitted {
		return nil
	}
	if n.kind == kindLeaf {
		return n.leaf.appendFlat(arr, from, to, n.optional)
	}
	for i := from; i < to; i++ {
		if err := n.emit(arr, i, 0, 0); err != nil {
			return err
		}
	}
	return nil
}

// emit shreds element i of arr; def is the definition level of the slot
// (the parent is present), rep the repetition level of the first value.
func (n *wnode) emit(arr arrow.Array, i int, rep, def byte) error {
	if n.kind == kindOmitted {
		return nil
	}
	if n.optional {
		if sqlNull(arr, i) {
			n.emitNulls(rep, def)
			return nil
		}
		def++
	}
	switch n.kind {
	case kindLeaf:
		n.leaf.appendLevels(rep, def)
		return n.leaf.appendValue(arr, i)
	case kindStruct:
		st := arr.(*array.Struct)
		for k, c := range n.children {
			if err := c.emit(st.Field(k), i, rep, def); err != nil {
				return err
			}
		}
	case kindVariant:
		meta, value, err := variantParts(arr)
		if err != nil {
			return err
		}
		if err := n.children[0].emit(meta, i, rep, def); err != nil {
			return err
		}
		return n.children[1].emit(value, i, rep, def)
	case kindList:
		la := arr.(*array.List)
		start, end := la.ValueOffsets(i)
		if start == end {
			n.emitNulls(rep, def)
			return nil
		}
		values := la.ListValues()
		for j := start; j < end; j++ {
			if err := n.children[0].emit(values, int(j), rep, def+1); err != nil {
				return err
			}
			rep = n.repLevel
		}
	case kindMap:
		ma := arr.(*array.Map)
		start, end := ma.ValueOffsets(i)
		if start == end {
			n.emitNulls(rep, def)
			return nil
		}
		keys, items := ma.Keys(), ma.Items()
		for j := start; j < end; j++ {
			if err := n.children[0].emit(keys, int(j), rep, def+1); err != nil {
				return err
			}
			if err := n.children[1].emit(items, int(j), rep, def+1); err != nil {
				return err
			}
			rep = n.repLevel
		}
	}
	return nil
}

func (n *wnode) emitNulls(rep, def byte) {
	for _, l := range n.leaves {
		l.appendLevels(rep, def)
	}
}

func (l *leafColumn) appendLevels(rep, def byte) {
	p := &l.cw.page
	if l.maxRep > 0 {
		p.rep = append(p.rep, rep)
	}
	if l.maxDef > 0 {
		p.def = append(p.def, def)
	}
	p.entries++
}

// appendValue appends the non-null element i of a primitive array (already
// of the table's Arrow type) to the page.
func (l *leafColumn) appendValue(arr arrow.Array, i int) error {
	p := &l.cw.page
	switch a := arrowschema.Storage(arr).(type) { // a uuid's storage is FixedSizeBinary(16)
	case *array.Boolean:
		p.bools = append(p.bools, a.Value(i))
	case *array.Int32:
		p.i32 = append(p.i32, a.Value(i))
	case *array.Int64:
		p.i64 = append(p.i64, a.Value(i))
	case *array.Float32:
		p.f32 = append(p.f32, a.Value(i))
	case *array.Float64:
		p.f64 = append(p.f64, a.Value(i))
	case *array.Date32:
		p.i32 = append(p.i32, int32(a.Value(i)))
	case *array.Time64:
		p.i64 = append(p.i64, int64(a.Value(i)))
	case *array.Timestamp:
		p.i64 = append(p.i64, int64(a.Value(i)))
	case *array.String:
		p.bin = append(p.bin, a.Value(i)...)
		p.off = append(p.off, uint32(len(p.bin)))
	case *array.Binary:
		p.bin = append(p.bin, a.Value(i)...)
		p.off = append(p.off, uint32(len(p.bin)))
	case *array.FixedSizeBinary:
		p.bin = append(p.bin, a.Value(i)...)
	case *array.Decimal128:
		l.appendDecimal(a.Value(i))
	default:
		return fmt.Errorf("%w: arrow %v for column %d", iceberg.ErrTypeMismatch, arr.DataType(), l.fieldID)
	}
	return nil
}

// appendDecimal stores a decimal in its physical form (precision was
// checked by checkDecimals before any value was buffered).
func (l *leafColumn) appendDecimal(num decimal128.Num) {
	p := &l.cw.page
	switch l.decimalPhy {
	case 32:
		p.i32 = append(p.i32, int32(num.LowBits()))
	case 64:
		p.i64 = append(p.i64, int64(num.LowBits()))
	default:
		var be [16]byte
		binary.BigEndian.PutUint64(be[:8], uint64(num.HighBits()))
		binary.BigEndian.PutUint64(be[8:], num.LowBits())
		p.bin = append(p.bin, be[16-l.decimalLen:]...)
	}
}
