package parquetfile

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go"
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
)

// leafColumn buffers the values of one Parquet column and its metrics.
type leafColumn struct {
	fieldID    int
	typ        iceberg.Type
	index      int
	maxDef     byte
	maxRep     byte
	repeated   bool // under a list or map: no bounds (as Java)
	values     []parquet.Value
	scratch    []byte // big-endian decimal bytes referenced by values
	decimalLen int    // FIXED_LEN_BYTE_ARRAY decimal width; 0 otherwise
	decimalPhy int    // 32, 64 or 0 for the decimal physical type
	stats      boundStats
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
	if n.optional {
		if arr.IsNull(i) {
			n.emitNulls(rep, def)
			return nil
		}
		def++
	}
	switch n.kind {
	case kindLeaf:
		v, err := n.leaf.value(arr, i)
		if err != nil {
			return err
		}
		n.leaf.push(v.Level(int(rep), int(def), n.leaf.index))
	case kindStruct:
		st := arr.(*array.Struct)
		for k, c := range n.children {
			if err := c.emit(st.Field(k), i, rep, def); err != nil {
				return err
			}
		}
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
		l.values = append(l.values, parquet.NullValue().Level(int(rep), int(def), l.index))
	}
}

func (l *leafColumn) push(v parquet.Value) {
	l.values = append(l.values, v)
	l.stats.observe(v)
}

// appendFlat is the fast path for a top-level primitive column.
func (l *leafColumn) appendFlat(arr arrow.Array, from, to int, optional bool) error {
	if l.decimalLen > 0 {
		l.scratch = make([]byte, 0, (to-from)*l.decimalLen)
	}
	def := 0
	if optional {
		def = 1
	}
	hasNulls := arr.NullN() > 0
	for i := from; i < to; i++ {
		if hasNulls && arr.IsNull(i) {
			l.values = append(l.values, parquet.NullValue().Level(0, 0, l.index))
			continue
		}
		v, err := l.value(arr, i)
		if err != nil {
			return err
		}
		v = v.Level(0, def, l.index)
		l.values = append(l.values, v)
		l.stats.observe(v)
	}
	return nil
}

// value converts element i of a primitive array (already of the table's
// Arrow type) to a Parquet value without levels.
func (l *leafColumn) value(arr arrow.Array, i int) (parquet.Value, error) {
	switch a := arr.(type) {
	case *array.Boolean:
		return parquet.BooleanValue(a.Value(i)), nil
	case *array.Int32:
		return parquet.Int32Value(a.Value(i)), nil
	case *array.Int64:
		return parquet.Int64Value(a.Value(i)), nil
	case *array.Float32:
		return parquet.FloatValue(a.Value(i)), nil
	case *array.Float64:
		return parquet.DoubleValue(a.Value(i)), nil
	case *array.Date32:
		return parquet.Int32Value(int32(a.Value(i))), nil
	case *array.Time64:
		return parquet.Int64Value(int64(a.Value(i))), nil
	case *array.Timestamp:
		return parquet.Int64Value(int64(a.Value(i))), nil
	case *array.String:
		// The value only borrows the bytes: WriteRowValues copies them.
		v := a.Value(i)
		return parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(v), len(v))), nil
	case *array.Binary:
		return parquet.ByteArrayValue(a.Value(i)), nil
	case *array.FixedSizeBinary:
		return parquet.FixedLenByteArrayValue(a.Value(i)), nil
	case *array.Decimal128:
		num := a.Value(i)
		if p := l.typ.(iceberg.DecimalType).Precision; !num.FitsInPrecision(int32(p)) {
			return parquet.Value{}, fmt.Errorf("%w: decimal %s does not fit precision %d (column %d)", iceberg.ErrTypeMismatch, num.ToString(0), p, l.fieldID)
		}
		switch l.decimalPhy {
		case 32:
			return parquet.Int32Value(int32(num.LowBits())), nil
		case 64:
			return parquet.Int64Value(int64(num.LowBits())), nil
		}
		var be [16]byte
		binary.BigEndian.PutUint64(be[:8], uint64(num.HighBits()))
		binary.BigEndian.PutUint64(be[8:], num.LowBits())
		start := len(l.scratch)
		if cap(l.scratch)-start < l.decimalLen {
			// A fresh arena: earlier values keep pointing at the old one.
			l.scratch = make([]byte, 0, max(4096, 64*l.decimalLen))
			start = 0
		}
		l.scratch = append(l.scratch, be[16-l.decimalLen:]...)
		return parquet.FixedLenByteArrayValue(l.scratch[start:]), nil
	}
	return parquet.Value{}, fmt.Errorf("%w: arrow %v for column %d", iceberg.ErrTypeMismatch, arr.DataType(), l.fieldID)
}
