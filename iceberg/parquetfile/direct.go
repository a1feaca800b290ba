package parquetfile

import (
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// errNotDirect is returned by directChunk.claim for a page whose encoding
// it does not decode: the chunk is then read by parquet-go instead.
var errNotDirect = errors.New("page encoding not decoded directly")

// directChunk reads the pages of a flat column chunk itself: each page is
// read once, decompressed once (capped at its declared size) and decoded
// with every run length and index checked on the way, so no separate
// checking pass over the chunk is needed.
type directChunk struct {
	src     io.ReaderAt
	meta    *format.ColumnMetaData
	name    string
	kind    parquet.Kind
	width   int // FIXED_LEN_BYTE_ARRAY width
	maxDef  byte
	bind    bool // values stay in the page buffers (directKind), else copied
	pos     int64
	end     int64
	entries int64 // data page entries so far
	hdr     []byte
	dict    *chunkData // the dictionary's values, in the slice of their kind
	dictLen int
	sawData bool
	skipCRC bool        // Reader.SkipChecksums
	err     error       // set when the chunk cannot be read at all
	lender  *bodyLender // lends the data pages' bodies (ReadOptions.Scratch)
}

// directEncodings are the encodings directChunk decodes (BIT_PACKED only
// as the level encoding of required columns, where levels are absent).
var directEncodings = map[format.Encoding]bool{
	format.Plain: true, format.PlainDictionary: true, format.RLE: true,
	format.RLEDictionary: true, format.BitPacked: true,
	format.DeltaBinaryPacked: true, format.DeltaLengthByteArray: true,
	format.DeltaByteArray: true, format.ByteStreamSplit: true,
}

// directReadable reports whether every encoding the chunk declares is
// one directChunk decodes (pages are checked again as they come).
func directReadable(m *format.ColumnMetaData) bool {
	for _, e := range m.Encoding {
		if !directEncodings[e] {
			return false
		}
	}
	return true
}

func newDirectChunk(ref chunkRef, leaf *rleaf, node *rnode) *directChunk {
	m := ref.meta()
	start := chunkStart(m)
	col := leaf.col
	d := &directChunk{src: ref.r.src, meta: m, name: col.Name(), kind: col.Type().Kind(), skipCRC: ref.r.skipCRC,
		maxDef: byte(col.MaxDefinitionLevel()), pos: start, end: start + m.TotalCompressedSize, lender: leaf.lender}
	if d.kind == parquet.FixedLenByteArray {
		d.width = col.Type().Length()
	}
	d.bind = directKind(node.arrowType, leaf.timeUnit, d.kind)
	if !kindReadable(node.arrowType, d.kind) {
		d.err = corrupt("column %q: %v page cannot be read as %v", d.name, d.kind, node.arrowType)
	}
	return d
}

func (d *directChunk) close() {}

// claim reads the chunk's next data page into c (decoding a dictionary
// page on the way) and returns its entries; io.EOF at the end.
func (d *directChunk) claim(c *chunkData) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	for d.pos < d.end {
		at := d.pos
		h, n, err := readPageHeader(d.src, at, d.end, &d.hdr)
		if err != nil {
			return 0, d.corrupt(at, err)
		}
		body := at + int64(n)
		if err := checkPageHeader(h, d.end-body, d.meta); err != nil {
			return 0, d.corrupt(at, err)
		}
		d.pos = body + int64(h.CompressedPageSize)
		switch h.Type {
		case format.DictionaryPage:
			if d.dict != nil || d.sawData {
				return 0, d.corrupt(at, errors.New("dictionary page after the chunk's first page"))
			}
			if err := d.readDictionary(h, body); err != nil {
				return 0, d.corrupt(at, err)
			}
		case format.DataPage, format.DataPageV2:
			d.sawData = true
			if !d.decodes(h) {
				d.pos = at
				return 0, errNotDirect
			}
			nv, _ := dataPageValues(h)
			d.entries += int64(nv)
			if d.entries > d.meta.NumValues {
				return 0, d.corrupt(at, fmt.Errorf("pages hold more than the chunk's %d values", d.meta.NumValues))
			}
			c.resetDirect(d.kind, d.maxDef, d.width, d.bind)
			c.bufs.lender = d.lender
			raw, err := d.readRaw(c.bufs.raw, body, int(h.CompressedPageSize))
			if err != nil {
				return 0, d.corrupt(at, err)
			}
			if !d.skipCRC {
				if err := checkPageCRC(h, raw); err != nil {
					return 0, d.corrupt(at, err)
				}
			}
			c.bufs.raw, c.bufs.hdr, c.bufs.at = raw, h, at
			return int(nv), nil
		}
		// Index pages and unknown page types carry no values.
	}
	return 0, io.EOF
}

// decode decodes the data page claim read into c. The chunk's state it
// reads (dictionary, kind) is fixed by the time the page is claimed.
func (d *directChunk) decode(c *chunkData) error {
	if err := d.readData(c, c.bufs.hdr); err != nil {
		return d.corrupt(c.bufs.at, err)
	}
	return nil
}

func (d *directChunk) corrupt(at int64, err error) error {
	return corrupt("column %q: page at offset %d: %v", d.name, at, err)
}

// decodes reports whether the data page's encodings are decoded here.
func (d *directChunk) decodes(h *format.PageHeader) bool {
	var values format.Encoding
	if h.Type == format.DataPage {
		v := &h.DataPageHeader.V
		if d.maxDef > 0 && v.DefinitionLevelEncoding != format.RLE {
			return false
		}
		values = v.Encoding
	} else {
		values = h.DataPageHeaderV2.V.Encoding
	}
	switch values {
	case format.Plain, format.PlainDictionary, format.RLEDictionary:
		return true
	case format.RLE:
		return d.kind == parquet.Boolean
	}
	return directEncodings[values] && decodesEncoded(values, d.kind)
}

// readRaw reads size bytes at pos into buf's storage (a pooled buffer
// when the chunk is uncompressed: values are then decoded in place).
func (d *directChunk) readRaw(buf []byte, pos int64, size int) ([]byte, error) {
	switch {
	case d.meta.Codec == format.Uncompressed:
		buf = pageMemory.get(size)
	case cap(buf) < size+zstdSlack:
		// Slack past the bytes lets the zstd decoder take literals from
		// the input with its fast (block-copying) path.
		buf = make([]byte, size, size+zstdSlack)
	default:
		buf = buf[:size]
	}
	if n, err := d.src.ReadAt(buf, pos); n < size {
		return nil, fmt.Errorf("reading page: %d of %d bytes: %v", n, size, err)
	}
	return buf, nil
}

// readDictionary decodes the dictionary page h (PLAIN values) into fresh
// buffers: pages bound to it may outlive the chunk's reader.
func (d *directChunk) readDictionary(h *format.PageHeader, pos int64) error {
	raw, err := d.readRaw(nil, pos, int(h.CompressedPageSize))
	if err != nil {
		return err
	}
	if !d.skipCRC {
		if err := checkPageCRC(h, raw); err != nil {
			return fmt.Errorf("dictionary page: %w", err)
		}
	}
	body, err := decompressPage(d.meta.Codec, nil, raw, int(h.UncompressedPageSize))
	if err != nil {
		return err
	}
	n := int(h.DictionaryPageHeader.V.NumValues)
	dict := &chunkData{bufs: new(pageBufs)}
	dict.resetDirect(d.kind, 0, d.width, true)
	if err := dict.appendPlainValues(body, n, true); err != nil {
		return fmt.Errorf("dictionary page: %w", err)
	}
	dict.n = n
	d.dict, d.dictLen = dict, n
	return nil
}

// readData decodes the data page h, whose bytes are in c.bufs.raw.
func (d *directChunk) readData(c *chunkData, h *format.PageHeader) error {
	b := c.bufs
	raw := b.raw
	if d.meta.Codec == format.Uncompressed {
		b.body, b.raw = raw, nil
	}
	var (
		err            error
		n              int
		levels, values []byte
		enc            format.Encoding
	)
	if h.Type == format.DataPage {
		v := &h.DataPageHeader.V
		n, enc = int(v.NumValues), v.Encoding
		body, err := d.decompress(b, raw, int(h.UncompressedPageSize))
		if err != nil {
			return err
		}
		values = body
		if d.maxDef > 0 {
			if len(body) < 4 {
				return errors.New("definition levels truncated")
			}
			l := uint64(body[0]) | uint64(body[1])<<8 | uint64(body[2])<<16 | uint64(body[3])<<24
			if l > uint64(len(body)-4) {
				return fmt.Errorf("%d bytes of definition levels in %d", l, len(body)-4)
			}
			levels, values = body[4:4+l], body[4+l:]
		}
	} else {
		v := &h.DataPageHeaderV2.V
		n, enc = int(v.NumValues), v.Encoding
		rl, dl := int64(v.RepetitionLevelsByteLength), int64(v.DefinitionLevelsByteLength)
		if rl < 0 || dl < 0 || rl+dl > int64(len(raw)) || rl+dl > int64(h.UncompressedPageSize) {
			return fmt.Errorf("levels of %d+%d bytes in a page of %d", rl, dl, len(raw))
		}
		levels, values = raw[rl:rl+dl], raw[rl+dl:]
		if !v.IsCompressed.Valid || v.IsCompressed.V {
			if values, err = d.decompress(b, values, int(int64(h.UncompressedPageSize)-rl-dl)); err != nil {
				return err
			}
		}
	}
	defined := n
	if d.maxDef > 0 {
		if defined, err = c.decodeDefLevels(levels, n, d.bind); err != nil {
			return fmt.Errorf("definition levels: %w", err)
		}
	}
	c.n = n
	switch enc {
	case format.PlainDictionary, format.RLEDictionary:
		if d.dict == nil {
			return errors.New("dictionary-encoded page without a dictionary page")
		}
		b.idx = grow(b.idx[:0], defined)
		if err := decodeIndexes(values, d.dictLen, b.idx); err != nil {
			return err
		}
		if d.bind {
			c.bindDictionary(d.dict, b.idx)
		} else {
			c.appendFromDictionary(d.dict, b.idx)
		}
	case format.RLE: // booleans
		if len(values) < 4 {
			return errors.New("boolean values truncated")
		}
		b.b = grow(b.b[:0], defined)
		l := uint64(values[0]) | uint64(values[1])<<8 | uint64(values[2])<<16 | uint64(values[3])<<24
		if l > uint64(len(values)-4) {
			return fmt.Errorf("%d bytes of boolean values in %d", l, len(values)-4)
		}
		if err := decodeBools(values[4:4+l], b.b); err != nil {
			return fmt.Errorf("boolean values: %w", err)
		}
		c.b = b.b
	case format.Plain:
		if err := c.appendPlainValues(values, defined, d.bind); err != nil {
			return err
		}
	default:
		if err := d.decodeEncoded(c, enc, values, defined, int(h.UncompressedPageSize)); err != nil {
			return fmt.Errorf("%v values: %w", enc, err)
		}
	}
	if c.idx != nil {
		return nil // bound to the dictionary: decodeIndexes read defined indexes
	}
	if got := c.numValues(); got != defined {
		return fmt.Errorf("page has %d values for %d defined entries", got, defined)
	}
	return nil
}

// decompress decodes a page body into a pooled buffer, the page's body
// (the raw bytes themselves when uncompressed).
func (d *directChunk) decompress(b *pageBufs, src []byte, size int) ([]byte, error) {
	if d.meta.Codec == format.Uncompressed {
		return decompressPage(d.meta.Codec, nil, src, size)
	}
	// The declared size sizes the buffer only when the compressed bytes
	// back it (see eagerRatio); larger claims grow as output comes.
	var buf []byte
	if size <= max(eagerBytes, eagerRatio*len(src)) {
		buf = pageMemory.get(size + zstdSlack)
	}
	out, err := decompressPage(d.meta.Codec, buf, src, size)
	if err != nil {
		pageMemory.put(buf)
		return nil, err
	}
	if buf != nil && unsafe.SliceData(out) != unsafe.SliceData(buf) {
		pageMemory.put(buf) // a decoder grew its own
	}
	b.body = out
	return out, nil
}

// decodeDefLevels decodes the page's n definition levels into c.def and
// returns how many entries are defined. A page without nulls that is
// bound in place gets no levels at all (maxDef 0: every entry defined).
func (c *chunkData) decodeDefLevels(src []byte, n int, bind bool) (int, error) {
	if allLevelsMax(src, c.maxDef, n) {
		if bind {
			c.maxDef = 0
			return n, nil
		}
		c.bufs.def = grow(c.bufs.def[:0], n)
		for i := range c.bufs.def {
			c.bufs.def[i] = c.maxDef
		}
		c.def = c.bufs.def
		return n, nil
	}
	c.bufs.def = grow(c.bufs.def[:0], n)
	full, err := decodeLevels(src, c.maxDef, c.bufs.def)
	if err != nil {
		return 0, err
	}
	c.def = c.bufs.def
	return full, nil
}
