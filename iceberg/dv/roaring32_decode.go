package dv

import (
	"encoding/binary"
	"math/bits"
)

// Cookies and limits of the 32-bit Roaring portable format
// (RoaringFormatSpec, "General layout").
const (
	cookieNoRuns       = 12346
	cookieRuns         = 12347
	noOffsetThreshold  = 4    // run bitmaps with fewer containers omit offsets
	arrayMaxCardinal   = 4096 // larger non-run containers are bitmaps
	bitmapBytes        = 8192
	maxContainers      = 1 << 16
	containerPositions = 1 << 16
)

// reader walks a byte slice, failing with a CorruptError instead of
// reading past its end.
type reader struct {
	b   []byte
	off int
}

func (r *reader) need(n int, what string) error {
	if n < 0 || len(r.b)-r.off < n {
		return corruptf(r.off, "truncated %s: need %d bytes, %d left", what, n, len(r.b)-r.off)
	}
	return nil
}

func (r *reader) u16() uint16 {
	v := binary.LittleEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v
}

func (r *reader) u32() uint32 {
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

type containerHeader struct {
	key  uint16
	card int // 1..65536
	run  bool
}

// roaring32 decodes one 32-bit portable Roaring bitmap and appends its
// values, each or-ed with high, to out. budget is how many more positions
// the caller accepts; the declared cardinalities are checked against it
// before any container is expanded.
func (r *reader) roaring32(high int64, out []int64, budget *int64) ([]int64, error) {
	start := r.off
	if err := r.need(4, "cookie"); err != nil {
		return nil, err
	}
	cookie := r.u32()
	var n int
	var runFlags []byte
	switch {
	case cookie&0xFFFF == cookieRuns:
		n = int(cookie>>16) + 1
		if err := r.need((n+7)/8, "run flags"); err != nil {
			return nil, err
		}
		runFlags = r.b[r.off : r.off+(n+7)/8]
		r.off += (n + 7) / 8
	case cookie == cookieNoRuns:
		if err := r.need(4, "container count"); err != nil {
			return nil, err
		}
		c := r.u32()
		if c > maxContainers {
			return nil, corruptf(r.off-4, "%d containers (at most %d)", c, maxContainers)
		}
		n = int(c)
	default:
		return nil, corruptf(start, "unknown cookie %#x", cookie)
	}
	if err := r.need(4*n, "container headers"); err != nil {
		return nil, err
	}
	headers := make([]containerHeader, n)
	total := int64(0)
	for i := range headers {
		h := &headers[i]
		h.key = r.u16()
		h.card = int(r.u16()) + 1
		h.run = runFlags != nil && runFlags[i/8]&(1<<(i%8)) != 0
		if i > 0 && h.key <= headers[i-1].key {
			return nil, corruptf(r.off-4, "container keys not increasing (%d after %d)", h.key, headers[i-1].key)
		}
		total += int64(h.card)
	}
	if total > *budget {
		return nil, ErrTooLarge
	}
	*budget -= total
	if runFlags == nil || n >= noOffsetThreshold {
		// Offsets only help random access; containers are read in order.
		if err := r.need(4*n, "container offsets"); err != nil {
			return nil, err
		}
		r.off += 4 * n
	}
	for _, h := range headers {
		base := high | int64(h.key)<<16
		var err error
		switch {
		case h.run:
			out, err = r.runContainer(base, h.card, out)
		case h.card <= arrayMaxCardinal:
			out, err = r.arrayContainer(base, h.card, out)
		default:
			out, err = r.bitmapContainer(base, h.card, out)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *reader) arrayContainer(base int64, card int, out []int64) ([]int64, error) {
	if err := r.need(2*card, "array container"); err != nil {
		return nil, err
	}
	prev := -1
	for range card {
		v := int(r.u16())
		if v <= prev {
			return nil, corruptf(r.off-2, "array container values not increasing (%d after %d)", v, prev)
		}
		prev = v
		out = append(out, base|int64(v))
	}
	return out, nil
}

func (r *reader) bitmapContainer(base int64, card int, out []int64) ([]int64, error) {
	if err := r.need(bitmapBytes, "bitmap container"); err != nil {
		return nil, err
	}
	words := r.b[r.off : r.off+bitmapBytes]
	got := 0
	for i := 0; i < bitmapBytes; i += 8 {
		got += bits.OnesCount64(binary.LittleEndian.Uint64(words[i:]))
	}
	if got != card {
		return nil, corruptf(r.off, "bitmap container holds %d values, header says %d", got, card)
	}
	for i := 0; i < bitmapBytes; i += 8 {
		w := binary.LittleEndian.Uint64(words[i:])
		for w != 0 {
			t := bits.TrailingZeros64(w)
			out = append(out, base|int64(i*8+t))
			w &= w - 1
		}
	}
	r.off += bitmapBytes
	return out, nil
}

func (r *reader) runContainer(base int64, card int, out []int64) ([]int64, error) {
	if err := r.need(2, "run count"); err != nil {
		return nil, err
	}
	runs := int(r.u16())
	if err := r.need(4*runs, "runs"); err != nil {
		return nil, err
	}
	next, got := 0, 0 // next: the smallest start of the next run (runs may touch)
	for range runs {
		s, l := int(r.u16()), int(r.u16())+1
		if s < next || s+l > containerPositions {
			return nil, corruptf(r.off-4, "run [%d, %d) overlaps the previous run or leaves the container", s, s+l)
		}
		got += l
		if got > card {
			return nil, corruptf(r.off-4, "runs hold more than the %d values of the header", card)
		}
		for v := s; v < s+l; v++ {
			out = append(out, base|int64(v))
		}
		next = s + l
	}
	if got != card {
		return nil, corruptf(r.off, "runs hold %d values, header says %d", got, card)
	}
	return out, nil
}
