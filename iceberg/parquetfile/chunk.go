package parquetfile

import (
	"errors"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"
)

// chunkData is one column chunk decoded into flat slices: the levels of
// every entry and the non-null values in the slice of their physical kind.
type chunkData struct {
	kind   parquet.Kind
	maxDef byte
	maxRep byte
	def    []byte // nil when maxDef == 0
	rep    []byte // nil when maxRep == 0
	n      int    // entries
	b      []bool
	i32    []int32
	i64    []int64 // INT64, and INT96 converted to microseconds
	f32    []float32
	f64    []float64
	bin    []byte  // BYTE_ARRAY bytes / FIXED_LEN_BYTE_ARRAY bytes
	off    []int32 // BYTE_ARRAY offsets into bin, len = values+1
	width  int     // FIXED_LEN_BYTE_ARRAY width
	// Set by bindPage only: the page the slices alias, and the dictionary
	// indexes of the values (the slice of their kind then holds the
	// dictionary).
	page parquet.Page
	idx  []int32
	// dict is the dictionary idx reads through, when bound by
	// bindDictionary (a new one per dictionary page: its identity tells
	// the dictionary of one batch from the next's).
	dict *chunkData
	// Set for pages decoded by directChunk: the buffers they own (the
	// slices above may alias them), reused when the page is recycled.
	bufs *pageBufs
}

func (c *chunkData) reset(kind parquet.Kind, maxDef, maxRep byte, width int) {
	*c = chunkData{kind: kind, maxDef: maxDef, maxRep: maxRep, width: width,
		def: c.def[:0], rep: c.rep[:0], b: c.b[:0], i32: c.i32[:0], i64: c.i64[:0],
		f32: c.f32[:0], f64: c.f64[:0], bin: c.bin[:0], off: append(c.off[:0], 0)}
}

func (c *chunkData) numValues() int {
	switch c.kind {
	case parquet.Boolean:
		return len(c.b)
	case parquet.Int32:
		return len(c.i32)
	case parquet.Int64, parquet.Int96:
		return len(c.i64)
	case parquet.Float:
		return len(c.f32)
	case parquet.Double:
		return len(c.f64)
	case parquet.ByteArray:
		return len(c.off) - 1
	case parquet.FixedLenByteArray:
		return len(c.bin) / c.width
	}
	return 0
}

// load decodes every page of a column chunk of r's file.
func (c *chunkData) load(r *Reader, cc parquet.ColumnChunk, maxDef, maxRep byte) error {
	width := 0
	if cc.Type().Kind() == parquet.FixedLenByteArray {
		width = cc.Type().Length()
		if width <= 0 {
			return corrupt("column %d: fixed length %d", cc.Column(), width)
		}
	}
	c.reset(cc.Type().Kind(), maxDef, maxRep, width)
	pages := r.pages(cc)
	defer pages.Close()
	for {
		p, err := readPage(pages)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return corrupt("column %d: %v", cc.Column(), err)
		}
		err = c.appendPage(p)
		parquet.Release(p)
		if err != nil {
			return err
		}
	}
	return c.validate()
}

func (c *chunkData) appendPage(p parquet.Page) error {
	entries := int(p.NumValues())
	defined := entries
	if c.maxDef > 0 {
		d := p.DefinitionLevels()
		if len(d) != entries {
			return corrupt("page has %d definition levels for %d values", len(d), entries)
		}
		defined = 0
		for _, l := range d {
			if l > c.maxDef {
				return corrupt("definition level %d above maximum %d", l, c.maxDef)
			}
			if l == c.maxDef {
				defined++
			}
		}
		c.def = append(c.def, d...)
	}
	if c.maxRep > 0 {
		r := p.RepetitionLevels()
		if len(r) != entries {
			return corrupt("page has %d repetition levels for %d values", len(r), entries)
		}
		for _, l := range r {
			if l > c.maxRep {
				return corrupt("repetition level %d above maximum %d", l, c.maxRep)
			}
		}
		if c.n == 0 && len(r) > 0 && r[0] != 0 {
			return corrupt("column chunk starts inside a row")
		}
		c.rep = append(c.rep, r...)
	}
	c.n += entries
	before := c.numValues()
	var err error
	if dict := p.Dictionary(); dict != nil {
		data := p.Data()
		err = c.appendIndexed(data.Int32(), dict, defined)
	} else {
		data := p.Data()
		err = c.appendPlain(&data, defined)
	}
	if err != nil {
		return err
	}
	if got := c.numValues() - before; got != defined {
		return corrupt("page has %d values for %d defined entries", got, defined)
	}
	return nil
}

func (c *chunkData) appendPlain(d *encoding.Values, n int) error {
	switch c.kind {
	case parquet.Boolean:
		bits := d.Boolean()
		if len(bits)*8 < n {
			return corrupt("boolean page too short")
		}
		for i := range n {
			c.b = append(c.b, bits[i/8]>>(i%8)&1 == 1)
		}
	case parquet.Int32:
		c.i32 = append(c.i32, d.Int32()...)
	case parquet.Int64:
		c.i64 = append(c.i64, d.Int64()...)
	case parquet.Int96:
		for _, v := range d.Int96() {
			c.i64 = append(c.i64, int96Micros(v))
		}
	case parquet.Float:
		c.f32 = append(c.f32, d.Float()...)
	case parquet.Double:
		c.f64 = append(c.f64, d.Double()...)
	case parquet.ByteArray:
		data, offs := d.ByteArray()
		if len(offs) == 0 {
			return nil
		}
		base := int32(len(c.bin)) - int32(offs[0])
		for _, o := range offs[1:] {
			if o < offs[0] || int(o) > len(data) {
				return corrupt("byte array offset %d out of range", o)
			}
			c.off = append(c.off, base+int32(o))
		}
		c.bin = append(c.bin, data[offs[0]:offs[len(offs)-1]]...)
	case parquet.FixedLenByteArray:
		data, size := d.FixedLenByteArray()
		if size != c.width {
			return corrupt("fixed width %d, want %d", size, c.width)
		}
		c.bin = append(c.bin, data...)
	default:
		// Parquet's UNKNOWN (NULL) columns have no physical kind and no values
		if n == 0 {
			return nil
		}
		return corrupt("unsupported physical type %v", c.kind)
	}
	return nil
}

func (c *chunkData) appendIndexed(idx []int32, dict parquet.Dictionary, n int) error {
	if len(idx) != n {
		return corrupt("page has %d dictionary indexes for %d defined entries", len(idx), n)
	}
	size := int32(dict.Len())
	for _, i := range idx {
		if i < 0 || i >= size {
			return corrupt("dictionary index %d out of range (%d entries)", i, size)
		}
	}
	dv := dict.Page().Data()
	switch c.kind {
	case parquet.Boolean:
		for _, i := range idx {
			c.b = append(c.b, dict.Index(i).Boolean())
		}
	case parquet.Int32:
		vals := dv.Int32()
		for _, i := range idx {
			c.i32 = append(c.i32, vals[i])
		}
	case parquet.Int64:
		vals := dv.Int64()
		for _, i := range idx {
			c.i64 = append(c.i64, vals[i])
		}
	case parquet.Int96:
		vals := dv.Int96()
		for _, i := range idx {
			c.i64 = append(c.i64, int96Micros(vals[i]))
		}
	case parquet.Float:
		vals := dv.Float()
		for _, i := range idx {
			c.f32 = append(c.f32, vals[i])
		}
	case parquet.Double:
		vals := dv.Double()
		for _, i := range idx {
			c.f64 = append(c.f64, vals[i])
		}
	case parquet.ByteArray:
		data, offs := dv.ByteArray()
		for _, i := range idx {
			c.bin = append(c.bin, data[offs[i]:offs[i+1]]...)
			c.off = append(c.off, int32(len(c.bin)))
		}
	case parquet.FixedLenByteArray:
		data, size := dv.FixedLenByteArray()
		if size != c.width {
			return corrupt("dictionary fixed width %d, want %d", size, c.width)
		}
		for _, i := range idx {
			c.bin = append(c.bin, data[int(i)*size:int(i+1)*size]...)
		}
	default:
		// Parquet's UNKNOWN (NULL) columns have no physical kind and no values
		if len(idx) == 0 {
			return nil
		}
		return corrupt("unsupported physical type %v", c.kind)
	}
	return nil
}

func (c *chunkData) validate() error {
	if c.numValues() > c.n {
		return corrupt("%d values for %d entries", c.numValues(), c.n)
	}
	return nil
}

// int96Micros converts a legacy INT96 timestamp (nanoseconds of day, Julian
// day) to microseconds since the epoch. Both halves are signed and the
// arithmetic wraps, as Spark's: Spark writes instants near the ends of
// the microsecond range by splitting a Julian microsecond count that
// overflowed (int96_from_spark's year 290000 has a negative day), and
// wrapping the same way reads back the instant it was given.
func int96Micros(v deprecated.Int96) int64 {
	nanos := int64(uint64(v[1])<<32 | uint64(v[0]))
	julian := int64(int32(v[2]))
	return (julian-2440588)*86400_000_000 + nanos/1000
}

// readPage reads the next page. parquet-go panics on some malformed page
// bodies (RLE runs past the buffer); this is the boundary where untrusted
// page bytes enter it, so such a panic means a corrupt file.
func readPage(pages parquet.Pages) (p parquet.Page, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, corrupt("malformed page: %v", r)
		}
	}()
	return pages.ReadPage()
}
