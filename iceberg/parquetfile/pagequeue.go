package parquetfile

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// pageReadAhead is how many pages a column may hold decoded (or being
// decoded) beyond the one being consumed: enough to keep decompression
// off the consumer's path without holding more than a few pages per
// column.
const pageReadAhead = 4

// readAheadPages bounds the pages held ahead across all columns of a
// reader, so a wide projection holds about as much as a narrow one; each
// column still gets at least two, so two pages of a column can be
// decompressed at once.
const readAheadPages = 16

// queueLimit is the pages each of columns queues may hold ahead.
func queueLimit(columns int) int32 {
	return int32(max(2, min(pageReadAhead, readAheadPages/max(columns, 1))))
}

// pageQueue holds the pages of one flat column chunk, in order. Taking a
// page (claim: its header, the dictionary before it, its bytes) is
// sequential; decompressing and decoding it is not, so the reader's
// decode workers and the consumer can work on several pages of one column
// at once. The consumer takes the first page, waiting for it if a worker
// is on it, and when nothing is claimed it claims and decodes the next
// page itself.
type pageQueue struct {
	leaf   *rleaf
	node   *rnode
	maxDef byte

	// claimMu serializes claims (src is read in order).
	claimMu   sync.Mutex
	ref       chunkRef
	src       pageSource
	entries   int64 // the chunk's entries
	remaining int64 // entries not yet claimed: the chunk stops there
	closed    bool

	mu     sync.Mutex // guards slots and free
	slots  []*pageSlot
	free   []*chunkData
	nslots atomic.Int32 // len(slots) plus a finished marker, for workers
	limit  atomic.Int32 // pages workers may claim ahead
}

// pageSlot is one claimed page: done is closed once c is decoded (or err
// says why not).
type pageSlot struct {
	c *chunkData
	// src is the source that claimed the page and must decode it: the
	// queue's source may change to parquet-go pages meanwhile.
	src  pageSource
	err  error
	done chan struct{}
}

// decodedPage is one decoded page, or the error that ended the chunk.
type decodedPage struct {
	c   *chunkData
	err error
}

// queueDone is added to nslots once the chunk has no page left to claim,
// so workers pass the queue by.
const queueDone = 1 << 20

// chunkRef names a column chunk of an open file.
type chunkRef struct {
	r     *Reader
	group int
	cc    parquet.ColumnChunk
}

func (c chunkRef) meta() *format.ColumnMetaData {
	return &c.r.file.Metadata().RowGroups[c.group].Columns[c.cc.Column()].MetaData
}

// pageSource yields the data pages of one flat column chunk in two
// steps: claim (in order, one at a time) takes the next page into c and
// returns its entries, or io.EOF after the last; decode finishes a
// claimed page, concurrently with other claims and decodes.
type pageSource interface {
	claim(c *chunkData) (entries int, err error)
	decode(c *chunkData) error
	close()
}

// newPageQueue starts the chunk ref holding entries entries (the row
// group's rows: a flat column has one entry per row).
// Workers fill it up to limit pages.
func newPageQueue(ref chunkRef, leaf *rleaf, node *rnode, entries int64, limit int32) *pageQueue {
	q := &pageQueue{leaf: leaf, node: node, maxDef: byte(leaf.col.MaxDefinitionLevel()),
		ref: ref, entries: entries, remaining: entries}
	if directReadable(ref.meta()) {
		q.src = newDirectChunk(ref, leaf, node)
	} else {
		q.src = &goPages{ref: ref, leaf: leaf, node: node, maxDef: q.maxDef}
	}
	q.limit.Store(limit)
	return q
}

// claimNext claims the next page onto the slots; nil when the chunk has
// nothing left. The caller decodes the slot (finish) unless it is done.
func (q *pageQueue) claimNext() *pageSlot {
	q.claimMu.Lock()
	defer q.claimMu.Unlock()
	if q.closed || q.remaining <= 0 {
		q.markDone()
		return nil
	}
	q.mu.Lock()
	var c *chunkData
	if n := len(q.free); n > 0 {
		c, q.free = q.free[n-1], q.free[:n-1]
	} else {
		c = new(chunkData)
	}
	q.mu.Unlock()
	s := &pageSlot{c: c, done: make(chan struct{})}
	n, err := q.src.claim(c)
	if errors.Is(err, errNotDirect) {
		// A page the direct decoder does not know: parquet-go reads the
		// rest of the chunk, skipping the entries already claimed.
		q.src.close()
		q.src = &goPages{ref: q.ref, leaf: q.leaf, node: q.node, maxDef: q.maxDef, skip: q.entries - q.remaining}
		n, err = q.src.claim(c)
	}
	s.src = q.src
	if err == nil {
		q.remaining -= int64(n)
	} else {
		q.remaining = 0
		s.err = err
		close(s.done)
	}
	q.mu.Lock()
	q.slots = append(q.slots, s)
	added := int32(1)
	if q.remaining <= 0 {
		added += queueDone
	}
	q.nslots.Add(added)
	q.mu.Unlock()
	return s
}

// finish decodes a claimed slot.
func (q *pageQueue) finish(s *pageSlot) {
	select {
	case <-s.done:
		return // failed at claim
	default:
	}
	s.err = s.src.decode(s.c)
	close(s.done)
}

// next returns the next decoded page, decoding it here when no worker got
// to it; io.EOF once the chunk is exhausted. While a worker finishes the
// page, help (when set) decodes other pages rather than leave a core idle;
// it returns false when there is none to decode.
func (q *pageQueue) next(help func() bool) decodedPage {
	for {
		q.mu.Lock()
		if len(q.slots) > 0 {
			s := q.slots[0]
			q.mu.Unlock()
			q.await(s, help)
			q.mu.Lock()
			q.slots[0] = nil
			q.slots = q.slots[1:]
			q.nslots.Add(-1)
			q.mu.Unlock()
			return decodedPage{c: s.c, err: s.err}
		}
		q.mu.Unlock()
		s := q.claimNext()
		if s == nil {
			q.mu.Lock()
			more := len(q.slots) > 0
			q.mu.Unlock()
			if more { // claimed by a worker meanwhile
				continue
			}
			return decodedPage{err: io.EOF}
		}
		q.finish(s)
	}
}

// await waits for slot s, helping meanwhile.
func (q *pageQueue) await(s *pageSlot, help func() bool) {
	for help != nil {
		select {
		case <-s.done:
			return
		default:
		}
		if !help() {
			break
		}
	}
	<-s.done
}

// markDone tells workers the queue needs no more claims.
func (q *pageQueue) markDone() {
	for {
		n := q.nslots.Load()
		if n >= queueDone || q.nslots.CompareAndSwap(n, n+queueDone) {
			return
		}
	}
}

// recycle hands a consumed page's buffers back for the next claim.
func (q *pageQueue) recycle(c *chunkData) {
	c.releasePage()
	q.mu.Lock()
	if len(q.free) < pageReadAhead+1 {
		q.free = append(q.free, c)
	}
	q.mu.Unlock()
}

// close waits for the pages being decoded and gives back the pages.
func (q *pageQueue) close() {
	q.claimMu.Lock()
	defer q.claimMu.Unlock()
	if q.closed {
		return
	}
	q.closed = true
	q.mu.Lock()
	slots, free := q.slots, q.free
	q.slots, q.free = nil, nil
	q.nslots.Store(queueDone)
	q.mu.Unlock()
	// Every claimed slot is being finished by whoever claimed it.
	for _, s := range slots {
		<-s.done
		if s.c != nil {
			s.c.dropPage()
		}
	}
	for _, c := range free {
		c.dropPage()
	}
	q.src.close()
}
