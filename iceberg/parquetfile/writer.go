// Package parquetfile writes and reads Iceberg data files in Parquet, with
// Arrow record batches in and out. Columns are bound by Iceberg field id.
package parquetfile

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/parquet-go/parquet-go/format"
)

// writeChunkRows is how many rows are shredded between page-size checks
// (pages cut at row boundaries, a little past the page size).
const writeChunkRows = 1024

// Writer writes Arrow record batches of one Iceberg schema to a Parquet file
// and collects the file's Iceberg metrics. Pages are encoded by the package
// itself from typed column buffers; parquet-go supplies the format structs,
// thrift, level/dictionary encodings and codecs. Every column chunk gets
// an offset index and, when its values are ordered, a column index (see
// pageindex.go), so that readers can skip pages.
type Writer struct {
	out       *countingWriter
	schema    *iceberg.Schema
	arrow     *arrow.Schema
	opts      WriterOptions
	roots     []*wnode
	leaves    []*leafColumn
	layout    *fileLayout
	rowGroups []format.RowGroup
	// pageIndexes are each row group's serialised column chunk indexes,
	// written after the last row group.
	pageIndexes [][]chunkPageIndex
	rows        int64
	rgRows      int64
	// pageRows counts each leaf's rows since its page began, for the
	// page row limit.
	pageRows []int
	started  bool
	closed   bool
	metrics  Metrics
}

// NewWriter starts a Parquet file for schema on w. Nothing is written to w
// until the first row group or Close.
func NewWriter(w io.Writer, schema *iceberg.Schema, opts WriterOptions) (*Writer, error) {
	opts = opts.withDefaults()
	var err error
	opts.KeyValueMetadata = withGeoArrowSchema(schema, opts.KeyValueMetadata)
	if opts.KeyValueMetadata, err = withIcebergSchema(schema, opts.KeyValueMetadata); err != nil {
		return nil, err
	}
	as, err := arrowschema.ToArrow(schema)
	if err != nil {
		return nil, err
	}
	codec, err := codecFor(opts.Compression, opts.CompressionLevel)
	if err != nil {
		return nil, err
	}
	layout, err := layoutFor(schema)
	if err != nil {
		return nil, err
	}
	var sem chan struct{}
	if opts.Concurrency > 1 {
		sem = make(chan struct{}, opts.Concurrency)
	}
	roots, leaves := buildWriteTree(schema)
	if len(layout.leaves) != len(leaves) {
		return nil, fmt.Errorf("parquetfile: internal error: %d parquet columns for %d leaves", len(layout.leaves), len(leaves))
	}
	for i, l := range leaves {
		ll := layout.leaves[i]
		if ll.maxDef != l.maxDef || ll.maxRep != l.maxRep {
			return nil, fmt.Errorf("parquetfile: internal error: levels of column %d differ", l.fieldID)
		}
		l.cw.init(l, ll.kind, ll.width, codec, sem, hasColumnOrder(l, layout.columnOrders[i]))
		l.cw.dict.limit = opts.DictSizeBytes
	}
	return &Writer{out: &countingWriter{w: w}, schema: schema, arrow: as, opts: opts, roots: roots, leaves: leaves, layout: layout,
		pageRows: make([]int, len(leaves))}, nil
}

// ArrowSchema is the Arrow schema records are converted to before writing.
func (w *Writer) ArrowSchema() *arrow.Schema { return w.arrow }

// Write appends a record batch whose columns correspond by position to the
// schema's top-level fields. Columns are converted as arrowschema.CastRecord
// does; a null in a required field fails with iceberg.ErrNotNullViolation
// and nothing of the batch is written.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.closed {
		return ErrWriterClosed
	}
	cast, err := arrowschema.CastRecord(context.Background(), rec, w.arrow)
	if err != nil {
		return err
	}
	defer cast.Release()
	for i, f := range w.schema.Fields() {
		if err := checkDecimals(cast.Column(i), f.ID, f.Type); err != nil {
			return err
		}
	}
	n := int(cast.NumRows())
	for from := 0; from < n; {
		// A chunk ends where a page reaches its row limit, so pages are
		// cut at the limit exactly.
		to := min(from+writeChunkRows, n)
		if limit := w.opts.RowGroupRowLimit; limit > 0 {
			to = min(to, from+int(limit-w.rgRows))
		}
		if limit := w.opts.PageRowLimit; limit > 0 {
			for _, r := range w.pageRows {
				to = min(to, from+limit-r)
			}
		}
		for i, root := range w.roots {
			if err := root.emitRows(cast.Column(i), from, to); err != nil {
				return err
			}
		}
		w.rows += int64(to - from)
		w.rgRows += int64(to - from)
		var buffered int64
		for i, l := range w.leaves {
			w.pageRows[i] += to - from
			if w.opts.PageRowLimit > 0 && w.pageRows[i] >= w.opts.PageRowLimit || l.cw.page.rawSize() >= w.opts.PageSizeBytes {
				if err := l.cw.flushPage(); err != nil {
					return err
				}
				w.pageRows[i] = 0
			}
			buffered += l.cw.bufferedSize()
		}
		from = to
		if buffered >= w.opts.RowGroupSizeBytes || w.opts.RowGroupRowLimit > 0 && w.rgRows >= w.opts.RowGroupRowLimit {
			if err := w.flushRowGroup(); err != nil {
				return err
			}
		}
	}
	return nil
}

// flushRowGroup writes the buffered column chunks as one row group.
func (w *Writer) flushRowGroup() error {
	if w.rgRows == 0 {
		return nil
	}
	if err := w.writeMagic(); err != nil {
		return err
	}
	rg := format.RowGroup{NumRows: w.rgRows, FileOffset: w.out.n, Ordinal: int16(len(w.rowGroups))}
	if len(w.rowGroups) >= 1<<15 {
		return fmt.Errorf("parquetfile: too many row groups")
	}
	for i, l := range w.leaves {
		if err := l.cw.flushPage(); err != nil {
			return err
		}
		w.pageRows[i] = 0
	}
	for _, l := range w.leaves {
		if err := l.cw.wait(); err != nil {
			return err
		}
	}
	indexes := make([]chunkPageIndex, 0, len(w.leaves))
	for i, l := range w.leaves {
		c := &l.cw
		start := w.out.n
		md := format.ColumnMetaData{
			Type: c.kind, PathInSchema: w.layout.leaves[i].path, Codec: c.codec.CompressionCodec(),
			NumValues: c.numValues, Statistics: c.statistics(), Encoding: c.encodings(),
		}
		raw := c.rawBytes
		if c.dictUsed {
			page, rawDict, err := c.dictionaryPage()
			if err != nil {
				return err
			}
			md.DictionaryPageOffset = start
			if _, err := w.out.Write(page); err != nil {
				return err
			}
			raw += rawDict
		}
		md.DataPageOffset = w.out.n
		if _, err := w.out.Write(c.pages); err != nil {
			return err
		}
		md.TotalCompressedSize = w.out.n - start
		idx, err := c.index.build(md.DataPageOffset, c.kind, c.stats.signedBE)
		if err != nil {
			return err
		}
		indexes = append(indexes, idx)
		md.TotalUncompressedSize = raw
		rg.Columns = append(rg.Columns, format.ColumnChunk{FileOffset: start, MetaData: md})
		rg.TotalByteSize += raw
		rg.TotalCompressedSize += md.TotalCompressedSize
		l.valueCount += c.numValues
		l.nullCount += c.nulls
		l.colSize += md.TotalCompressedSize
		l.stats.merge(&c.stats)
		c.resetChunk()
	}
	w.rowGroups = append(w.rowGroups, rg)
	w.pageIndexes = append(w.pageIndexes, indexes)
	w.rgRows = 0
	return nil
}

func (w *Writer) writeMagic() error {
	if w.started {
		return nil
	}
	w.started = true
	_, err := w.out.Write([]byte("PAR1"))
	return err
}

// Rows is the number of rows written so far.
func (w *Writer) Rows() int64 { return w.rows }

// EstimatedSize is the bytes written so far plus the buffered row group
// (compressed pages, and the open pages uncompressed); used to roll files
// at a target size.
func (w *Writer) EstimatedSize() int64 {
	n := w.out.n
	for _, l := range w.leaves {
		n += l.cw.bufferedSize()
	}
	return n
}

// Close finishes the file (footer included) and returns its metrics. It
// does not close the underlying io.Writer.
func (w *Writer) Close() (Metrics, error) {
	if w.closed {
		return w.metrics, nil
	}
	w.closed = true
	if err := w.flushRowGroup(); err != nil {
		return Metrics{}, err
	}
	if err := w.writeMagic(); err != nil {
		return Metrics{}, err
	}
	if err := w.writePageIndexes(); err != nil {
		return Metrics{}, err
	}
	if err := w.writeFooter(); err != nil {
		return Metrics{}, err
	}
	m, err := w.collectMetrics()
	if err != nil {
		return Metrics{}, err
	}
	w.metrics = m
	return m, nil
}

// writePageIndexes writes every column index, then every offset index
// (the layout of parquet-mr and Arrow), and points the footer's column
// chunks at them.
func (w *Writer) writePageIndexes() error {
	for pass := range 2 {
		for g, rg := range w.pageIndexes {
			for i, idx := range rg {
				b := idx.column
				if pass == 1 {
					b = idx.offset
				}
				if b == nil {
					continue
				}
				if len(b) > math.MaxInt32 {
					return fmt.Errorf("parquetfile: page index of %d bytes is too large", len(b))
				}
				cc := &w.rowGroups[g].Columns[i]
				if pass == 0 {
					cc.ColumnIndexOffset, cc.ColumnIndexLength = w.out.n, int32(len(b))
				} else {
					cc.OffsetIndexOffset, cc.OffsetIndexLength = w.out.n, int32(len(b))
				}
				if _, err := w.out.Write(b); err != nil {
					return err
				}
			}
		}
	}
	w.pageIndexes = nil
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
