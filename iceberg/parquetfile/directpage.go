package parquetfile

import (
	"encoding/binary"
	"fmt"
	"sync"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// pageBufs are the buffers a directly decoded page owns: the page's raw
// and decompressed bytes and whatever its values were decoded into.
type pageBufs struct {
	hdr *format.PageHeader // set by claim for decode
	at  int64              // the page's offset, for errors
	raw []byte
	// body holds the decoded bytes the value slices view when arrays
	// may share them (nil: they are in raw, which is reused); shared
	// once they do.
	body   []byte
	shared bool
	// lender, when set, takes a viewed body back instead (lent, not
	// shared): the reader's caller is done with it by its next record.
	lender *bodyLender
	lent   bool
	def    []byte
	idx    []int32
	off    []int32
	bin    []byte
	b      []bool
	i32    []int32
	i64    []int64
	f32    []float32
	f64    []float64
}

// pageBufsPool keeps the buffers of pages of finished chunks for the
// next: none of them is ever seen by an array (a shared body is dropped
// by releaseBody first).
var pageBufsPool = sync.Pool{New: func() any { return new(pageBufs) }}

func newPageBufs() *pageBufs { return pageBufsPool.Get().(*pageBufs) }

// dropPage ends the page c for good, recycling its buffers.
func (c *chunkData) dropPage() {
	c.releasePage()
	if b := c.bufs; b != nil {
		*c = chunkData{}
		b.hdr, b.lender = nil, nil
		pageBufsPool.Put(b)
	}
}

// resetDirect starts a page decoded by directChunk, keeping the buffers
// of the page c held before.
func (c *chunkData) resetDirect(kind parquet.Kind, maxDef byte, width int, bind bool) {
	b := c.bufs
	if b == nil {
		b = newPageBufs()
	}
	b.releaseBody()
	b.lender = nil // a data page of a scratch reader sets it
	*c = chunkData{kind: kind, maxDef: maxDef, width: width, bufs: b}
}

// appendPlainValues decodes n PLAIN values. With bind, fixed-width values
// stay in src (which the page owns) instead of being copied; byte arrays
// are always compacted in place in src.
func (c *chunkData) appendPlainValues(src []byte, n int, bind bool) error {
	b := c.bufs
	need := func(size int) error {
		if int64(n)*int64(size) > int64(len(src)) {
			return fmt.Errorf("%d values of %d bytes in %d bytes", n, size, len(src))
		}
		return nil
	}
	switch c.kind {
	case parquet.Boolean:
		if int64(n) > 8*int64(len(src)) {
			return fmt.Errorf("%d booleans in %d bytes", n, len(src))
		}
		b.b = grow(b.b[:0], n)
		for i := range b.b {
			b.b[i] = src[i>>3]>>(i&7)&1 == 1
		}
		c.b = b.b
	case parquet.Int32:
		if err := need(4); err != nil {
			return err
		}
		c.i32 = plainFixed(&b.i32, src[:4*n], n, bind)
	case parquet.Int64:
		if err := need(8); err != nil {
			return err
		}
		c.i64 = plainFixed(&b.i64, src[:8*n], n, bind)
	case parquet.Float:
		if err := need(4); err != nil {
			return err
		}
		c.f32 = plainFixed(&b.f32, src[:4*n], n, bind)
	case parquet.Double:
		if err := need(8); err != nil {
			return err
		}
		c.f64 = plainFixed(&b.f64, src[:8*n], n, bind)
	case parquet.Int96:
		if err := need(12); err != nil {
			return err
		}
		b.i64 = grow(b.i64[:0], n)
		for i := range b.i64 {
			v := src[12*i:]
			b.i64[i] = int96Micros(deprecated.Int96{binary.LittleEndian.Uint32(v), binary.LittleEndian.Uint32(v[4:]), binary.LittleEndian.Uint32(v[8:])})
		}
		c.i64 = b.i64
	case parquet.FixedLenByteArray:
		if err := need(c.width); err != nil {
			return err
		}
		b.bin = append(b.bin[:0], src[:n*c.width]...)
		c.bin = b.bin
	case parquet.ByteArray:
		bin, off, err := compactByteArrays(src, n, b.off)
		if err != nil {
			return err
		}
		b.off = off
		c.bin, c.off = bin, off
	default:
		// Parquet's UNKNOWN (NULL) columns have no physical kind and no values
		if n == 0 {
			return nil
		}
		return fmt.Errorf("unsupported physical type %v", c.kind)
	}
	return nil
}

// plainFixed returns the n little-endian values in src: a view of src
// with bind, else a copy in *buf.
func plainFixed[T int32 | int64 | float32 | float64](buf *[]T, src []byte, n int, bind bool) []T {
	if n == 0 {
		return nil
	}
	view := bytesAs[T](src)[:n]
	if bind {
		return view
	}
	*buf = append((*buf)[:0], view...)
	return *buf
}

// compactByteArrays decodes n PLAIN byte arrays (each behind a 4-byte
// length) by moving their bytes together at the front of src, and returns
// those bytes and the n+1 offsets of the values in them (in off's storage).
func compactByteArrays(src []byte, n int, off []int32) ([]byte, []int32, error) {
	// Each value takes at least its 4-byte length.
	if int64(n)*4 > int64(len(src)) {
		return nil, nil, fmt.Errorf("%d byte arrays in %d bytes", n, len(src))
	}
	off = grow(off[:0], n+1)
	off[0] = 0
	if n == 0 {
		return src[:0], off, nil
	}
	// Loads and stores go through a pointer, every one inside src by the
	// checks on r and l below; the lengths are little-endian, read as
	// this package reads PLAIN values (bytesAs).
	p := unsafe.Pointer(unsafe.SliceData(src))
	size := uint(len(src))
	w, r := uint(0), uint(0)
	for i := range n {
		if size-r < 4 {
			return nil, nil, fmt.Errorf("byte array %d truncated", i)
		}
		l := uint(*(*uint32)(unsafe.Add(p, r)))
		r += 4
		if l > size-r {
			return nil, nil, fmt.Errorf("byte array of %d bytes with %d left", l, size-r)
		}
		// Short values move as two words, loaded before stored: the
		// store may spill past the value only into bytes already read
		// (r-w >= 16), where the next values land.
		if l <= 16 && r-w >= 16 && size-r >= 16 {
			a, b := *(*uint64)(unsafe.Add(p, r)), *(*uint64)(unsafe.Add(p, r+8))
			*(*uint64)(unsafe.Add(p, w)) = a
			*(*uint64)(unsafe.Add(p, w+8)) = b
		} else {
			copy(src[w:], src[r:r+l])
		}
		w += l
		r += l
		off[i+1] = int32(w)
	}
	return src[:w], off, nil
}

// bindDictionary points c at the dictionary's values, read through idx.
func (c *chunkData) bindDictionary(dict *chunkData, idx []int32) {
	if idx == nil {
		// A page of nulls only: still bound (a nil idx means not bound,
		// and the dictionary's values are not the page's).
		idx = make([]int32, 0)
	}
	c.idx, c.dict = idx, dict
	c.i32, c.i64, c.f32, c.f64 = dict.i32, dict.i64, dict.f32, dict.f64
	c.bin, c.off = dict.bin, dict.off
}

// appendFromDictionary copies the dictionary values idx names into c's
// own buffers (indexes are checked by decodeIndexes).
func (c *chunkData) appendFromDictionary(dict *chunkData, idx []int32) {
	b := c.bufs
	switch c.kind {
	case parquet.Boolean:
		b.b = gatherInto(b.b, dict.b, idx)
		c.b = b.b
	case parquet.Int32:
		b.i32 = gatherInto(b.i32, dict.i32, idx)
		c.i32 = b.i32
	case parquet.Int64, parquet.Int96:
		b.i64 = gatherInto(b.i64, dict.i64, idx)
		c.i64 = b.i64
	case parquet.Float:
		b.f32 = gatherInto(b.f32, dict.f32, idx)
		c.f32 = b.f32
	case parquet.Double:
		b.f64 = gatherInto(b.f64, dict.f64, idx)
		c.f64 = b.f64
	case parquet.ByteArray:
		b.bin, b.off = b.bin[:0], append(b.off[:0], 0)
		for _, x := range idx {
			b.bin = append(b.bin, dict.bin[dict.off[x]:dict.off[x+1]]...)
			b.off = append(b.off, int32(len(b.bin)))
		}
		c.bin, c.off = b.bin, b.off
	case parquet.FixedLenByteArray:
		w := c.width
		b.bin = b.bin[:0]
		for _, x := range idx {
			b.bin = append(b.bin, dict.bin[int(x)*w:int(x+1)*w]...)
		}
		c.bin = b.bin
	}
}

func gatherInto[T any](dst, dict []T, idx []int32) []T {
	dst = grow(dst[:0], len(idx))
	for i, x := range idx {
		dst[i] = dict[x]
	}
	return dst
}
