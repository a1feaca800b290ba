package parquetfile

import (
	"io"
	"sync"
)

// chunkFetcher serves a file whose every read is a request (object
// storage): the projected column chunks of the row group being read and
// of the next one are fetched whole and concurrently, a few requests in
// flight and a bounded number of bytes held, instead of one request per
// page header and page. Reads outside a fetched chunk, and reads of a
// chunk whose fetch failed, go to the file as before.
type chunkFetcher struct {
	src    io.ReaderAt
	size   int64
	budget int64
	sem    chan struct{}
	wg     sync.WaitGroup

	mu     sync.Mutex
	chunks []*fetchedChunk
	held   int64
}

type fetchedChunk struct {
	group int
	off   int64
	buf   []byte
	err   error
	done  chan struct{}
}

func newChunkFetcher(src io.ReaderAt, size int64, inFlight int, budget int64) *chunkFetcher {
	return &chunkFetcher{src: src, size: size, budget: budget, sem: make(chan struct{}, max(inFlight, 1))}
}

// fetch starts fetching [off, off+n) of row group group unless it is held
// already or would exceed the budget.
func (f *chunkFetcher) fetch(group int, off, n int64) {
	if off < 0 || n <= 0 || off > f.size-n {
		return // a corrupt range: the decoder reports it
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.chunks {
		if c.off == off {
			return
		}
	}
	if f.held+n > f.budget {
		return
	}
	c := &fetchedChunk{group: group, off: off, buf: make([]byte, n), done: make(chan struct{})}
	f.chunks = append(f.chunks, c)
	f.held += n
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		f.sem <- struct{}{}
		_, c.err = f.src.ReadAt(c.buf, c.off)
		<-f.sem
		close(c.done)
	}()
}

// release drops the chunks of row groups before group.
func (f *chunkFetcher) release(group int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	kept := f.chunks[:0]
	for _, c := range f.chunks {
		if c.group < group {
			f.held -= int64(len(c.buf))
			continue
		}
		kept = append(kept, c)
	}
	clear(f.chunks[len(kept):])
	f.chunks = kept
}

// ReadAt serves p from a fetched chunk that holds all of it, waiting for
// its fetch, or from the file.
func (f *chunkFetcher) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	var hit *fetchedChunk
	for _, c := range f.chunks {
		if off >= c.off && off+int64(len(p)) <= c.off+int64(len(c.buf)) {
			hit = c
			break
		}
	}
	f.mu.Unlock()
	if hit != nil {
		<-hit.done
		if hit.err == nil {
			return copy(p, hit.buf[off-hit.off:]), nil
		}
	}
	return f.src.ReadAt(p, off)
}

// wait waits for the fetches in flight.
func (f *chunkFetcher) wait() { f.wg.Wait() }
