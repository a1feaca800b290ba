package parquetfile

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// dictionaryLimitBytes caps a column chunk's dictionary; past it the chunk
// continues in PLAIN (the 1 MiB dictionary page limit pqarrow and Java use).
const dictionaryLimitBytes = 1 << 20

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

// rawSize estimates the page's PLAIN size, for cutting pages and row groups.
func (p *pageBuf) rawSize() int {
	return len(p.def) + len(p.rep) + len(p.bools) + 4*len(p.i32) + 8*len(p.i64) +
		4*len(p.f32) + 8*len(p.f64) + len(p.bin) + 4*len(p.off)
}

// chunkWriter encodes the pages of one leaf column for the current row
// group; the compressed pages stay in memory until the row group is written
// (the dictionary page, built last, must come first in the file).
type chunkWriter struct {
	kind      format.Type
	width     int // FIXED_LEN_BYTE_ARRAY width
	maxDef    byte
	maxRep    byte
	codec     compress.Codec
	page      pageBuf
	pages     []byte // encoded data pages (headers included)
	numValues int64
	nulls     int64
	rawBytes  int64 // uncompressed size of the pages, headers included
	stats     boundStats
	useDict   bool // dictionary encoding enabled for the column
	dictOn    bool // the current chunk still dictionary-encodes
	dictUsed  bool
	dict      map[string]int32
	dictBin   []byte
	dictOff   []uint32
	plainUsed bool

	values, levels, body, comp, idx []byte
	indexes                         []int32
}

func (c *chunkWriter) init(l *leafColumn, kind format.Type, width int, codec compress.Codec) {
	c.kind, c.width, c.maxDef, c.maxRep, c.codec = kind, width, l.maxDef, l.maxRep, codec
	c.stats.init(l.typ, false)
	c.useDict = kind == format.ByteArray
	c.page.reset()
	c.resetChunk()
}

func (c *chunkWriter) resetChunk() {
	c.pages = c.pages[:0]
	c.numValues, c.nulls, c.rawBytes = 0, 0, 0
	c.stats = boundStats{typ: c.stats.typ, floating: c.stats.floating, signedBE: c.stats.signedBE, byteKind: c.stats.byteKind,
		minB: c.stats.minB[:0], maxB: c.stats.maxB[:0]}
	c.dictOn, c.dictUsed, c.plainUsed = c.useDict, false, false
	clear(c.dict)
	c.dictBin, c.dictOff = c.dictBin[:0], append(c.dictOff[:0], 0)
}

// bufferedSize is the memory held for the chunk: encoded pages plus the
// raw page being filled.
func (c *chunkWriter) bufferedSize() int64 { return int64(len(c.pages) + c.page.rawSize()) }

// flushPage encodes, compresses and buffers the current page.
func (c *chunkWriter) flushPage() error {
	p := &c.page
	if p.entries == 0 {
		return nil
	}
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
	c.observePage()
	enc := format.Plain
	if c.dictOn {
		enc = format.RLEDictionary
		if err := c.encodeIndexes(); err != nil {
			return err
		}
		c.dictUsed = true
		if len(c.dictBin)+4*len(c.dictOff) > dictionaryLimitBytes {
			c.dictOn = false
		}
	} else {
		c.encodePlain()
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
	if err := c.appendPage(&h, c.body); err != nil {
		return err
	}
	c.numValues += int64(p.entries)
	c.nulls += int64(nulls)
	p.reset()
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

func (c *chunkWriter) observePage() {
	p := &c.page
	switch c.kind {
	case format.Boolean:
		c.stats.observeBools(p.bools)
	case format.Int32:
		c.stats.observeInt32s(p.i32)
	case format.Int64:
		c.stats.observeInt64s(p.i64)
	case format.Float:
		c.stats.observeFloat32s(p.f32)
	case format.Double:
		c.stats.observeFloat64s(p.f64)
	case format.ByteArray:
		c.stats.observeByteArrays(p.bin, p.off)
	case format.FixedLenByteArray:
		c.stats.observeFixed(p.bin, c.width)
	}
}

// encodePlain writes the page's values PLAIN into c.values.
func (c *chunkWriter) encodePlain() {
	p := &c.page
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

// encodeIndexes looks the page's byte arrays up in the chunk dictionary
// (adding new ones) and writes their RLE_DICTIONARY indexes to c.values.
func (c *chunkWriter) encodeIndexes() error {
	p := &c.page
	if c.dict == nil {
		c.dict = make(map[string]int32)
	}
	idx := c.indexes[:0]
	for i := 0; i+1 < len(p.off); i++ {
		b := p.bin[p.off[i]:p.off[i+1]]
		k, ok := c.dict[unsafe.String(unsafe.SliceData(b), len(b))]
		if !ok {
			k = int32(len(c.dictOff) - 1)
			start := len(c.dictBin)
			c.dictBin = append(c.dictBin, b...)
			c.dictOff = append(c.dictOff, uint32(len(c.dictBin)))
			// The key borrows the dictionary bytes; a later append that
			// moves dictBin leaves the old array alive for the map.
			key := c.dictBin[start:]
			c.dict[unsafe.String(unsafe.SliceData(key), len(key))] = k
		}
		idx = append(idx, k)
	}
	c.indexes = idx
	var err error
	c.values, err = new(rle.DictionaryEncoding).EncodeInt32(c.values[:0], idx)
	if err != nil {
		return fmt.Errorf("parquetfile: encoding dictionary indexes: %w", err)
	}
	return nil
}

// appendDictionaryPage returns the chunk's encoded dictionary page.
func (c *chunkWriter) dictionaryPage() ([]byte, int64, error) {
	body := appendPlainByteArrays(c.body[:0], c.dictBin, c.dictOff)
	c.body = body
	comp, err := c.codec.Encode(c.comp[:0], body)
	if err != nil {
		return nil, 0, fmt.Errorf("parquetfile: compressing dictionary: %w", err)
	}
	c.comp = comp
	h := format.PageHeader{Type: format.DictionaryPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(comp)),
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(len(c.dictOff) - 1), Encoding: format.Plain})}
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		return nil, 0, fmt.Errorf("parquetfile: encoding page header: %w", err)
	}
	return append(hb, comp...), int64(len(hb) + len(body)), nil
}

// encodings lists the chunk's encodings for the column metadata.
func (c *chunkWriter) encodings() []format.Encoding {
	out := []format.Encoding{format.RLE}
	if c.plainUsed || c.dictUsed {
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
	s := &c.stats
	if !s.has {
		return st
	}
	var lo, hi []byte
	switch c.kind {
	case format.Boolean:
		lo, hi = []byte{byte(s.minI)}, []byte{byte(s.maxI)}
	case format.Int32:
		lo = binary.LittleEndian.AppendUint32(nil, uint32(int32(s.minI)))
		hi = binary.LittleEndian.AppendUint32(nil, uint32(int32(s.maxI)))
	case format.Int64:
		lo = binary.LittleEndian.AppendUint64(nil, uint64(s.minI))
		hi = binary.LittleEndian.AppendUint64(nil, uint64(s.maxI))
	case format.Float:
		lo = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(s.minF)))
		hi = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(s.maxF)))
	case format.Double:
		lo = binary.LittleEndian.AppendUint64(nil, math.Float64bits(s.minF))
		hi = binary.LittleEndian.AppendUint64(nil, math.Float64bits(s.maxF))
	default:
		// Long values make a bulky footer for little pruning power.
		if len(s.minB) > maxStatBytes || len(s.maxB) > maxStatBytes {
			return st
		}
		lo, hi = append([]byte{}, s.minB...), append([]byte{}, s.maxB...)
	}
	st.MinValue, st.MaxValue = lo, hi
	if c.kind != format.ByteArray && c.kind != format.FixedLenByteArray {
		// The deprecated fields are signed order, right for these types.
		st.Min, st.Max = lo, hi
	}
	return st
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
