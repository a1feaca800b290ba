package parquetfile

import (
	"unsafe"

	"github.com/parquet-go/parquet-go/format"
)

// dictionary is a column chunk's dictionary, keyed by the values' bits
// (floats by their bit pattern, so NaNs and -0 stay distinct).
type dictionary struct {
	kind  format.Type
	width int
	i32   map[int32]int32
	i64   map[int64]int32
	bin   map[string]int32
	v32   []int32
	v64   []int64
	data  []byte   // byte-array or fixed-width values
	off   []uint32 // byte-array value ends, off[0] = 0
	count int
	seen  int // values looked up in this chunk
	// limit caps the dictionary page (WriterOptions.DictSizeBytes); past
	// it the chunk continues in PLAIN.
	limit int
}

// dictSampleValues is how many values a chunk looks up before judging
// whether its dictionary pays; past it, a dictionary holding more than
// half the values seen is abandoned (unique ids, timestamps, names).
const dictSampleValues = 32 << 10

func (d *dictionary) reset() {
	clear(d.i32)
	clear(d.i64)
	clear(d.bin)
	d.v32, d.v64, d.data, d.off, d.count, d.seen = d.v32[:0], d.v64[:0], d.data[:0], append(d.off[:0], 0), 0, 0
}

// plainSize is the size of the dictionary page body.
func (d *dictionary) plainSize() int {
	return 4*len(d.v32) + 8*len(d.v64) + len(d.data) + 4*(len(d.off)-1)
}

// worthKeeping reports whether the dictionary is within its size limit
// and, once sampled, of low enough cardinality.
func (d *dictionary) worthKeeping() bool {
	if d.plainSize() > d.limit {
		return false
	}
	return d.seen < dictSampleValues || 2*d.numValues() <= d.seen
}

// indexes maps the page's values to dictionary indexes, adding new values.
// ok is false when the dictionary stopped paying part way: the page must
// then be written PLAIN (entries already added stay, unused, which is
// valid).
func (d *dictionary) indexes(p *pageBuf, out []int32) (_ []int32, ok bool) {
	const block = 4096
	n := p.numValues(d.kind, d.width)
	for from := 0; from < n; from += block {
		to := min(from+block, n)
		switch d.kind {
		case format.Int32:
			out = lookupFixed(&d.i32, &d.v32, p.i32[from:to], out)
		case format.Float:
			out = lookupFixed(&d.i32, &d.v32, castSlice[float32, int32](p.f32[from:to]), out)
		case format.Int64:
			out = lookupFixed(&d.i64, &d.v64, p.i64[from:to], out)
		case format.Double:
			out = lookupFixed(&d.i64, &d.v64, castSlice[float64, int64](p.f64[from:to]), out)
		case format.ByteArray:
			for i := from; i < to; i++ {
				out = append(out, d.lookupBytes(p.bin[p.off[i]:p.off[i+1]], true))
			}
		case format.FixedLenByteArray:
			w := d.width
			for i := from; i < to; i++ {
				out = append(out, d.lookupBytes(p.bin[i*w:(i+1)*w], false))
			}
		}
		d.seen += to - from
		if !d.worthKeeping() {
			return out, false
		}
	}
	return out, true
}

func lookupFixed[T int32 | int64](m *map[T]int32, vals *[]T, page []T, out []int32) []int32 {
	if *m == nil {
		*m = make(map[T]int32, 1024)
	}
	mm := *m
	for _, v := range page {
		k, ok := mm[v]
		if !ok {
			k = int32(len(*vals))
			mm[v] = k
			*vals = append(*vals, v)
		}
		out = append(out, k)
	}
	return out
}

func (d *dictionary) lookupBytes(b []byte, variable bool) int32 {
	if d.bin == nil {
		d.bin = make(map[string]int32)
	}
	if k, ok := d.bin[unsafe.String(unsafe.SliceData(b), len(b))]; ok {
		return k
	}
	k := int32(d.count)
	d.count++
	start := len(d.data)
	d.data = append(d.data, b...)
	if variable {
		d.off = append(d.off, uint32(len(d.data)))
	}
	// The key borrows the dictionary bytes; when a later append moves
	// d.data, the old array stays alive through the map's keys.
	key := d.data[start:]
	d.bin[unsafe.String(unsafe.SliceData(key), len(key))] = k
	return k
}

// numValues is the number of dictionary entries.
func (d *dictionary) numValues() int {
	switch d.kind {
	case format.Int32, format.Float:
		return len(d.v32)
	case format.Int64, format.Double:
		return len(d.v64)
	}
	return d.count
}

// appendPlain appends the dictionary page body (PLAIN values).
func (d *dictionary) appendPlain(dst []byte) []byte {
	switch d.kind {
	case format.Int32, format.Float:
		return appendLE(dst, d.v32)
	case format.Int64, format.Double:
		return appendLE(dst, d.v64)
	case format.ByteArray:
		return appendPlainByteArrays(dst, d.data, d.off)
	}
	return append(dst, d.data...)
}
