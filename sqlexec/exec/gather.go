package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// gather is TakeArray for the column types joins and windows move most
// (String, 8-byte and 4-byte fixed width): one pass sizing, one copying,
// straight from the source buffers. Index -1 yields NULL. ok is false for
// any other type (the caller uses the compute kernel).
func gather(mem memory.Allocator, src arrow.Array, idx []int32) (arrow.Array, bool) {
	bufs := src.Data().Buffers()
	for _, b := range bufs[1:] {
		if b == nil {
			return nil, false
		}
	}
	switch src.DataType().ID() {
	case arrow.DICTIONARY:
		// The indexes only: the output shares src's dictionary. It is taken
		// from src's data, not d.Dictionary(), which builds its array on
		// first call and so races when probes share one build column.
		d := src.(*array.Dictionary)
		if _, ok := d.Indices().(*array.Int32); !ok {
			return nil, false
		}
		dict, ok := src.Data().Dictionary().(*array.Data)
		if !ok || dict == nil {
			return nil, false
		}
		ix := gatherFixed[uint32](mem, d.Indices(), idx, 4)
		defer ix.Release()
		data := array.NewDataWithDictionary(d.DataType(), ix.Len(), ix.Data().Buffers(), ix.NullN(), 0, dict)
		defer data.Release()
		return array.MakeFromData(data), true
	case arrow.STRING:
		return gatherString(mem, src.(*array.String), idx), true
	case arrow.INT64, arrow.FLOAT64, arrow.TIMESTAMP, arrow.DATE64, arrow.TIME64, arrow.DURATION:
		return gatherFixed[uint64](mem, src, idx, 8), true
	case arrow.INT32, arrow.FLOAT32, arrow.DATE32, arrow.TIME32:
		return gatherFixed[uint32](mem, src, idx, 4), true
	}
	return nil, false
}

// gatherValidity returns the validity bitmap of src at idx (nil when no
// output row is NULL) and the NULL count.
func gatherValidity(mem memory.Allocator, src arrow.Array, idx []int32) (*memory.Buffer, int) {
	srcNulls := src.NullN() > 0
	nulls := 0
	for _, i := range idx {
		if i < 0 || (srcNulls && src.IsNull(int(i))) {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(len(idx)))))
	bits := buf.Bytes()
	clear(bits)
	for r, i := range idx {
		if i >= 0 && !(srcNulls && src.IsNull(int(i))) {
			bitutil.SetBit(bits, r)
		}
	}
	return buf, nulls
}

func gatherFixed[T uint32 | uint64](mem memory.Allocator, src arrow.Array, idx []int32, width int) arrow.Array {
	valid, nulls := gatherValidity(mem, src, idx)
	d := src.Data()
	vals := arrow.GetData[T](d.Buffers()[1].Bytes())[d.Offset():]
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(len(idx) * width)
	out := arrow.GetData[T](buf.Bytes())
	for r, i := range idx {
		if i >= 0 {
			out[r] = vals[i]
		} else {
			out[r] = 0
		}
	}
	data := array.NewData(src.DataType(), len(idx), []*memory.Buffer{valid, buf}, nil, nulls, 0)
	if valid != nil {
		valid.Release()
	}
	buf.Release()
	defer data.Release()
	return array.MakeFromData(data)
}

func gatherString(mem memory.Allocator, src *array.String, idx []int32) arrow.Array {
	valid, nulls := gatherValidity(mem, src, idx)
	srcOffs := src.ValueOffsets()
	srcBytes := src.Data().Buffers()[2].Bytes() // srcOffs index it from its start
	total := 0
	for _, i := range idx {
		if i >= 0 {
			total += int(srcOffs[i+1] - srcOffs[i])
		}
	}
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize((len(idx) + 1) * 4)
	offs := arrow.GetData[int32](offBuf.Bytes())
	dataBuf := memory.NewResizableBuffer(mem)
	dataBuf.Resize(total)
	bytes := dataBuf.Bytes()
	pos := int32(0)
	offs[0] = 0
	for r, i := range idx {
		if i >= 0 {
			s, e := srcOffs[i], srcOffs[i+1]
			pos += int32(copy(bytes[pos:], srcBytes[s:e]))
		}
		offs[r+1] = pos
	}
	data := array.NewData(src.DataType(), len(idx), []*memory.Buffer{valid, offBuf, dataBuf}, nil, nulls, 0)
	if valid != nil {
		valid.Release()
	}
	offBuf.Release()
	dataBuf.Release()
	defer data.Release()
	return array.NewStringData(data)
}
