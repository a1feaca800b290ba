package parquetfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/icesql/icesql/iceberg"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// pageBuf holds the levels and the non-null values of the page being filled
// for one leaf, each value in the slice of its physical type.
type pageBuf struct {
	def, rep []byte
	entries  int
	bools    []bool
	i32      []int32
	i64      []int64
	f32      []float32
	f64      []float64
	bin      []byte   // BYTE_ARRAY bytes, or FIXED_LEN_BYTE_ARRAY values
	off      []uint32 // BYTE_ARRAY: value i is bin[off[i]:off[i+1]]
}

func (p *pageBuf) reset() {
	p.def, p.rep, p.entries = p.def[:0], p.rep[:0], 0
	p.bools, p.i32, p.i64, p.f32, p.f64 = p.bools[:0], p.i32[:0], p.i64[:0], p.f32[:0], p.f64[:0]
	p.bin, p.off = p.bin[:0], append(p.off[:0], 0)
}

// numValues is the number of non-null values in the page.
func (p *pageBuf) numValues(kind format.Type, width int) int {
	switch kind {
	case format.Boolean:
		return len(p.bools)
	case format.Int32:
		return len(p.i32)
	case format.Int64:
		return len(p.i64)
	case format.Float:
		return len(p.f32)
	case format.Double:
		return len(p.f64)
	case format.ByteArray:
		return len(p.off) - 1
	case format.FixedLenByteArray:
		return len(p.bin) / width
	}
	return 0
}

// rawSize estimates the page's PLAIN size, for cutting pages and row groups.
func (p *pageBuf) rawSize() int {
	return len(p.def) + len(p.rep) + len(p.bools) + 4*len(p.i32) + 8*len(p.i64) +
		4*len(p.f32) + 8*len(p.f64) + len(p.bin) + 4*len(p.off)
}

// chunkWriter encodes the pages of one leaf column for the current row
// group; the compressed pages stay in memory until the row group is written
// (the dictionary page, complete only at the end, must come first).
//
// A full page is handed to a goroutine that encodes and compresses it while
// the caller fills the next one; at most one page per column is in flight,
// which keeps the column's pages, dictionary and statistics in order.
type chunkWriter struct {
	kind   format.Type
	width  int // FIXED_LEN_BYTE_ARRAY width
	maxDef byte
	maxRep byte
	codec  compress.Codec
	sem    chan struct{} // shared bound on concurrent encodes; nil = synchronous
	page   pageBuf       // filled by the caller
	spare  pageBuf       // being encoded
	busy   sync.WaitGroup
	err    error
	queued atomic.Int64 // len(pages) plus the raw size of a page in flight

	// Owned by the encoding goroutine between flushPage and wait.
	pages     []byte // encoded data pages (headers included)
	numValues int64
	nulls     int64
	rawBytes  int64 // uncompressed size of the pages, headers included
	stats     boundStats
	pageStats boundStats // the page being encoded, folded into stats
	index     pageIndexer
	useDict   bool // dictionary encoding enabled for the column
	dictOn    bool // the current chunk still dictionary-encodes
	dictUsed  bool
	plainUsed bool
	dict      dictionary

	values, levels, body, comp, idx []byte
	indexes                         []int32
}

func (c *chunkWriter) init(l *leafColumn, kind format.Type, width int, codec compress.Codec, sem chan struct{}, ordered bool) {
	c.kind, c.width, c.maxDef, c.maxRep, c.codec, c.sem = kind, width, l.maxDef, l.maxRep, codec, sem
	c.stats.init(l.typ, false)
	c.pageStats.init(l.typ, false)
	_, isString := l.typ.(iceberg.StringType)
	c.index = pageIndexer{bounded: ordered, utf8: isString}
	// As pqarrow and Java: dictionary first, PLAIN once it outgrows its page.
	c.useDict = kind != format.Boolean
	c.dict.kind, c.dict.width = kind, width
	c.page.reset()
	c.spare.reset()
	c.resetChunk()
}

func (c *chunkWriter) resetChunk() {
	c.pages = c.pages[:0]
	c.queued.Store(0)
	c.numValues, c.nulls, c.rawBytes = 0, 0, 0
	c.stats.clear()
	c.index.reset()
	c.dictOn, c.dictUsed, c.plainUsed = c.useDict, false, false
	c.dict.reset()
}

// bufferedSize is the memory held for the chunk: encoded pages plus the
// raw page being filled.
func (c *chunkWriter) bufferedSize() int64 { return c.queued.Load() + int64(c.page.rawSize()) }

// wait finishes the page in flight and returns its error.
func (c *chunkWriter) wait() error {
	c.busy.Wait()
	return c.err
}

// flushPage hands the current page to the encoder (asynchronously when a
// semaphore is set) and starts a fresh one.
func (c *chunkWriter) flushPage() error {
	if c.page.entries == 0 {
		return nil
	}
	if err := c.wait(); err != nil {
		return err
	}
	c.page, c.spare = c.spare, c.page
	c.queued.Add(int64(c.spare.rawSize()))
	if c.sem == nil {
		c.err = c.encodePage(&c.spare)
		c.spare.reset()
		return c.err
	}
	c.busy.Add(1)
	c.sem <- struct{}{}
	go func() {
		defer c.busy.Done()
		c.err = c.encodePage(&c.spare)
		c.spare.reset()
		<-c.sem
	}()
	return nil
}

// encodePage encodes, compresses and buffers page p.
func (c *chunkWriter) encodePage(p *pageBuf) error {
	c.levels = c.levels[:0]
	if c.maxRep > 0 {
		if err := c.appendLevels(p.rep, c.maxRep); err != nil {
			return err
		}
	}
	if c.maxDef > 0 {
		if err := c.appendLevels(p.def, c.maxDef); err != nil {
			return err
		}
	}
	lo, hi, bounded := c.observePage(p)
	enc := format.Plain
	if c.dictOn {
		ok, err := c.encodeIndexes(p)
		if err != nil {
			return err
		}
		if ok {
			enc = format.RLEDictionary
			c.dictUsed = true
		} else {
			c.dictOn = false
		}
	}
	if enc == format.Plain {
		c.encodePlain(p)
		c.plainUsed = true
	}
	c.body = append(append(c.body[:0], c.levels...), c.values...)
	nulls := 0
	if c.maxDef > 0 {
		for _, d := range p.def {
			if d < c.maxDef {
				nulls++
			}
		}
	}
	h := format.PageHeader{Type: format.DataPage, DataPageHeader: thrift.New(format.DataPageHeader{
		NumValues: int32(p.entries), Encoding: enc,
		DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
	})}
	start := len(c.pages)
	if err := c.appendPage(&h, c.body); err != nil {
		return err
	}
	rows := int64(p.entries)
	if c.maxRep > 0 {
		rows = int64(bytes.Count(p.rep, []byte{0}))
	}
	c.index.addPage(start, len(c.pages)-start, rows, int64(nulls), p.numValues(c.kind, c.width), lo, hi, bounded)
	c.numValues += int64(p.entries)
	c.nulls += int64(nulls)
	c.queued.Store(int64(len(c.pages)))
	return nil
}

// appendPage compresses body and appends header and body to c.pages.
func (c *chunkWriter) appendPage(h *format.PageHeader, body []byte) error {
	if len(body) > math.MaxInt32 {
		return fmt.Errorf("parquetfile: page of %d bytes is too large", len(body))
	}
	var err error
	c.comp, err = c.codec.Encode(c.comp[:0], body)
	if err != nil {
		return fmt.Errorf("parquetfile: compressing page: %w", err)
	}
	h.UncompressedPageSize = int32(len(body))
	h.CompressedPageSize = int32(len(c.comp))
	h.CRC = pageCRC(c.comp)
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), h)
	if err != nil {
		return fmt.Errorf("parquetfile: encoding page header: %w", err)
	}
	c.pages = append(append(c.pages, hb...), c.comp...)
	c.rawBytes += int64(len(hb) + len(body))
	return nil
}

// appendLevels appends RLE levels with the 4-byte length prefix of v1 pages.
func (c *chunkWriter) appendLevels(levels []byte, max byte) error {
	enc := rle.Encoding{BitWidth: bits.Len8(max)}
	var err error
	c.idx, err = enc.EncodeLevels(c.idx[:0], levels)
	if err != nil {
		return fmt.Errorf("parquetfile: encoding levels: %w", err)
	}
	c.levels = binary.LittleEndian.AppendUint32(c.levels, uint32(len(c.idx)))
	c.levels = append(c.levels, c.idx...)
	return nil
}

// observePage folds the page's values into the chunk statistics and
// returns the page's PLAIN bounds for the column index (ok false when
// the column has none or the page holds no bounded value).
func (c *chunkWriter) observePage(p *pageBuf) (lo, hi []byte, ok bool) {
	if !c.index.bounded {
		c.observe(&c.stats, p)
		return nil, nil, false
	}
	c.pageStats.clear()
	c.observe(&c.pageStats, p)
	c.stats.merge(&c.pageStats)
	if lo, hi, ok = plainBounds(c.kind, &c.pageStats); ok && c.kind == format.ByteArray {
		lo, hi = c.index.truncateBounds(lo, hi)
	}
	return lo, hi, ok
}

func (c *chunkWriter) observe(s *boundStats, p *pageBuf) {
	switch c.kind {
	case format.Boolean:
		s.observeBools(p.bools)
	case format.Int32:
		s.observeInt32s(p.i32)
	case format.Int64:
		s.observeInt64s(p.i64)
	case format.Float:
		s.observeFloat32s(p.f32)
	case format.Double:
		s.observeFloat64s(p.f64)
	case format.ByteArray:
		s.observeByteArrays(p.bin, p.off)
	case format.FixedLenByteArray:
		s.observeFixed(p.bin, c.width)
	}
}

// encodePlain writes the page's values PLAIN into c.values.
func (c *chunkWriter) encodePlain(p *pageBuf) {
	v := c.values[:0]
	switch c.kind {
	case format.Boolean:
		v = appendBitPacked(v, p.bools)
	case format.Int32:
		v = appendLE(v, p.i32)
	case format.Int64:
		v = appendLE(v, p.i64)
	case format.Float:
		v = appendLE(v, p.f32)
	case format.Double:
		v = appendLE(v, p.f64)
	case format.ByteArray:
		v = appendPlainByteArrays(v, p.bin, p.off)
	case format.FixedLenByteArray:
		v = append(v, p.bin...)
	}
	c.values = v
}

func appendPlainByteArrays(v, bin []byte, off []uint32) []byte {
	for i := 0; i+1 < len(off); i++ {
		v = binary.LittleEndian.AppendUint32(v, off[i+1]-off[i])
		v = append(v, bin[off[i]:off[i+1]]...)
	}
	return v
}

// encodeIndexes looks the page's values up in the chunk dictionary
// (adding new ones) and writes their RLE_DICTIONARY indexes to c.values.
func (c *chunkWriter) encodeIndexes(p *pageBuf) (bool, error) {
	var ok bool
	c.indexes, ok = c.dict.indexes(p, c.indexes[:0])
	if !ok {
		return false, nil
	}
	var err error
	c.values, err = new(rle.DictionaryEncoding).EncodeInt32(c.values[:0], c.indexes)
	if err != nil {
		return false, fmt.Errorf("parquetfile: encoding dictionary indexes: %w", err)
	}
	return true, nil
}

// dictionaryPage returns the chunk's encoded dictionary page and its
// uncompressed size.
func (c *chunkWriter) dictionaryPage() ([]byte, int64, error) {
	body := c.dict.appendPlain(c.body[:0])
	c.body = body
	comp, err := c.codec.Encode(c.comp[:0], body)
	if err != nil {
		return nil, 0, fmt.Errorf("parquetfile: compressing dictionary: %w", err)
	}
	c.comp = comp
	h := format.PageHeader{Type: format.DictionaryPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(comp)), CRC: pageCRC(comp),
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(c.dict.numValues()), Encoding: format.Plain})}
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		return nil, 0, fmt.Errorf("parquetfile: encoding page header: %w", err)
	}
	return append(hb, comp...), int64(len(hb) + len(body)), nil
}

// encodings lists the chunk's encodings for the column metadata.
func (c *chunkWriter) encodings() []format.Encoding {
	out := []format.Encoding{format.RLE}
	if c.plainUsed || c.dictUsed { // the dictionary page is PLAIN
		out = append(out, format.Plain)
	}
	if c.dictUsed {
		out = append(out, format.RLEDictionary)
	}
	return out
}

// statistics are the chunk's footer statistics, PLAIN encoded.
func (c *chunkWriter) statistics() format.Statistics {
	st := format.Statistics{NullCount: c.nulls}
	lo, hi, ok := plainBounds(c.kind, &c.stats)
	// Long values make a bulky footer for little pruning power.
	if !ok || len(lo) > maxStatBytes || len(hi) > maxStatBytes {
		return st
	}
	st.MinValue, st.MaxValue = lo, hi
	if c.kind != format.ByteArray && c.kind != format.FixedLenByteArray {
		// The deprecated fields are signed order, right for these types.
		st.Min, st.Max = lo, hi
	}
	return st
}

// plainBounds are the PLAIN encodings of the min and max tracked by s (ok
// false when there are none). Zero bounds of floating-point columns are
// written as -0 (min) and +0 (max), as the Parquet spec asks, since
// readers may not order the two zeros.
func plainBounds(kind format.Type, s *boundStats) (lo, hi []byte, ok bool) {
	if !s.has {
		return nil, nil, false
	}
	minF, maxF := s.minF, s.maxF
	if minF == 0 {
		minF = math.Copysign(0, -1)
	}
	if maxF == 0 {
		maxF = 0
	}
	switch kind {
	case format.Boolean:
		lo, hi = []byte{byte(s.minI)}, []byte{byte(s.maxI)}
	case format.Int32:
		lo = binary.LittleEndian.AppendUint32(nil, uint32(int32(s.minI)))
		hi = binary.LittleEndian.AppendUint32(nil, uint32(int32(s.maxI)))
	case format.Int64:
		lo = binary.LittleEndian.AppendUint64(nil, uint64(s.minI))
		hi = binary.LittleEndian.AppendUint64(nil, uint64(s.maxI))
	case format.Float:
		lo = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(minF)))
		hi = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(maxF)))
	case format.Double:
		lo = binary.LittleEndian.AppendUint64(nil, math.Float64bits(minF))
		hi = binary.LittleEndian.AppendUint64(nil, math.Float64bits(maxF))
	default:
		lo, hi = append([]byte{}, s.minB...), append([]byte{}, s.maxB...)
	}
	return lo, hi, true
}

// maxStatBytes bounds byte-array min/max kept in the footer.
const maxStatBytes = 256

func appendLE[T int32 | int64 | float32 | float64](dst []byte, v []T) []byte {
	if len(v) == 0 {
		return dst
	}
	var zero T
	return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(zero)))...)
}

func appendBitPacked(dst []byte, v []bool) []byte {
	n := (len(v) + 7) / 8
	start := len(dst)
	dst = append(dst, make([]byte, n)...)
	out := dst[start:]
	for i, b := range v {
		if b {
			out[i>>3] |= 1 << (i & 7)
		}
	}
	return dst
}
