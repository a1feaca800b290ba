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
// buffers: pages are decoded a few ahead (by the reader's decode workers,
// or here when they fall behind), and only those few are held, not the
// row group.
type flatReader struct {
	node  *rnode
	leaf  *rleaf
	pool  *decodePool // told when a queue has room; nil without workers
	limit int32       // pages decoded ahead of the current one
	q     *pageQueue  // the chunk being read
	ahead *pageQueue  // the chunk of the next row group to be read
	cur   *chunkData  // the page in leaf.chunk, recycled when consumed
	pos   int         // next entry of the current page (held in leaf.chunk)
	vpos  int         // next value of the page
	// dictOut, for a column read as a dictionary array, holds the
	// current chunk's dictionary.
	dictOut *dictOut
	rows    int64 // of the current row group
}

// open starts the column chunk of a new row group of rows rows, taking
// over the queue started by prefetchNext when there is one.
func (f *flatReader) open(ref chunkRef, rows int64) error {
	ahead := f.ahead
	f.ahead = nil
	f.close()
	f.rows = rows
	if ahead != nil {
		f.q = ahead
		f.q.limit.Store(f.limit)
	} else {
		if err := checkFixedLength(ref.cc); err != nil {
			return err
		}
		f.q = newPageQueue(ref, f.leaf, f.node, rows, f.limit)
	}
	f.leaf.chunk.n, f.pos, f.vpos = 0, 0, 0
	f.leaf.chunk.maxDef = byte(f.leaf.col.MaxDefinitionLevel())
	return nil
}

// prefetchNext queues the chunk of the row group that follows the current
// one, so workers can decode its first pages before open takes it over.
func (f *flatReader) prefetchNext(ref chunkRef, rows int64) error {
	if err := checkFixedLength(ref.cc); err != nil {
		return err
	}
	// One page each: enough to start the row group without a stall.
	f.ahead = newPageQueue(ref, f.leaf, f.node, rows, 1)
	return nil
}

func checkFixedLength(cc parquet.ColumnChunk) error {
	if cc.Type().Kind() == parquet.FixedLenByteArray && cc.Type().Length() <= 0 {
		return corrupt("column %d: fixed length %d", cc.Column(), cc.Type().Length())
	}
	return nil
}

// close ends the queues and gives back the current page.
func (f *flatReader) close() {
	for _, q := range []**pageQueue{&f.q, &f.ahead} {
		if *q != nil {
			(*q).close()
			*q = nil
		}
	}
	if f.cur != nil {
		f.leaf.chunk = chunkData{}
		f.cur.dropPage()
		f.cur = nil
	}
	if f.dictOut != nil {
		f.dictOut.release()
	}
}

// nextPage moves to the next decoded page of the chunk.
func (f *flatReader) nextPage() error {
	col := f.leaf.col
	for {
		if f.q == nil {
			return corrupt("column %q ran out of values", col.Name())
		}
		var help func() bool
		if f.pool != nil {
			help = f.pool.decodeOne
		}
		d := f.q.next(help)
		if f.pool != nil {
			f.pool.signal()
		}
		if errors.Is(d.err, io.EOF) {
			return corrupt("column %q ran out of values", col.Name())
		}
		if d.err != nil {
			return d.err
		}
		// leaf.chunk aliases cur's buffers: replace it before recycling.
		f.leaf.chunk = *d.c
		if f.cur != nil {
			f.q.recycle(f.cur)
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
	if shared, err := f.sharedValues(n); err != nil {
		return nil, err
	} else if shared != nil {
		defer shared.Release()
		data := array.NewData(dt, n, []*memory.Buffer{nil, shared}, nil, 0, 0)
		defer data.Release()
		return array.MakeFromData(data), nil
	}
	switch dt.ID() {
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		unit := f.leaf.timeUnit
		var out []int64
		buffers, out = newFixed[int64](mem, n)
		nulls, err = f.segments(n, valid, func(s segment) {
			if f.leaf.chunk.kind == parquet.Int32 && f.leaf.unsigned {
				gatherConv(out[s.k:s.k+s.m], f.leaf.chunk.i32[s.v0:], s.defs, f.leaf.chunk.maxDef, func(x int32) int64 { return int64(uint32(x)) })
			} else if f.leaf.chunk.kind == parquet.Int32 {
				gatherConv(out[s.k:s.k+s.m], f.leaf.chunk.i32[s.v0:], s.defs, f.leaf.chunk.maxDef, func(x int32) int64 { return scale(int64(x), unit) })
			} else if unit != 1 {
				gatherConv(out[s.k:s.k+s.m], f.leaf.chunk.i64[s.v0:], s.defs, f.leaf.chunk.maxDef, func(x int64) int64 { return scale(x, unit) })
			} else {
				gatherPage(out[s.k:s.k+s.m], &f.leaf.chunk, f.leaf.chunk.i64, s)
			}
		})
	case arrow.INT32, arrow.DATE32:
		var out []int32
		buffers, out = newFixed[int32](mem, n)
		nulls, err = f.segments(n, valid, func(s segment) {
			gatherPage(out[s.k:s.k+s.m], &f.leaf.chunk, f.leaf.chunk.i32, s)
		})
	case arrow.FLOAT64:
		var out []float64
		buffers, out = newFixed[float64](mem, n)
		nulls, err = f.segments(n, valid, func(s segment) {
			if f.leaf.chunk.kind == parquet.Float {
				gatherConv(out[s.k:s.k+s.m], f.leaf.chunk.f32[s.v0:], s.defs, f.leaf.chunk.maxDef, func(x float32) float64 { return float64(x) })
			} else {
				gatherPage(out[s.k:s.k+s.m], &f.leaf.chunk, f.leaf.chunk.f64, s)
			}
		})
	case arrow.FLOAT32:
		var out []float32
		buffers, out = newFixed[float32](mem, n)
		nulls, err = f.segments(n, valid, func(s segment) {
			gatherPage(out[s.k:s.k+s.m], &f.leaf.chunk, f.leaf.chunk.f32, s)
		})
	case arrow.STRING, arrow.BINARY:
		if f.dictOut != nil {
			if a, ok, err := f.readDict(mem, n, valid, validBuf); ok || err != nil {
				return a, err
			}
		}
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

// ensurePage makes the page holding the next entry current.
func (f *flatReader) ensurePage() error {
	if f.pos < f.leaf.chunk.n {
		return nil
	}
	return f.nextPage()
}

// sharedValues returns the next n values as a slice of the current
// page's decoded bytes when the page holds all of them, none null, as
// PLAIN values the array type takes unconverted; the array then shares
// the page's memory instead of copying it. nil when it does not apply.
func (f *flatReader) sharedValues(n int) (*memory.Buffer, error) {
	if err := f.ensurePage(); err != nil {
		return nil, err
	}
	c := &f.leaf.chunk
	if c.bufs == nil || c.bufs.body == nil || c.idx != nil || f.pos+n > c.n ||
		!directKind(f.node.arrowType, f.leaf.timeUnit, c.kind) {
		return nil, nil
	}
	if c.maxDef > 0 {
		for _, d := range c.def[f.pos : f.pos+n] {
			if d != c.maxDef {
				return nil, nil
			}
		}
	}
	var vals []byte
	switch c.kind {
	case parquet.Int32:
		vals = castBytes(c.i32[f.vpos : f.vpos+n])
	case parquet.Int64:
		vals = castBytes(c.i64[f.vpos : f.vpos+n])
	case parquet.Float:
		vals = castBytes(c.f32[f.vpos : f.vpos+n])
	case parquet.Double:
		vals = castBytes(c.f64[f.vpos : f.vpos+n])
	default:
		return nil, nil
	}
	b := c.bufs.share(vals)
	if b != nil {
		f.pos += n
		f.vpos += n
	}
	return b, nil
}

// castBytes views a slice of fixed-width values as its bytes.
func castBytes[T int32 | int64 | float32 | float64](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(v[0])))
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

// gatherPage fills out with the segment's values of the page c, whose
// values (or dictionary, when c.idx is set) are vals.
func gatherPage[T any](out []T, c *chunkData, vals []T, s segment) {
	if c.idx != nil {
		gatherIdx(out, vals, c.idx[s.v0:], s.defs, c.maxDef)
		return
	}
	gather(out, vals[s.v0:], s.defs, c.maxDef)
}

// gatherIdx is gather through dictionary indexes (checked by bindPage).
func gatherIdx[T any](out, dict []T, idx []int32, defs []byte, maxDef byte) {
	if defs == nil {
		for i, x := range idx[:len(out)] {
			out[i] = dict[x]
		}
		return
	}
	var zero T
	v := 0
	for i, d := range defs {
		if d == maxDef {
			out[i] = dict[idx[v]]
			v++
		} else {
			out[i] = zero
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
