package parquetfile

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/parquet-go/parquet-go"
)

// batch assembles Arrow arrays from the leaves' level streams for one
// record batch (Dremel record assembly, column at a time).
type batch struct {
	mem    memory.Allocator
	ranges map[*rleaf][2]int // entry range of the batch per leaf
}

// slots returns the entries of leaf l that start a slot of node n within
// the batch: rep <= n.rep and def >= n.slotDef. nil with dense=true means
// every entry of the range (a leaf outside any list).
func (bt *batch) slots(n *rnode, l *rleaf) (idx []int32, dense bool) {
	rg := bt.ranges[l]
	c := &l.chunk
	if c.maxRep == 0 {
		return nil, true
	}
	for e := rg[0]; e < rg[1]; e++ {
		if c.rep[e] <= n.rep && (c.maxDef == 0 || c.def[e] >= n.slotDef) {
			idx = append(idx, int32(e))
		}
	}
	return idx, false
}

// build returns the array of node n with want slots.
func (bt *batch) build(n *rnode, want int) (arrow.Array, error) {
	if n.missing {
		return bt.constant(n, want)
	}
	l := n.leaves[0]
	idx, dense := bt.slots(n, l)
	count := len(idx)
	if dense {
		rg := bt.ranges[l]
		count = rg[1] - rg[0]
	}
	if count != want {
		return nil, corrupt("column %q: %d values where %d were expected", n.field.Name, count, want)
	}
	if n.kind == kindLeaf {
		return bt.leafArray(n, idx, dense)
	}
	validity, nulls := bt.validity(n, l, idx, dense)
	switch n.kind {
	case kindShreddedVariant:
		return bt.shreddedVariant(n, want, validity, nulls)
	case kindStruct:
		children := make([]arrow.ArrayData, len(n.children))
		defer releaseData(children)
		for i, c := range n.children {
			a, err := bt.build(c, want)
			if err != nil {
				return nil, err
			}
			children[i] = a.Data()
			children[i].Retain()
			a.Release()
		}
		data := array.NewData(n.arrowType, want, []*memory.Buffer{validity, nil}, children, nulls, 0)
		defer data.Release()
		return array.MakeFromData(data), nil
	default: // list or map
		elem := n.children[0]
		eidx, _ := bt.slots(elem, l)
		offsets := make([]int32, want+1)
		end := int32(bt.ranges[l][1])
		j := 0
		for k := 0; k < want; k++ {
			next := end
			if k+1 < want {
				next = idx[k+1]
			}
			for j < len(eidx) && eidx[j] < next {
				j++
			}
			offsets[k+1] = int32(j)
		}
		var child arrow.ArrayData
		if n.kind == kindList {
			a, err := bt.build(elem, len(eidx))
			if err != nil {
				return nil, err
			}
			child = a.Data()
			child.Retain()
			a.Release()
		} else {
			k, err := bt.build(n.children[0], len(eidx))
			if err != nil {
				return nil, err
			}
			v, err := bt.build(n.children[1], len(eidx))
			if err != nil {
				k.Release()
				return nil, err
			}
			entries := n.arrowType.(*arrow.MapType).Elem()
			child = array.NewData(entries, len(eidx), []*memory.Buffer{nil}, []arrow.ArrayData{k.Data(), v.Data()}, 0, 0)
			k.Release()
			v.Release()
		}
		defer child.Release()
		ob := memory.NewBufferBytes(unsafe.Slice((*byte)(unsafe.Pointer(&offsets[0])), len(offsets)*4))
		data := array.NewData(n.arrowType, want, []*memory.Buffer{validity, ob}, []arrow.ArrayData{child}, nulls, 0)
		defer data.Release()
		return array.MakeFromData(data), nil
	}
}

func releaseData(ds []arrow.ArrayData) {
	for _, d := range ds {
		if d != nil {
			d.Release()
		}
	}
}

// validity builds the null bitmap of a struct/list/map node from leaf l.
func (bt *batch) validity(n *rnode, l *rleaf, idx []int32, dense bool) (*memory.Buffer, int) {
	c := &l.chunk
	if c.maxDef == 0 || n.defPresent == n.slotDef {
		return nil, 0 // required: never null
	}
	rg := bt.ranges[l]
	count := len(idx)
	if dense {
		count = rg[1] - rg[0]
	}
	bits := make([]byte, bitutil.BytesForBits(int64(count)))
	nulls := 0
	for k := 0; k < count; k++ {
		e := rg[0] + k
		if !dense {
			e = int(idx[k])
		}
		if c.def[e] >= n.defPresent {
			bitutil.SetBit(bits, k)
		} else {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	return memory.NewBufferBytes(bits), nulls
}

// valueIndexes maps the node's slots to value indexes (-1 for null).
func (bt *batch) valueIndexes(n *rnode, l *rleaf, idx []int32, dense bool) (vidx []int32, contiguous bool) {
	c := &l.chunk
	rg := bt.ranges[l]
	if dense && c.maxDef == 0 {
		return nil, true
	}
	count := len(idx)
	if dense {
		count = rg[1] - rg[0]
	}
	vidx = make([]int32, count)
	v := int32(l.value)
	e := rg[0]
	allDefined := true
	for k := 0; k < count; k++ {
		target := rg[0] + k
		if !dense {
			target = int(idx[k])
		}
		for ; e < target; e++ {
			if c.def[e] == c.maxDef {
				v++
			}
		}
		if c.def[target] == c.maxDef {
			vidx[k] = v
		} else {
			vidx[k] = -1
			allDefined = false
		}
	}
	if dense && allDefined {
		return nil, true
	}
	return vidx, false
}

// leafArray converts a leaf's values for the batch to the projected type.
func (bt *batch) leafArray(n *rnode, idx []int32, dense bool) (arrow.Array, error) {
	l := n.leaf
	c := &l.chunk
	vidx, contiguous := bt.valueIndexes(n, l, idx, dense)
	count := len(vidx)
	if contiguous {
		rg := bt.ranges[l]
		count = rg[1] - rg[0]
	}
	if _, unknown := l.fileType.(iceberg.UnknownType); unknown {
		return array.NewNull(count), nil
	}
	first := l.value
	// at returns the value index of slot k, or -1 for null.
	at := func(k int) int {
		if contiguous {
			return first + k
		}
		return int(vidx[k])
	}
	valid := func() []bool {
		if contiguous {
			return nil
		}
		v := make([]bool, count)
		for k, x := range vidx {
			v[k] = x >= 0
		}
		return v
	}
	bld := array.NewBuilder(bt.mem, n.arrowType)
	defer bld.Release()
	bld.Reserve(count)
	// a uuid column fills its FixedSizeBinary(16) storage
	switch b := arrowschema.StorageBuilder(bld).(type) {
	case *array.Int64Builder:
		if c.kind == parquet.Int32 {
			for k := 0; k < count; k++ {
				if i := at(k); i < 0 {
					b.AppendNull()
				} else if l.unsigned {
					b.UnsafeAppend(int64(uint32(c.i32[i])))
				} else {
					b.UnsafeAppend(int64(c.i32[i]))
				}
			}
			break
		}
		appendGathered(b.AppendValues, c.i64, first, count, contiguous, vidx, valid)
	case *array.Int32Builder:
		appendGathered(b.AppendValues, c.i32, first, count, contiguous, vidx, valid)
	case *array.Float64Builder:
		if c.kind == parquet.Float {
			for k := 0; k < count; k++ {
				if i := at(k); i < 0 {
					b.AppendNull()
				} else {
					b.UnsafeAppend(float64(c.f32[i]))
				}
			}
			break
		}
		appendGathered(b.AppendValues, c.f64, first, count, contiguous, vidx, valid)
	case *array.Float32Builder:
		appendGathered(b.AppendValues, c.f32, first, count, contiguous, vidx, valid)
	case *array.BooleanBuilder:
		appendGathered(b.AppendValues, c.b, first, count, contiguous, vidx, valid)
	case *array.Date32Builder:
		appendGathered(b.AppendValues, castSlice[int32, arrow.Date32](c.i32), first, count, contiguous, vidx, valid)
	case *array.Time64Builder:
		vals := c.i64
		if c.kind == parquet.Int32 { // TIME_MILLIS
			vals = widenMillis(c.i32)
		}
		appendGathered(b.AppendValues, castSlice[int64, arrow.Time64](scaleMicros(vals, l.timeUnit)), first, count, contiguous, vidx, valid)
	case *array.TimestampBuilder:
		appendGathered(b.AppendValues, castSlice[int64, arrow.Timestamp](scaleMicros(c.i64, l.timeUnit)), first, count, contiguous, vidx, valid)
	case *array.StringBuilder:
		bt.appendBytes(b.BinaryBuilder, c, count, at)
	case *array.BinaryBuilder:
		bt.appendBytes(b, c, count, at)
	case *array.FixedSizeBinaryBuilder:
		w := c.width
		for k := 0; k < count; k++ {
			if i := at(k); i < 0 {
				b.AppendNull()
			} else {
				b.Append(c.bin[i*w : (i+1)*w])
			}
		}
	case *array.Decimal128Builder:
		for k := 0; k < count; k++ {
			i := at(k)
			if i < 0 {
				b.AppendNull()
				continue
			}
			num, err := decimalAt(c, i)
			if err != nil {
				return nil, err
			}
			b.Append(num)
		}
	default:
		return nil, corrupt("cannot read column %q as %v", n.field.Name, n.arrowType)
	}
	return bld.NewArray(), nil
}

// appendGathered appends vals[first:first+count] (contiguous) or the
// values at vidx (with nulls at -1) through a builder's AppendValues.
func appendGathered[T any](appendValues func([]T, []bool), vals []T, first, count int, contiguous bool, vidx []int32, valid func() []bool) {
	if contiguous {
		appendValues(vals[first:first+count], nil)
		return
	}
	out := make([]T, count)
	for k, i := range vidx {
		if i >= 0 {
			out[k] = vals[i]
		}
	}
	appendValues(out, valid())
}

func castSlice[F, T any](s []F) []T {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&s[0])), len(s))
}

// scaleMicros converts millisecond or nanosecond values to microseconds.
func scaleMicros(v []int64, unit int64) []int64 {
	if unit == 1 {
		return v
	}
	out := make([]int64, len(v))
	for i, x := range v {
		if unit > 0 {
			out[i] = x * unit
		} else {
			out[i] = x / -unit
		}
	}
	return out
}

func widenMillis(v []int32) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func (bt *batch) appendBytes(b *array.BinaryBuilder, c *chunkData, count int, at func(int) int) {
	for k := 0; k < count; k++ {
		if i := at(k); i < 0 {
			b.AppendNull()
		} else {
			b.Append(c.bin[c.off[i]:c.off[i+1]])
		}
	}
}

// decimalAt reads value i of a decimal column in any physical form.
func decimalAt(c *chunkData, i int) (decimal128.Num, error) {
	switch c.kind {
	case parquet.Int32:
		return decimal128.FromI64(int64(c.i32[i])), nil
	case parquet.Int64:
		return decimal128.FromI64(c.i64[i]), nil
	case parquet.FixedLenByteArray:
		if c.width > 16 {
			return decimal128.Num{}, corrupt("decimal of %d bytes", c.width)
		}
		return decimalFromBE(c.bin[i*c.width : (i+1)*c.width]), nil
	case parquet.ByteArray:
		b := c.bin[c.off[i]:c.off[i+1]]
		if len(b) > 16 {
			return decimal128.Num{}, corrupt("decimal of %d bytes", len(b))
		}
		return decimalFromBE(b), nil
	}
	return decimal128.Num{}, corrupt("decimal stored as %v", c.kind)
}

// constant builds the array of a field missing from the file: its initial
// default, or nulls.
func (bt *batch) constant(n *rnode, count int) (arrow.Array, error) {
	if n.field.InitialDefault == nil {
		return arrowschema.MakeNulls(bt.mem, n.arrowType, count), nil
	}
	b := array.NewBuilder(bt.mem, n.arrowType)
	defer b.Release()
	for range count {
		if err := arrowschema.AppendValue(b, n.field.InitialDefault); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

var _ = iceberg.ErrInvalidDataFile
