package parquetfile

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// pageMemory recycles the buffers pages are decompressed into. Arrays
// of PLAIN values share a page's buffer (memory.SliceBuffer) instead of
// copying it, so a buffer returns here only when the page and every
// array slicing it are released; buffers dropped unreleased are left to
// the garbage collector.
var pageMemory pagePool

// pagePool is a memory.Allocator over size classes of powers of two.
type pagePool struct {
	classes [40]sync.Pool // of *[]byte, class k holding cap 1<<k
}

// get returns a buffer of n bytes (contents unspecified).
func (p *pagePool) get(n int) []byte {
	k := bits.Len(uint(max(n, 1) - 1))
	if k >= len(p.classes) {
		return make([]byte, n)
	}
	if v, ok := p.classes[k].Get().(*[]byte); ok {
		return (*v)[:n]
	}
	return make([]byte, n, 1<<k)
}

// put recycles b if its capacity is a class's.
func (p *pagePool) put(b []byte) {
	c := cap(b)
	k := bits.Len(uint(c)) - 1
	if c == 0 || c != 1<<k || k >= len(p.classes) {
		return
	}
	b = b[:0]
	p.classes[k].Put(&b)
}

func (p *pagePool) Allocate(size int) []byte { return p.get(size) }

func (p *pagePool) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := p.get(size)
	copy(nb, b)
	p.put(b)
	return nb
}

func (p *pagePool) Free(b []byte) { p.put(b) }

// ownedBuffer wraps the decoded bytes out of a page: a pooled buffer when
// out is buf's storage (buf came from pageMemory), else out as is (a
// decoder grew its own).
func ownedBuffer(buf, out []byte) *memory.Buffer {
	if cap(out) > 0 && cap(buf) > 0 && unsafe.SliceData(out) == unsafe.SliceData(buf) {
		return memory.NewBufferWithAllocator(buf[:cap(buf)], &pageMemory)
	}
	pageMemory.put(buf)
	return memory.NewBufferBytes(out)
}

// sliceOf returns a buffer sharing owner's bytes b (which must lie in
// owner's storage), or nil when they do not.
func sliceOf(owner *memory.Buffer, b []byte) *memory.Buffer {
	all := owner.Buf()
	if len(b) == 0 || len(all) == 0 {
		return nil
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(all)))
	if start > uintptr(len(all)) || uintptr(len(b)) > uintptr(len(all))-start {
		return nil
	}
	return memory.SliceBuffer(owner, int(start), len(b))
}
