package parquetfile

import (
	"errors"
	"io"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
)

// flatReader streams a top-level primitive column page by page into Arrow
// buffers: pages are decoded ahead by a prefetcher, and only those few are
// held, not the row group.
type flatReader struct {
	node *rnode
	leaf *rleaf
	sem  chan struct{} // bounds page decodes across the reader's columns
	pf   *pagePrefetcher
	cur  *chunkData // the page in leaf.chunk, recycled when consumed
	pos  int        // next entry of the current page (held in leaf.chunk)
	vpos int        // next value of the page
}

// open starts the column chunk of a new row group of rows rows.
func (f *flatReader) open(cc parquet.ColumnChunk, rows int64) error {
	f.close()
	if cc.Type().Kind() == parquet.FixedLenByteArray && cc.Type().Length() <= 0 {
		return corrupt("column %d: fixed length %d", cc.Column(), cc.Type().Length())
	}
	f.pf = startPrefetch(cc, f.leaf, f.node, rows, f.sem)
	f.leaf.chunk.n, f.pos, f.vpos = 0, 0, 0
	f.leaf.chunk.maxDef = byte(f.leaf.col.MaxDefinitionLevel())
	return nil
}

func (f *flatReader) close() {
	if f.pf != nil {
		f.pf.close()
		f.pf = nil
	}
	f.cur = nil
}

// nextPage moves to the next decoded page of the chunk.
func (f *flatReader) nextPage() error {
	col := f.leaf.col
	for {
		if f.pf == nil {
			return corrupt("column %q ran out of values", col.Name())
		}
		d := f.pf.next()
		if errors.Is(d.err, io.EOF) {
			return corrupt("column %q ran out of values", col.Name())
		}
		if d.err != nil {
			return d.err
		}
		// leaf.chunk aliases cur's buffers: replace it before recycling.
		f.leaf.chunk = *d.c
		if f.cur != nil {
			f.pf.recycle(f.cur)
		}
		f.cur = d.c
		f.pos, f.vpos = 0, 0
		if f.leaf.chunk.n > 0 {
			return nil
		}
	}
}

// segment is a run of entries of one page within a batch: out slots
// [k, k+m), the page's values from v0, defs the levels (nil when every
// entry is defined).
type segment struct {
	k, m, v0 int
	defs     []byte
}

// segments walks the next n entries page by page, marking nulls in valid.
func (f *flatReader) segments(n int, valid []byte, visit func(s segment)) (nulls int, err error) {
	maxDef := f.leaf.chunk.maxDef
	for k := 0; k < n; {
		if f.pos >= f.leaf.chunk.n {
			if err := f.nextPage(); err != nil {
				return 0, err
			}
			maxDef = f.leaf.chunk.maxDef
		}
		m := min(n-k, f.leaf.chunk.n-f.pos)
		s := segment{k: k, m: m, v0: f.vpos}
		defined := m
		if maxDef > 0 {
			defs := f.leaf.chunk.def[f.pos : f.pos+m]
			defined = 0
			for i, d := range defs {
				if d == maxDef {
					defined++
				} else {
					bitutil.ClearBit(valid, k+i)
				}
			}
			if defined < m {
				s.defs = defs
			}
		}
		nulls += m - defined
		visit(s)
		f.pos += m
		f.vpos += defined
		k += m
	}
	return nulls, nil
}

// read returns the next n rows of the column as an Arrow array of the
// projected type.
func (f *flatReader) read(mem memory.Allocator, n int) (arrow.Array, error) {
	validBuf := memory.NewResizableBuffer(mem)
	defer validBuf.Release()
	validBuf.Resize(int(bitutil.BytesForBits(int64(n))))
	valid := validBuf.Bytes()
	memory.Set(valid, 0xff)
	var (
		buffers []*memory.Buffer
		nulls   int
		err     error
	)
	dt := f.node.arrowType
	switch dt.ID() {
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		unit := f.leaf.timeUnit
		var out []int64
		buffers, out = newFixed[int64](mem, n)
		nulls, err = f.segments(n, valid, func(s segment) {
			if f.leaf.chunk.kind == parquet.Int32 {
				gatherConv(out[s.k:s.k+s.m], f.leaf.chunk.i32[s.v0:], s.defs, f.leaf.chunk.maxDef, func(x int32) int64 { return scale(int64(x), unit) })
			} else if unit != 1 {
				gatherConv(out[s.k:s.k+s.m], f.leaf.chunk.i64[s.v0:], s.defs, f.leaf.chunk.maxDef, func(x int64) int64 { return scale(x, unit) })
			} else {
				gather(out[s.k:s.k+s.m], f.leaf.chunk.i64[s.v0:], s.defs, f.leaf.chunk.maxDef)
			}
		})
	case arrow.INT32, arrow.DATE32:
		var out []int32
		buffers, out = newFixed[int32](mem, n)
		nulls, err = f.segments(n, valid, func(s segment) {
			gather(out[s.k:s.k+s.m], f.leaf.chunk.i32[s.v0:], s.defs, f.leaf.chunk.maxDef)
		})
	case arrow.FLOAT64:
		var out []float64
		buffers, out = newFixed[float64](mem, n)
		nulls, err = f.segments(n, valid, func(s segment) {
			if f.leaf.chunk.kind == parquet.Float {
				gatherConv(out[s.k:s.k+s.m], f.leaf.chunk.f32[s.v0:], s.defs, f.leaf.chunk.maxDef, func(x float32) float64 { return float64(x) })
			} else {
				gather(out[s.k:s.k+s.m], f.leaf.chunk.f64[s.v0:], s.defs, f.leaf.chunk.maxDef)
			}
		})
	case arrow.FLOAT32:
		var out []float32
		buffers, out = newFixed[float32](mem, n)
		nulls, err = f.segments(n, valid, func(s segment) {
			gather(out[s.k:s.k+s.m], f.leaf.chunk.f32[s.v0:], s.defs, f.leaf.chunk.maxDef)
		})
	case arrow.STRING, arrow.BINARY:
		return f.readBytes(mem, n, valid, validBuf, dt)
	default:
		return f.readGeneric(mem, n)
	}
	defer releaseBuffers(buffers)
	if err != nil {
		return nil, err
	}
	if nulls > 0 {
		buffers[0] = validBuf
		validBuf.Retain()
	}
	data := array.NewData(dt, n, buffers, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// kindReadable reports whether pages of physical kind k can fill arrays
// of type dt (the binder admits the column's type, but a malformed file
// can pair any logical type with any physical one).
func kindReadable(dt arrow.DataType, k parquet.Kind) bool {
	switch dt.ID() {
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		return k == parquet.Int64 || k == parquet.Int32 || k == parquet.Int96
	case arrow.INT32, arrow.DATE32:
		return k == parquet.Int32
	case arrow.FLOAT64:
		return k == parquet.Double || k == parquet.Float
	case arrow.FLOAT32:
		return k == parquet.Float
	case arrow.STRING, arrow.BINARY:
		return k == parquet.ByteArray
	case arrow.BOOL:
		return k == parquet.Boolean
	}
	return true
}

func scale(x, unit int64) int64 {
	if unit > 0 {
		return x * unit
	}
	return x / -unit
}

func newFixed[T int32 | int64 | float32 | float64](mem memory.Allocator, n int) ([]*memory.Buffer, []T) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	b := memory.NewResizableBuffer(mem)
	b.Resize(n * size)
	return []*memory.Buffer{nil, b}, bytesAs[T](b.Bytes())[:n]
}

func releaseBuffers(bs []*memory.Buffer) {
	for _, b := range bs {
		if b != nil {
			b.Release()
		}
	}
}

// gather copies values into out: all of them when defs is nil, else one
// per entry at maxDef (null slots are zeroed).
func gather[T any](out, vals []T, defs []byte, maxDef byte) {
	if defs == nil {
		copy(out, vals[:len(out)])
		return
	}
	var zero T
	v := 0
	for i, d := range defs {
		if d == maxDef {
			out[i] = vals[v]
			v++
		} else {
			out[i] = zero
		}
	}
}

func gatherConv[S, T any](out []T, vals []S, defs []byte, maxDef byte, conv func(S) T) {
	var zero T
	if defs == nil {
		for i := range out {
			out[i] = conv(vals[i])
		}
		return
	}
	v := 0
	for i, d := range defs {
		if d == maxDef {
			out[i] = conv(vals[v])
			v++
		} else {
			out[i] = zero
		}
	}
}

// readBytes builds a string or binary array: offsets from the page
// offsets, the bytes of each run of values copied at once.
func (f *flatReader) readBytes(mem memory.Allocator, n int, valid []byte, validBuf *memory.Buffer, dt arrow.DataType) (arrow.Array, error) {
	offBuf := memory.NewResizableBuffer(mem)
	defer offBuf.Release()
	offBuf.Resize((n + 1) * 4)
	offs := bytesAs[int32](offBuf.Bytes())[:n+1]
	data := make([]byte, 0, 16*n)
	offs[0] = 0
	var overflow bool
	nulls, err := f.segments(n, valid, func(s segment) {
		c := &f.leaf.chunk
		po := c.off[s.v0:]
		if s.defs == nil {
			start := len(data)
			data = append(data, c.bin[po[0]:po[s.m]]...)
			base := int64(start) - int64(po[0])
			for i := 1; i <= s.m; i++ {
				offs[s.k+i] = int32(base + int64(po[i]))
			}
			overflow = overflow || base+int64(po[s.m]) > 1<<31-1
			return
		}
		v := 0
		for i, d := range s.defs {
			if d == c.maxDef {
				data = append(data, c.bin[po[v]:po[v+1]]...)
				v++
			}
			offs[s.k+i+1] = int32(len(data))
		}
		overflow = overflow || len(data) > 1<<31-1
	})
	if err != nil {
		return nil, err
	}
	if overflow {
		return nil, corrupt("column %q: more than 2 GiB of values in one batch", f.node.field.Name)
	}
	var vb *memory.Buffer
	if nulls > 0 {
		vb = validBuf
	}
	dataBuf := memory.NewBufferBytes(data)
	defer dataBuf.Release()
	arr := array.NewData(dt, n, []*memory.Buffer{vb, offBuf, dataBuf}, nil, nulls, 0)
	defer arr.Release()
	return array.MakeFromData(arr), nil
}

// readGeneric serves the remaining types (booleans, decimals, fixed,
// UUID) through the record-assembly conversion, page run by page run.
func (f *flatReader) readGeneric(mem memory.Allocator, n int) (arrow.Array, error) {
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	var ferr error
	valid := make([]byte, bitutil.BytesForBits(int64(n)))
	_, err := f.segments(n, valid, func(s segment) {
		if ferr != nil {
			return
		}
		bt := &batch{mem: mem, ranges: map[*rleaf][2]int{f.leaf: {f.pos, f.pos + s.m}}}
		f.leaf.value = s.v0
		a, err := bt.leafArray(f.node, nil, true)
		if err != nil {
			ferr = err
			return
		}
		parts = append(parts, a)
	})
	if err != nil {
		return nil, err
	}
	if ferr != nil {
		return nil, ferr
	}
	if len(parts) == 1 {
		a := parts[0]
		parts = nil
		return a, nil
	}
	return array.Concatenate(parts, mem)
}

// bytesAs views an Arrow buffer as a slice of T.
func bytesAs[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) < size {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size)
}
