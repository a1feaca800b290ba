package parquetfile

import (
	"errors"
	"io"

	"github.com/parquet-go/parquet-go"
)

// pageReadAhead is how many decoded pages a column may hold beyond the one
// being consumed: enough to keep decompression off the consumer's path
// without holding more than a few pages per column.
const pageReadAhead = 2

// decodedPage is one page decoded by a prefetcher, or the error that ended
// the chunk.
type decodedPage struct {
	c   *chunkData
	err error
}

// pagePrefetcher decodes (reads, decompresses and splits into levels and
// values) the pages of one flat column chunk on its own goroutine, ahead of
// the consumer. Decoding is bounded by a semaphore shared by the reader's
// columns, so a wide projection does not run one decode per column at once.
type pagePrefetcher struct {
	out  chan decodedPage
	free chan *chunkData // consumed pages returned for reuse
	stop chan struct{}
	done chan struct{}
}

// startPrefetch decodes the pages of cc holding entries entries (the
// row group's rows: a flat column has one entry per row) and stops there,
// so a fully consumed chunk leaves no goroutine behind.
func startPrefetch(cc parquet.ColumnChunk, leaf *rleaf, node *rnode, entries int64, sem chan struct{}) *pagePrefetcher {
	p := &pagePrefetcher{
		out:  make(chan decodedPage, pageReadAhead),
		free: make(chan *chunkData, pageReadAhead+2),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	go p.run(cc, leaf, node, entries, sem)
	return p
}

func (p *pagePrefetcher) run(cc parquet.ColumnChunk, leaf *rleaf, node *rnode, entries int64, sem chan struct{}) {
	defer close(p.done)
	pages := cc.Pages()
	defer pages.Close()
	col := leaf.col
	maxDef := byte(col.MaxDefinitionLevel())
	for seen := int64(0); seen < entries; {
		c := p.buffer()
		if sem != nil {
			select {
			case sem <- struct{}{}:
			case <-p.stop:
				return
			}
		}
		err := decodeFlatPage(pages, c, leaf, node, maxDef)
		if sem != nil {
			<-sem
		}
		if err == nil {
			seen += int64(c.n)
		}
		select {
		case p.out <- decodedPage{c: c, err: err}:
		case <-p.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// buffer returns a recycled page buffer, or a new one.
func (p *pagePrefetcher) buffer() *chunkData {
	select {
	case c := <-p.free:
		return c
	default:
		return new(chunkData)
	}
}

// next returns the next decoded page; io.EOF-free: running out of pages is
// reported as a corrupt chunk by the caller's accounting.
func (p *pagePrefetcher) next() decodedPage {
	select {
	case d := <-p.out:
		return d
	case <-p.done:
		// The producer may have sent its last page just before exiting.
		select {
		case d := <-p.out:
			return d
		default:
			return decodedPage{err: io.EOF}
		}
	}
}

// recycle hands a consumed page's buffers back to the producer.
func (p *pagePrefetcher) recycle(c *chunkData) {
	c.releasePage()
	select {
	case p.free <- c:
	default:
	}
}

// close stops the producer and waits for it (it holds the column's page
// reader).
func (p *pagePrefetcher) close() {
	close(p.stop)
	<-p.done
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
