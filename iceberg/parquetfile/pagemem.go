package parquetfile

import (
	"math/bits"
	"os"
	"sync"
	"sync/atomic"
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
	if pb.lender != nil {
		pb.lent = true
	} else {
		pb.shared = true
	}
	return memory.NewBufferBytes(b)
}

// releaseBody gives the page's decoded body back to the pool unless
// arrays share it.
func (pb *pageBufs) releaseBody() {
	switch {
	case pb.body == nil || pb.shared:
	case pb.lent:
		pb.lender.retire(pb.body)
	default:
		pageMemory.put(pb.body)
	}
	pb.body, pb.shared, pb.lent = nil, false, false
}

// bodyLender holds the page bodies a scratch reader's records viewed
// (ReadOptions.Scratch) until its caller is done with those records:
// a body whose page is consumed is retired, and the retired bodies go
// back to the pool when the next record is asked for.
type bodyLender struct {
	mu      sync.Mutex
	retired [][]byte
}

func (l *bodyLender) retire(b []byte) {
	l.mu.Lock()
	l.retired = append(l.retired, b)
	l.mu.Unlock()
}

// poisonReclaimed makes reclaim overwrite each body it recycles, so that
// a reader's caller still reading a record after asking for the next
// sees garbage: tests set it, and ICESQL_POISON_REUSED_PAGES=1 sets it
// for any run (CI runs the engine's tests so).
var poisonReclaimed = os.Getenv("ICESQL_POISON_REUSED_PAGES") == "1"

// reclaimedBodies counts the bodies reclaim recycled (for tests).
var reclaimedBodies atomic.Int64

// reclaim recycles the retired bodies.
func (l *bodyLender) reclaim() {
	l.mu.Lock()
	reclaimedBodies.Add(int64(len(l.retired)))
	for i, b := range l.retired {
		if poisonReclaimed {
			b = b[:cap(b)]
			for j := range b {
				b[j] = 0xa5
			}
		}
		pageMemory.put(b)
		l.retired[i] = nil
	}
	l.retired = l.retired[:0]
	l.mu.Unlock()
}

// drop forgets the retired bodies, leaving them to the garbage
// collector (a closed reader's last record may still be in use).
func (l *bodyLender) drop() {
	l.mu.Lock()
	l.retired = nil
	l.mu.Unlock()
}
