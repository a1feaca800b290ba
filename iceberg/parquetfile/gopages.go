package parquetfile

import (
	"errors"
	"io"

	"github.com/parquet-go/parquet-go"
)

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

// claim reads and decodes the next page: parquet-go's page reader does
// both at once.
func (g *goPages) claim(c *chunkData) (int, error) {
	if g.pages == nil {
		if err := g.ref.r.checkChunk(g.ref.group, g.leaf.col); err != nil {
			return 0, err
		}
		g.pages = g.ref.r.pages(g.ref.cc)
	}
	if c.bufs != nil {
		// Decoded directly before: its slices may alias a dictionary
		// still in use, which appending here would overwrite.
		c.releasePage()
		*c = chunkData{}
	}
	for {
		if err := decodeFlatPage(g.pages, c, g.leaf, g.node, g.maxDef); err != nil {
			return 0, err
		}
		if g.skip <= 0 {
			return c.n, nil
		}
		g.skip -= int64(c.n)
		c.releasePage()
		if g.skip < 0 {
			return 0, corrupt("column %q: pages differ between readings", g.leaf.col.Name())
		}
	}
}

func (g *goPages) decode(*chunkData) error { return nil }

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
