package parquetfile

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// DictionaryString is the type ReadOptions.DictionaryFieldIDs columns are
// read as.
var DictionaryString arrow.DataType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// dictionaryRoots marks the roots read as dictionaries: top-level string
// fields among ids. nil when there is none.
func dictionaryRoots(roots []*rnode, ids []int) []bool {
	var out []bool
	for i, n := range roots {
		if n.arrowType.ID() != arrow.STRING {
			continue
		}
		for _, id := range ids {
			if n.field.ID == id {
				if out == nil {
					out = make([]bool, len(roots))
				}
				out[i] = true
			}
		}
	}
	return out
}

// dictOut is a flat column's dictionary as an Arrow array, built once per
// dictionary page and shared by the batches that read through it.
type dictOut struct {
	key *chunkData // the dictionary arr was built from
	arr arrow.Array
}

func (d *dictOut) release() {
	if d.arr != nil {
		d.arr.Release()
	}
	*d = dictOut{}
}

// values returns the dictionary dict as a string array (not retained).
func (d *dictOut) values(mem memory.Allocator, dict *chunkData) arrow.Array {
	if d.key == dict {
		return d.arr
	}
	d.release()
	n := dict.n
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	if len(dict.off) > n {
		b.ReserveData(int(dict.off[n] - dict.off[0]))
		for x := range n {
			b.BinaryBuilder.Append(dict.bin[dict.off[x]:dict.off[x+1]])
		}
	}
	d.key, d.arr = dict, b.NewArray()
	return d.arr
}

// readDict reads the next n entries as indexes into the page's
// dictionary when they all lie in one dictionary-encoded page (batches
// are cut at page ends, see pageAligned) and the dictionary is small
// beside the row group; ok is false, and nothing is read, otherwise.
func (f *flatReader) readDict(mem memory.Allocator, n int, valid []byte, validBuf *memory.Buffer) (_ arrow.Array, ok bool, err error) {
	if err := f.ensurePage(); err != nil {
		return nil, false, err
	}
	c := &f.leaf.chunk
	if c.idx == nil || c.dict == nil || f.pos+n > c.n || len(c.dict.off) <= c.dict.n {
		return nil, false, nil
	}
	// A dictionary with entries for more than half the row group's rows
	// (ids, mostly distinct) saves a consumer nothing per entry and costs
	// a copy of every entry: such chunks are read as strings.
	if int64(c.dict.n) > f.rows/2 {
		return nil, false, nil
	}
	dict := f.dictOut.values(mem, c.dict)
	buffers, out := newFixed[int32](mem, n)
	defer releaseBuffers(buffers)
	nulls, err := f.segments(n, valid, func(s segment) {
		idx := c.idx[s.v0:]
		if s.defs == nil {
			copy(out[s.k:s.k+s.m], idx)
			return
		}
		v := 0
		for i, d := range s.defs {
			if d == c.maxDef {
				out[s.k+i] = idx[v]
				v++
			} else {
				out[s.k+i] = 0
			}
		}
	})
	if err != nil {
		return nil, true, err
	}
	if nulls > 0 {
		buffers[0] = validBuf
		validBuf.Retain()
	}
	data := array.NewData(arrow.PrimitiveTypes.Int32, n, buffers, nil, nulls, 0)
	defer data.Release()
	indices := array.MakeFromData(data)
	defer indices.Release()
	return array.NewDictionaryArray(DictionaryString, indices, dict), true, nil
}

// IdentityDictionary wraps a string array as a dictionary<int32, string>
// array whose dictionary is the array itself (index i names value i):
// the form of a dictionary column's batches that were not
// dictionary-encoded. A dictionary array is returned retained as it is.
// The indices are a shared read-only run 0, 1, 2, ... and the array's
// own validity bitmap, so wrapping costs no per-row work.
func IdentityDictionary(mem memory.Allocator, a arrow.Array) arrow.Array {
	if a.DataType().ID() == arrow.DICTIONARY {
		a.Retain()
		return a
	}
	n := a.Len()
	vals := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(identityRun(n)))
	var valid *memory.Buffer
	if a.NullN() > 0 {
		valid = memory.NewResizableBuffer(mem)
		valid.Resize(int(bitutil.BytesForBits(int64(n))))
		bitutil.CopyBitmap(a.NullBitmapBytes(), a.Data().Offset(), n, valid.Bytes(), 0)
		defer valid.Release()
	}
	data := array.NewData(arrow.PrimitiveTypes.Int32, n, []*memory.Buffer{valid, vals}, nil, a.NullN(), 0)
	defer data.Release()
	indices := array.NewInt32Data(data)
	defer indices.Release()
	return array.NewDictionaryArray(DictionaryString, indices, a)
}

// identityRuns holds the longest run 0, 1, ..., n-1 built so far; runs
// are never written once published, so arrays may share them.
var identityRuns atomic.Pointer[[]int32]

// identityRun returns the values 0..n-1 (shared: do not modify).
func identityRun(n int) []int32 {
	if p := identityRuns.Load(); p != nil && len(*p) >= n {
		return (*p)[:n:n]
	}
	run := make([]int32, max(n, 1<<16))
	for i := range run {
		run[i] = int32(i)
	}
	identityRuns.Store(&run)
	return run[:n:n]
}
