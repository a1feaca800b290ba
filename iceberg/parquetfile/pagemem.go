package parquetfile

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// pageMemory recycles the buffers pages are decompressed into. Arrays
// of PLAIN values share a page's buffer instead of copying it; such a
// buffer is never recycled (code holding a value of a released array,
// a string aliasing its bytes, must still see that value), it is left
// to the garbage collector.
var pageMemory pagePool

// pagePool keeps buffers by size class: class k holds capacities in
// [1<<k, 1<<(k+1)). A miss allocates the exact size asked for (most
// pages of a column are about the same size, and a shared page never
// comes back), so a page costs its own size, not the next power of two.
type pagePool struct {
	classes [48]sync.Pool // of *[]byte
}

func sizeClass(n int) int { return bits.Len(uint(max(n, 1))) - 1 }

// get returns a buffer of n bytes (contents unspecified).
func (p *pagePool) get(n int) []byte {
	if v, ok := p.classes[sizeClass(n)].Get().(*[]byte); ok && cap(*v) >= n {
		return (*v)[:n]
	}
	return make([]byte, n)
}

// put recycles b.
func (p *pagePool) put(b []byte) {
	if cap(b) == 0 {
		return
	}
	b = b[:0]
	p.classes[sizeClass(cap(b))].Put(&b)
}

// share returns a buffer viewing b, bytes of the page's decoded body,
// and marks the body shared so it is not recycled; nil when b is empty
// or not in the body.
func (pb *pageBufs) share(b []byte) *memory.Buffer {
	all := pb.body[:cap(pb.body)]
	if len(b) == 0 || len(all) == 0 {
		return nil
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(all)))
	if start > uintptr(len(all)) || uintptr(len(b)) > uintptr(len(all))-start {
		return nil
	}
	pb.shared = true
	return memory.NewBufferBytes(b)
}

// releaseBody gives the page's decoded body back to the pool unless
// arrays share it.
func (pb *pageBufs) releaseBody() {
	if pb.body != nil && !pb.shared {
		pageMemory.put(pb.body)
	}
	pb.body, pb.shared = nil, false
}
