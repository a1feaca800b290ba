package parquetfile

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// pageReadAhead is how many decoded pages a column may hold beyond the one
// being consumed: enough to keep decompression off the consumer's path
// without holding more than a few pages per column.
const pageReadAhead = 4

// readAheadPages bounds the decoded pages held ahead across all columns of
// a reader, so a wide projection holds about as much as a narrow one; each
// column still gets at least one.
const readAheadPages = 16

// queueLimit is the pages each of columns queues may hold ahead.
func queueLimit(columns int) int32 {
	return int32(max(1, min(pageReadAhead, readAheadPages/max(columns, 1))))
}

// pageQueue holds the decoded pages of one flat column chunk. Pages are
// decoded ahead by the reader's decode workers; when the consumer finds
// the queue empty it decodes the next page itself rather than wait for a
// worker to be scheduled (on a busy machine that wait costs more than the
// decode).
type pageQueue struct {
	leaf   *rleaf
	node   *rnode
	maxDef byte

	// decode serializes use of src (one page is read at a time).
	decode    sync.Mutex
	ref       chunkRef
	src       pageSource
	entries   int64 // the chunk's entries
	remaining int64 // entries not yet decoded: the chunk stops there
	closed    bool

	mu     sync.Mutex // guards ready and free
	ready  []decodedPage
	free   []*chunkData
	nready atomic.Int32 // len(ready) plus a finished marker, for workers
	limit  atomic.Int32 // pages workers may decode ahead
}

// decodedPage is one decoded page, or the error that ended the chunk.
type decodedPage struct {
	c   *chunkData
	err error
}

// queueDone is added to nready once the chunk has no page left to decode,
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

// pageSource yields the decoded data pages of one flat column chunk.
type pageSource interface {
	next(c *chunkData) error // io.EOF after the last page
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

// decodeNext decodes one page onto the ready list; the caller holds
// q.decode. It returns false when the chunk has nothing left to decode.
func (q *pageQueue) decodeNext() bool {
	if q.closed || q.remaining <= 0 {
		q.markDone()
		return false
	}
	q.mu.Lock()
	var c *chunkData
	if n := len(q.free); n > 0 {
		c, q.free = q.free[n-1], q.free[:n-1]
	} else {
		c = new(chunkData)
	}
	q.mu.Unlock()
	err := q.src.next(c)
	if errors.Is(err, errNotDirect) {
		// A page the direct decoder does not know: parquet-go reads the
		// rest of the chunk, skipping the entries already decoded.
		q.src.close()
		q.src = &goPages{ref: q.ref, leaf: q.leaf, node: q.node, maxDef: q.maxDef, skip: q.entries - q.remaining}
		err = q.src.next(c)
	}
	if err == nil {
		q.remaining -= int64(c.n)
	} else {
		q.remaining = 0
	}
	q.mu.Lock()
	q.ready = append(q.ready, decodedPage{c: c, err: err})
	added := int32(1)
	if q.remaining <= 0 {
		added += queueDone
	}
	q.nready.Add(added)
	q.mu.Unlock()
	return true
}

// next returns the next decoded page, decoding it here when no worker got
// to it; io.EOF once the chunk is exhausted.
func (q *pageQueue) next() decodedPage {
	for {
		if d, ok := q.pop(); ok {
			return d
		}
		q.decode.Lock()
		// A worker may have finished the page while we waited for the lock.
		if d, ok := q.pop(); ok {
			q.decode.Unlock()
			return d
		}
		more := q.decodeNext()
		q.decode.Unlock()
		if !more {
			if d, ok := q.pop(); ok {
				return d
			}
			return decodedPage{err: io.EOF}
		}
	}
}

// markDone tells workers the queue needs no more decoding.
func (q *pageQueue) markDone() {
	for {
		n := q.nready.Load()
		if n >= queueDone || q.nready.CompareAndSwap(n, n+queueDone) {
			return
		}
	}
}

func (q *pageQueue) pop() (decodedPage, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.ready) == 0 {
		return decodedPage{}, false
	}
	d := q.ready[0]
	q.ready[0] = decodedPage{}
	q.ready = q.ready[1:]
	q.nready.Add(-1)
	return d, true
}

// recycle hands a consumed page's buffers back for the next decode.
func (q *pageQueue) recycle(c *chunkData) {
	c.releasePage()
	q.mu.Lock()
	if len(q.free) < pageReadAhead+1 {
		q.free = append(q.free, c)
	}
	q.mu.Unlock()
}

// close waits for a decode in progress and gives back the pages.
func (q *pageQueue) close() {
	q.decode.Lock()
	defer q.decode.Unlock()
	if q.closed {
		return
	}
	q.closed = true
	q.src.close()
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, d := range q.ready {
		if d.c != nil {
			d.c.releasePage()
		}
	}
	q.ready, q.free = nil, nil
	q.nready.Store(queueDone)
}

// decodePool is a reader's decode workers: they fill the page queues of
// the flat columns (current row group first, then the next one) up to
// their limit, and sleep when every queue is full.
type decodePool struct {
	queues atomic.Pointer[queueSet]
	wake   chan struct{}
	stop   chan struct{}
	wg     sync.WaitGroup
}

func newDecodePool(workers int) *decodePool {
	p := &decodePool{wake: make(chan struct{}, 1), stop: make(chan struct{})}
	for range workers {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

// queueSet is the queues workers serve: the current row group's, then
// the next one's.
type queueSet struct {
	current, next []*pageQueue
}

// setQueues replaces the queues the workers serve.
func (p *decodePool) setQueues(current, next []*pageQueue) {
	p.queues.Store(&queueSet{current: current, next: next})
	p.signal()
}

// signal wakes a worker: a queue has room.
func (p *decodePool) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *decodePool) work() {
	defer p.wg.Done()
	for {
		if !p.decodeOne() {
			select {
			case <-p.wake:
			case <-p.stop:
				return
			}
			continue
		}
		select {
		case <-p.stop:
			return
		default:
		}
	}
}

// decodeOne decodes a page for the neediest queue (fewest pages ready;
// the current row group's before the next one's) that nobody is
// decoding; false when every queue is full or finished.
func (p *decodePool) decodeOne() bool {
	set := p.queues.Load()
	if set == nil {
		return false
	}
	for i, qs := range [][]*pageQueue{set.current, set.next} {
		// An empty queue of the current row group is left to the
		// consumer, who needs its next page now: a worker holding that
		// page's decode would make the consumer wait on a thread that a
		// busy machine may have descheduled.
		least := int32(1)
		if i == 1 {
			least = 0
		}
		for {
			q := neediest(qs, least)
			if q == nil {
				break
			}
			if !q.decode.TryLock() {
				// Being decoded by the consumer or another worker.
				if q = firstFree(qs, least); q == nil {
					break
				}
			}
			did := q.decodeNext()
			q.decode.Unlock()
			if did {
				// Others may have room too: keep a sleeping worker going.
				p.signal()
				return true
			}
		}
	}
	return false
}

// neediest is the queue with the fewest pages ready, at least least, if
// any has room.
func neediest(qs []*pageQueue, least int32) *pageQueue {
	var best *pageQueue
	fewest := int32(pageReadAhead)
	for _, q := range qs {
		if n := q.nready.Load(); n >= least && n < fewest && n < q.limit.Load() {
			best, fewest = q, n
		}
	}
	return best
}

// firstFree locks and returns a queue with at least least pages ready
// and room for more that nobody is decoding.
func firstFree(qs []*pageQueue, least int32) *pageQueue {
	for _, q := range qs {
		if n := q.nready.Load(); n >= least && n < q.limit.Load() && q.decode.TryLock() {
			return q
		}
	}
	return nil
}

// close stops the workers and waits for them.
func (p *decodePool) close() {
	close(p.stop)
	p.wg.Wait()
}

// goPages reads a flat column chunk through parquet-go's page reader,
// for encodings directChunk does not decode. The chunk's pages are
// checked first (parquet-go sizes allocations from their headers and
// runs); skip entries are read and dropped.
type goPages struct {
	ref    chunkRef
	leaf   *rleaf
	node   *rnode
	maxDef byte
	pages  parquet.Pages
	skip   int64
}

func (g *goPages) next(c *chunkData) error {
	if g.pages == nil {
		if err := g.ref.r.checkChunk(g.ref.group, g.leaf.col); err != nil {
			return err
		}
		g.pages = g.ref.cc.Pages()
	}
	if c.bufs != nil {
		// Decoded directly before: its slices may alias a dictionary
		// still in use, which appending here would overwrite.
		*c = chunkData{}
	}
	for {
		if err := decodeFlatPage(g.pages, c, g.leaf, g.node, g.maxDef); err != nil {
			return err
		}
		if g.skip <= 0 {
			return nil
		}
		g.skip -= int64(c.n)
		c.releasePage()
		if g.skip < 0 {
			return corrupt("column %q: pages differ between readings", g.leaf.col.Name())
		}
	}
}

func (g *goPages) close() {
	if g.pages != nil {
		g.pages.Close()
	}
}

// decodeFlatPage reads the next page of a flat column into c.
func decodeFlatPage(pages parquet.Pages, c *chunkData, leaf *rleaf, node *rnode, maxDef byte) error {
	col := leaf.col
	pg, err := readPage(pages)
	if errors.Is(err, io.EOF) {
		return io.EOF
	}
	if err != nil {
		return corrupt("column %q: %v", col.Name(), err)
	}
	kind := pg.Type().Kind()
	if !kindReadable(node.arrowType, kind) {
		parquet.Release(pg)
		return corrupt("column %q: %v page cannot be read as %v", col.Name(), kind, node.arrowType)
	}
	c.releasePage()
	if directKind(node.arrowType, leaf.timeUnit, kind) {
		return c.bindPage(pg, maxDef)
	}
	defer parquet.Release(pg)
	width := 0
	if kind == parquet.FixedLenByteArray {
		width = pg.Type().Length()
	}
	c.reset(kind, maxDef, 0, width)
	return c.appendPage(pg)
}
