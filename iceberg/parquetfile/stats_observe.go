package parquetfile

import (
	"math"
)

// Typed, batch forms of boundStats.observe: the writer updates statistics
// once per page over the page's value slices instead of once per value.

func (s *boundStats) observeInts(lo, hi int64) {
	if !s.has {
		s.minI, s.maxI, s.has = lo, hi, true
		return
	}
	s.minI = min(s.minI, lo)
	s.maxI = max(s.maxI, hi)
}

func (s *boundStats) observeInt64s(v []int64) {
	if len(v) == 0 {
		return
	}
	lo, hi := v[0], v[0]
	for _, x := range v[1:] {
		lo = min(lo, x)
		hi = max(hi, x)
	}
	s.observeInts(lo, hi)
}

func (s *boundStats) observeInt32s(v []int32) {
	if len(v) == 0 {
		return
	}
	lo, hi := v[0], v[0]
	for _, x := range v[1:] {
		lo = min(lo, x)
		hi = max(hi, x)
	}
	s.observeInts(int64(lo), int64(hi))
}

func (s *boundStats) observeBools(v []bool) {
	seen := [2]bool{}
	for _, b := range v {
		if b {
			seen[1] = true
		} else {
			seen[0] = true
		}
		if seen[0] && seen[1] {
			break
		}
	}
	switch {
	case seen[0] && seen[1]:
		s.observeInts(0, 1)
	case seen[0]:
		s.observeInts(0, 0)
	case seen[1]:
		s.observeInts(1, 1)
	}
}

func (s *boundStats) observeFloat(f float64) {
	if math.IsNaN(f) {
		s.nans++
		return
	}
	if !s.has {
		s.minF, s.maxF, s.has = f, f, true
		return
	}
	// -0 sorts below +0 so that the bounds contain both zeros.
	if f < s.minF || (f == 0 && s.minF == 0 && math.Signbit(f)) {
		s.minF = f
	}
	if f > s.maxF || (f == 0 && s.maxF == 0 && !math.Signbit(f)) {
		s.maxF = f
	}
}

func (s *boundStats) observeFloat64s(v []float64) {
	for _, f := range v {
		s.observeFloat(f)
	}
}

func (s *boundStats) observeFloat32s(v []float32) {
	for _, f := range v {
		s.observeFloat(float64(f))
	}
}

// observeByteArrays tracks bounds of the values bin[off[i]:off[i+1]].
func (s *boundStats) observeByteArrays(bin []byte, off []uint32) {
	if s.observeGeo(bin, off) {
		return
	}
	if len(off) < 2 {
		return
	}
	lo, hi := bin[off[0]:off[1]], bin[off[0]:off[1]]
	for i := 1; i+1 < len(off); i++ {
		b := bin[off[i]:off[i+1]]
		if s.less(b, lo) {
			lo = b
		} else if s.less(hi, b) {
			hi = b
		}
	}
	s.observeBytes(lo, hi)
}

// observeFixed tracks bounds of fixed-width values of width w.
func (s *boundStats) observeFixed(bin []byte, w int) {
	if len(bin) < w || w <= 0 {
		return
	}
	lo, hi := bin[:w], bin[:w]
	for i := w; i+w <= len(bin); i += w {
		b := bin[i : i+w]
		if s.less(b, lo) {
			lo = b
		} else if s.less(hi, b) {
			hi = b
		}
	}
	s.observeBytes(lo, hi)
}

func (s *boundStats) observeBytes(lo, hi []byte) {
	if !s.has {
		s.minB = append(s.minB[:0], lo...)
		s.maxB = append(s.maxB[:0], hi...)
		s.has = true
		return
	}
	if s.less(lo, s.minB) {
		s.minB = append(s.minB[:0], lo...)
	}
	if s.less(s.maxB, hi) {
		s.maxB = append(s.maxB[:0], hi...)
	}
}

// merge folds the statistics of one column chunk into the file's.
func (s *boundStats) merge(c *boundStats) {
	s.nans += c.nans
	s.mergeGeo(c)
	if !c.has || s.noBounds {
		return
	}
	switch {
	case s.floating:
		s.observeFloat(c.minF)
		s.observeFloat(c.maxF)
	case s.byteKind:
		s.observeBytes(c.minB, c.maxB)
	default:
		s.observeInts(c.minI, c.maxI)
	}
}

// clear forgets the observed values, keeping the column's settings and
// the bound buffers.
func (s *boundStats) clear() {
	*s = boundStats{typ: s.typ, noBounds: s.noBounds, floating: s.floating, signedBE: s.signedBE, byteKind: s.byteKind,
		minB: s.minB[:0], maxB: s.maxB[:0]}
}
