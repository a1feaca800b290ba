package parquetfile

import (
	"encoding/binary"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// readBytes builds a string or binary array: offsets from the page
// offsets, the bytes of each run of values copied at once (dictionary
// pages copy value by value into a buffer grown once per segment).
func (f *flatReader) readBytes(mem memory.Allocator, n int, valid []byte, validBuf *memory.Buffer, dt arrow.DataType) (arrow.Array, error) {
	if err := f.ensurePage(); err != nil {
		return nil, err
	}
	offBuf := memory.NewResizableBuffer(mem)
	defer offBuf.Release()
	offBuf.Resize((n + 1) * 4)
	offs := bytesAs[int32](offBuf.Bytes())[:n+1]
	offs[0] = 0
	// PLAIN values of one page are contiguous in its decoded bytes: the
	// array shares them and only the offsets are written.
	c := &f.leaf.chunk
	var dataBuf *memory.Buffer
	if c.bufs != nil && c.bufs.body != nil && c.idx == nil && f.pos+n <= c.n {
		first := f.vpos
		nulls, err := f.segments(n, valid, func(s segment) {
			setPlainOffsets(offs[s.k:s.k+s.m+1], c.off[s.v0:], s.defs, c.maxDef)
		})
		if err != nil {
			return nil, err
		}
		if dataBuf = c.bufs.share(c.bin[c.off[first]:c.off[f.vpos]]); dataBuf == nil {
			dataBuf = memory.NewBufferBytes(nil)
		}
		defer dataBuf.Release()
		return bytesArray(dt, n, nulls, validBuf, offBuf, dataBuf), nil
	}
	var data []byte
	var overflow bool
	nulls, err := f.segments(n, valid, func(s segment) {
		c := &f.leaf.chunk
		if data == nil {
			data = make([]byte, 0, n*avgValueLen(c)+64)
		}
		if overflow {
			return
		}
		ok := true
		if c.idx != nil {
			data, ok = appendDictBytes(data, offs[s.k:s.k+s.m+1], c, c.idx[s.v0:], s.defs)
		} else {
			data, ok = appendPlainBytes(data, offs[s.k:s.k+s.m+1], c, c.off[s.v0:], s.defs)
		}
		overflow = !ok
	})
	if err != nil {
		return nil, err
	}
	if overflow {
		return nil, corrupt("column %q: more than 2 GiB of values in one batch", f.node.field.Name)
	}
	dataBuf = memory.NewBufferBytes(data)
	defer dataBuf.Release()
	return bytesArray(dt, n, nulls, validBuf, offBuf, dataBuf), nil
}

func bytesArray(dt arrow.DataType, n, nulls int, validBuf, offBuf, dataBuf *memory.Buffer) arrow.Array {
	var vb *memory.Buffer
	if nulls > 0 {
		vb = validBuf
	}
	arr := array.NewData(dt, n, []*memory.Buffer{vb, offBuf, dataBuf}, nil, nulls, 0)
	defer arr.Release()
	return array.MakeFromData(arr)
}

// setPlainOffsets sets offs[1:] (offs[0] is set) for a segment of PLAIN
// values whose page offsets are po, relative to the array's first value
// (offs[0] then continues where the previous segment ended).
func setPlainOffsets(offs []int32, po []int32, defs []byte, maxDef byte) {
	base := offs[0] - po[0]
	if defs == nil {
		for i, o := range po[1:len(offs)] {
			offs[i+1] = base + o
		}
		return
	}
	v := 0
	for i, d := range defs {
		if d == maxDef {
			v++
		}
		offs[i+1] = base + po[v]
	}
}

// avgValueLen is the mean length of the page's byte-array values (or of
// its dictionary's), to size a batch's data buffer once.
func avgValueLen(c *chunkData) int {
	if len(c.off) < 2 {
		return 0
	}
	total := int(c.off[len(c.off)-1] - c.off[0])
	return (total + len(c.off) - 2) / (len(c.off) - 1)
}

// appendPlainBytes appends a segment of PLAIN values (their offsets po)
// to data and sets offs[1:] (offs[0] is already set): the non-null values
// are contiguous in the page, so their bytes are copied at once. ok is
// false when data would pass the 2 GiB an int32 offset reaches.
func appendPlainBytes(data []byte, offs []int32, c *chunkData, po []int32, defs []byte) (_ []byte, ok bool) {
	m := len(offs) - 1
	defined := m
	if defs != nil {
		defined = 0
		for _, d := range defs {
			if d == c.maxDef {
				defined++
			}
		}
	}
	if int64(len(data))+int64(po[defined]-po[0]) > 1<<31-1 {
		return data, false
	}
	base := int32(len(data)) - po[0]
	data = append(data, c.bin[po[0]:po[defined]]...)
	if defs == nil {
		for i, o := range po[1 : m+1] {
			offs[i+1] = base + o
		}
		return data, true
	}
	v := 0
	for i, d := range defs {
		if d == c.maxDef {
			v++
		}
		offs[i+1] = base + po[v]
	}
	return data, true
}

// appendDictBytes appends a segment of dictionary-encoded values (their
// indexes idx) to data and sets offs[1:]; ok as for appendPlainBytes.
func appendDictBytes(data []byte, offs []int32, c *chunkData, idx []int32, defs []byte) (_ []byte, ok bool) {
	m := len(offs) - 1
	do := c.off
	if len(do)-1 <= m/4 {
		if words, ok := shortDictWords(c); ok {
			return appendShortDictBytes(data, offs, words, idx, defs, c.maxDef)
		}
	}
	need := 0
	if defs == nil {
		for _, x := range idx[:m] {
			need += int(do[x+1] - do[x])
		}
	} else {
		v := 0
		for _, d := range defs {
			if d == c.maxDef {
				need += int(do[idx[v]+1] - do[idx[v]])
				v++
			}
		}
	}
	if len(data)+need > 1<<31-1 {
		return data, false
	}
	// Values of up to 16 bytes move as two words: the 16 bytes of slack
	// past need take the spill, which the next value overwrites.
	data = growBytes(data, need+16)
	out := data[:cap(data)]
	src := c.bin
	if c.bufs != nil {
		// A dictionary decoded here: nothing writes past its bytes, so
		// the words may read into its spare capacity.
		src = c.bin[:cap(c.bin)]
	}
	end := int32(len(data))
	v := 0
	for i := range m {
		if defs == nil || defs[i] == c.maxDef {
			x := idx[v]
			v++
			s, e := do[x], do[x+1]
			if e-s <= 16 && int(s)+16 <= len(src) {
				a, b := binary.LittleEndian.Uint64(src[s:]), binary.LittleEndian.Uint64(src[s+8:])
				binary.LittleEndian.PutUint64(out[end:], a)
				binary.LittleEndian.PutUint64(out[end+8:], b)
				end += e - s
			} else {
				end += int32(copy(out[end:], src[s:e]))
			}
		}
		offs[i+1] = end
	}
	return data[:end], true
}

// dictWord is a dictionary value of at most 16 bytes as two words and
// its length.
type dictWord struct {
	lo, hi uint64
	n      int32
}

// shortDictWords returns the dictionary's values as words when every one
// is at most 16 bytes long.
func shortDictWords(c *chunkData) ([]dictWord, bool) {
	do := c.off
	words := make([]dictWord, len(do)-1)
	var buf [16]byte
	for i := range words {
		v := c.bin[do[i]:do[i+1]]
		if len(v) > 16 {
			return nil, false
		}
		clear(buf[:])
		copy(buf[:], v)
		words[i] = dictWord{binary.LittleEndian.Uint64(buf[:]), binary.LittleEndian.Uint64(buf[8:]), int32(len(v))}
	}
	return words, true
}

// appendShortDictBytes is appendDictBytes over a small dictionary of
// short values: each value is two word stores from a table, with no
// per-value slicing of the dictionary's bytes (the 16 bytes of slack past
// the values take the spill, which the next value overwrites).
func appendShortDictBytes(data []byte, offs []int32, words []dictWord, idx []int32, defs []byte, maxDef byte) ([]byte, bool) {
	m := len(offs) - 1
	defined := m
	if defs != nil {
		defined = 0
		for _, d := range defs[:m] {
			if d == maxDef {
				defined++
			}
		}
	}
	idx = idx[:defined]
	need := 0
	for _, x := range idx {
		need += int(words[x].n)
	}
	if len(data)+need > 1<<31-1 {
		return data, false
	}
	data = growBytes(data, need+16)
	end := int32(len(data))
	// Stores through a pointer: the bounds are those just sized (need+16
	// past end), checked once rather than per value.
	base := unsafe.Pointer(unsafe.SliceData(data[:cap(data)]))
	offs = offs[:m+1]
	if defs == nil {
		for i, x := range idx {
			w := &words[x]
			p := unsafe.Add(base, end)
			*(*uint64)(p) = w.lo
			*(*uint64)(unsafe.Add(p, 8)) = w.hi
			end += w.n
			offs[i+1] = end
		}
		return data[:end], true
	}
	v := 0
	for i, d := range defs[:m] {
		if d == maxDef {
			w := &words[idx[v]]
			v++
			p := unsafe.Add(base, end)
			*(*uint64)(p) = w.lo
			*(*uint64)(unsafe.Add(p, 8)) = w.hi
			end += w.n
		}
		offs[i+1] = end
	}
	return data[:end], true
}

// growBytes returns b with room for need more bytes.
func growBytes(b []byte, need int) []byte {
	if cap(b)-len(b) >= need {
		return b
	}
	nb := make([]byte, len(b), max(2*cap(b), len(b)+need))
	copy(nb, b)
	return nb
}
