package iceberg

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
	"slices"
	"sync"
)

// Encoding a long history once: metadata.json lists every snapshot kept
// and the snapshot log, and both only grow at their end between commits
// (or lose entries when snapshots expire). fragCache keeps each entry's
// encoding, and for gzip the history compressed in runs that a commit
// copies into its file as they are (spliceGzip).

// snapshotJSONCache holds the encoded "snapshots" and "snapshot-log"
// arrays of the version encoded last. It is shared between a metadata
// value and the versions built from it.
type snapshotJSONCache struct {
	snaps fragCache[*Snapshot]
	log   fragCache[SnapshotLogEntry]
}

func newSnapshotJSONCache() *snapshotJSONCache { return &snapshotJSONCache{} }

// encode returns the content of the "snapshots" array, without brackets.
// The result must not be modified.
func (c *snapshotJSONCache) encode(snaps []*Snapshot) ([]byte, error) {
	var fc *fragCache[*Snapshot]
	if c != nil {
		fc = &c.snaps
	}
	return fc.encode(snaps, (*Snapshot).marshal)
}

// zRunSize is about how many encoded bytes one compressed run holds: small,
// so that the part of a history after its last run, compressed again at
// every commit, stays cheap. A run is compressed with the zRunSize bytes
// before it as its dictionary (what a decoder's window holds there), so
// cutting the history in small runs costs no ratio: without one, 10,000
// snapshots of single-row inserts took 389 KB in 16 KiB runs against 261
// KB in 64 KiB runs. The dictionary reaches one run back, so expiring the
// oldest snapshots invalidates at most the two runs after the cut.
var zRunSize = 16 << 10

// deflateWindow is how far back a deflate stream may refer.
const deflateWindow = 32 << 10

// fragCache holds the encoded content (without brackets) of one JSON array
// whose elements never change once encoded: snapshots (by identity) and
// snapshot-log entries (by value). A version that extends the cached list
// encodes only its new elements, one that dropped its oldest (expiry)
// reuses the rest as they are, and any other reuses the encodings of the
// elements it shares with the list.
type fragCache[T comparable] struct {
	mu   sync.Mutex
	list []T   // the elements arr holds, in order
	ends []int // where each one's encoding ends in arr
	// arr is the array's content without brackets. Bytes once handed out
	// are never written again: a version that extends list appends past
	// them, one that drops its oldest slices them, any other gets a new
	// arr.
	arr []byte
	// runs compress consecutive pieces of arr (not necessarily from its
	// start, but each where the one before ends); like arr, what was
	// handed out is never written again.
	runs []zRun
}

// zRun is a piece of a fragCache's arr, compressed on its own: the
// encodings of list[a:b], from the comma before list[a] (none when a is 0).
type zRun struct {
	a, b       int
	start, end int    // arr[start:end]
	dictFrom   int    // compressed with arr[dictFrom:start] as its dictionary
	crc        uint32 // CRC-32 of arr[start:end]
	// cum is the CRC-32 of arr[runs[0].start:end], from the first run the
	// cache holds through this one, so that a file copying runs combines
	// one CRC, not one per run.
	cum  uint32
	data []byte // raw deflate, ended by a sync flush (byte-aligned, not final)
}

// encode returns the array's content for xs, encoding with enc what the
// cache does not hold. The result must not be modified.
func (c *fragCache[T]) encode(xs []T, enc func(T) ([]byte, error)) ([]byte, error) {
	if c == nil {
		c = &fragCache[T]{}
	} else {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	return c.encodeLocked(xs, enc)
}

// encodeLocked leaves list[:len(xs)] equal to xs.
func (c *fragCache[T]) encodeLocked(xs []T, enc func(T) ([]byte, error)) ([]byte, error) {
	k := 0
	for k < len(xs) && k < len(c.list) && xs[k] == c.list[k] {
		k++
	}
	if k == 0 && len(xs) > 0 && len(c.list) > 1 {
		if d := c.dropped(xs); d > 0 {
			c.dropOldest(d)
			k = len(c.list)
		}
	}
	switch {
	case k == len(xs): // the cached version or one before it
		if k == 0 {
			return nil, nil
		}
		return c.arr[:c.ends[k-1]:c.ends[k-1]], nil
	case k < len(c.list): // history rewritten: reuse what is encoded
		old := make(map[T][]byte, len(c.list))
		start := 0
		for i, s := range c.list {
			if _, dup := old[s]; !dup {
				old[s] = c.arr[start:c.ends[i]]
			}
			start = c.ends[i] + 1
		}
		size := 0
		for _, s := range xs {
			size += len(old[s]) + 1
		}
		list, ends, arr := make([]T, 0, len(xs)), make([]int, 0, len(xs)), make([]byte, 0, size+size/8)
		for _, s := range xs {
			b, ok := old[s]
			if !ok {
				var err error
				if b, err = enc(s); err != nil {
					return nil, err
				}
			}
			if len(arr) > 0 {
				arr = append(arr, ',')
			}
			arr = append(arr, b...)
			list, ends = append(list, s), append(ends, len(arr))
		}
		// Runs within the common prefix still hold the same bytes; the
		// slice is copied as encodings running may still read it.
		r := 0
		for r < len(c.runs) && c.runs[r].b <= k {
			r++
		}
		c.list, c.ends, c.arr, c.runs = list, ends, arr, slices.Clone(c.runs[:r])
		return c.arr[:len(arr):len(arr)], nil
	}
	// xs extends the cached list: append the new ones.
	for _, s := range xs[k:] {
		b, err := enc(s)
		if err != nil {
			c.list, c.ends = c.list[:k], c.ends[:k]
			if k > 0 {
				c.arr = c.arr[:c.ends[k-1]]
			} else {
				c.arr = c.arr[:0]
			}
			return nil, err
		}
		if len(c.arr) > 0 {
			c.arr = append(c.arr, ',')
		}
		c.arr = append(c.arr, b...)
		c.list, c.ends = append(c.list, s), append(c.ends, len(c.arr))
	}
	n := len(c.arr)
	return c.arr[:n:n], nil
}

// dropped returns d > 0 when xs is list without its first d elements,
// perhaps extended: what expiring the oldest snapshots leaves.
func (c *fragCache[T]) dropped(xs []T) int {
	d := slices.Index(c.list[1:], xs[0]) + 1
	if d == 0 || len(xs) < len(c.list)-d || !slices.Equal(xs[:len(c.list)-d], c.list[d:]) {
		return 0
	}
	return d
}

// dropOldest removes the first d elements (d < len(list)), keeping the
// encodings and the runs of the rest.
func (c *fragCache[T]) dropOldest(d int) {
	off := c.ends[d-1] + 1 // past the comma
	ends := make([]int, len(c.ends)-d)
	for i := range ends {
		ends[i] = c.ends[d+i] - off
	}
	var runs []zRun
	for _, r := range c.runs {
		// A run starting at the new first element has its comma; one
		// whose dictionary reaches into what is dropped would refer to
		// bytes the file no longer holds. Both drop a prefix of the runs.
		if r.a > d && r.dictFrom >= off {
			r.a, r.b, r.start, r.end, r.dictFrom = r.a-d, r.b-d, r.start-off, r.end-off, r.dictFrom-off
			r.cum = r.crc
			if len(runs) > 0 {
				r.cum = crc32Combine(runs[len(runs)-1].cum, r.crc, int64(r.end-r.start))
			}
			runs = append(runs, r)
		}
	}
	c.list, c.ends, c.arr, c.runs = slices.Clone(c.list[d:]), ends, c.arr[off:], runs
}

// encodeRuns returns the array's content for xs as uncompressed bytes
// before the first run, compressed runs, and uncompressed bytes after
// the last. It compresses new runs when the bytes after the last have
// grown past zRunSize. The results must not be modified.
func (c *fragCache[T]) encodeRuns(xs []T, enc func(T) ([]byte, error)) (pre []byte, runs []zRun, rest []byte, err error) {
	if c == nil {
		c = &fragCache[T]{}
	} else {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	content, err := c.encodeLocked(xs, enc)
	if err != nil {
		return nil, nil, nil, err
	}
	r := 0
	for r < len(c.runs) && c.runs[r].b <= len(xs) {
		r++
	}
	// No run past xs: runs can be added for it, once there are enough
	// bytes that some would outlive expiring the oldest snapshots (else
	// each expiry would compress them all again).
	if r == len(c.runs) && (r > 0 || len(content) >= 3*zRunSize) {
		for {
			a, start := 0, 0
			if r > 0 {
				a, start = c.runs[r-1].b, c.runs[r-1].end
			}
			b := a
			for b < len(xs) && c.ends[b]-start < zRunSize {
				b++
			}
			if b == len(xs) {
				break
			}
			b++ // the element that reaches zRunSize ends the run
			end := c.ends[b-1]
			dictFrom := max(0, start-min(zRunSize, deflateWindow))
			data, err := deflateRun(content[dictFrom:start], content[start:end])
			if err != nil {
				return nil, nil, nil, err
			}
			crc := crc32.ChecksumIEEE(content[start:end])
			cum := crc
			if r > 0 {
				cum = crc32Combine(c.runs[r-1].cum, crc, int64(end-start))
			}
			c.runs = append(c.runs, zRun{a: a, b: b, start: start, end: end, dictFrom: dictFrom,
				crc: crc, cum: cum, data: data})
			r++
		}
	}
	if r == 0 {
		return nil, nil, content, nil
	}
	runs = c.runs[:r:r]
	return content[:runs[0].start], runs, content[runs[r-1].end:], nil
}

// runDeflateLevel is the level runs are compressed at, once per run: the
// default of Java and gzip(1). What a commit compresses anew (the keys
// around the history and what follows its last run) is compressed at
// freshDeflateLevel, faster.
const (
	runDeflateLevel   = flate.DefaultCompression
	freshDeflateLevel = flate.BestSpeed
)

var freshFlatePool = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, freshDeflateLevel)
	return w
}}

// deflateRun compresses b, ended by a sync flush, referring back into
// dict: the bytes that come right before b wherever it is copied. (A
// writer per run: runs are rare, one per zRunSize of history.)
func deflateRun(dict, b []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(b)/4 + 64)
	fw, err := flate.NewWriterDict(&buf, runDeflateLevel, dict)
	if err != nil {
		return nil, err
	}
	if _, err := fw.Write(b); err != nil {
		return nil, err
	}
	if err := fw.Flush(); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}

// spliceGzip writes one gzip member (RFC 1952) whose deflate stream is
// made of pieces compressed apart: bytes compressed as they are written,
// each stretch by a fresh compressor ended by a sync flush, and runs
// compressed before. Every piece starts on a byte boundary and refers
// back only to bytes that precede it in every file it is copied into (a
// run's dictionary is the history's bytes just before it), so together
// they are one valid deflate stream; the CRC covers the whole, combined
// from the runs'.
type spliceGzip struct {
	out  io.Writer
	fw   *flate.Writer // compressing the current stretch; nil between
	crc  uint32
	size int64
	err  error
}

func newSpliceGzip(out io.Writer) *spliceGzip {
	z := &spliceGzip{out: out}
	// As compress/gzip writes it: no name, no modification time, OS unknown.
	_, z.err = out.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255})
	return z
}

// plain compresses b as the continuation of the current stretch.
func (z *spliceGzip) plain(b []byte) {
	if z.err != nil || len(b) == 0 {
		return
	}
	if z.fw == nil {
		z.fw = freshFlatePool.Get().(*flate.Writer)
		z.fw.Reset(z.out)
	}
	_, z.err = z.fw.Write(b)
	z.crc = crc32.Update(z.crc, crc32.IEEETable, b)
	z.size += int64(len(b))
}

// endStretch sync-flushes the current stretch, final when last is set.
func (z *spliceGzip) endStretch(last bool) {
	if z.fw == nil {
		if !last || z.err != nil {
			return
		}
		z.fw = freshFlatePool.Get().(*flate.Writer)
		z.fw.Reset(z.out)
	}
	var err error
	if last {
		err = z.fw.Close()
	} else {
		err = z.fw.Flush()
	}
	if z.err == nil {
		z.err = err
	}
	z.fw.Reset(nil)
	freshFlatePool.Put(z.fw)
	z.fw = nil
}

// runs copies compressed runs, consecutive pieces of one array from the
// first run its cache holds, into the stream.
func (z *spliceGzip) runs(rs []zRun) {
	if z.err != nil || len(rs) == 0 {
		return
	}
	z.endStretch(false)
	for _, r := range rs {
		if z.err != nil {
			return
		}
		_, z.err = z.out.Write(r.data)
	}
	last := rs[len(rs)-1]
	n := int64(last.end - rs[0].start)
	z.crc = crc32Combine(z.crc, last.cum, n)
	z.size += n
}

// close ends the deflate stream and writes the trailer.
func (z *spliceGzip) close() error {
	z.endStretch(true)
	if z.err != nil {
		return z.err
	}
	var t [8]byte
	binary.LittleEndian.PutUint32(t[:4], z.crc)
	binary.LittleEndian.PutUint32(t[4:], uint32(z.size))
	_, err := z.out.Write(t[:])
	return err
}

// crc32Combine is the CRC-32 (IEEE) of a+b from crc1 = CRC-32(a),
// crc2 = CRC-32(b) and len2 = len(b), as zlib's crc32_combine computes it:
// crc1 advanced over len2 zero bytes, xor crc2.
func crc32Combine(crc1, crc2 uint32, len2 int64) uint32 {
	ops := crcZeroOps()
	for i := 0; len2 > 0; i, len2 = i+1, len2>>1 {
		if len2&1 != 0 {
			crc1 = gf2Times(&ops[i], crc1)
		}
	}
	return crc1 ^ crc2
}

// crcZeroOps returns the GF(2) matrices that advance a CRC-32 over 2^i
// zero bytes, i < 63.
var crcZeroOps = sync.OnceValue(func() *[63][32]uint32 {
	var ops [63][32]uint32
	var one, two, four [32]uint32
	one[0] = 0xedb88320 // the operator for one zero bit
	row := uint32(1)
	for n := 1; n < 32; n++ {
		one[n] = row
		row <<= 1
	}
	gf2Square(&two, &one)
	gf2Square(&four, &two)
	gf2Square(&ops[0], &four) // eight bits: one byte
	for i := 1; i < len(ops); i++ {
		gf2Square(&ops[i], &ops[i-1])
	}
	return &ops
})

func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

func gf2Square(square, mat *[32]uint32) {
	for n := range 32 {
		square[n] = gf2Times(mat, mat[n])
	}
}
