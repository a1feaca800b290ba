package iceberg

import (
	"encoding/binary"
	"fmt"
	"math"
)

// ParseWKB decodes ISO WKB (Z, M and ZM as type codes +1000/+2000/+3000),
// also accepting EWKB's flag bits and SRID, in either byte order. The
// whole input must be one geometry.
func ParseWKB(b []byte) (Geom, error) {
	r := wkbReader{b: b}
	g, err := r.geom(0, 0, false, false, false)
	if err != nil {
		return Geom{}, err
	}
	if r.off != len(b) {
		return Geom{}, r.fail("%d trailing bytes after the geometry", len(b)-r.off)
	}
	return g, nil
}

type wkbReader struct {
	b     []byte
	off   int
	order binary.ByteOrder
}

func (r *wkbReader) fail(format string, args ...any) error {
	return &GeometryError{Format: "WKB", Offset: r.off, Reason: fmt.Sprintf(format, args...)}
}

func (r *wkbReader) need(n int) error {
	if n < 0 || len(r.b)-r.off < n {
		return r.fail("truncated: need %d bytes, %d left", n, len(r.b)-r.off)
	}
	return nil
}

func (r *wkbReader) u32() (uint32, error) {
	if err := r.need(4); err != nil {
		return 0, err
	}
	v := r.order.Uint32(r.b[r.off:])
	r.off += 4
	return v, nil
}

// count reads an element count, refusing counts the remaining bytes
// cannot hold (each element takes at least minSize bytes).
func (r *wkbReader) count(minSize int) (int, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(minSize) > uint64(len(r.b)-r.off) {
		return 0, r.fail("count %d exceeds the remaining %d bytes", n, len(r.b)-r.off)
	}
	return int(n), nil
}

func (r *wkbReader) coords(n, stride int) ([]float64, error) {
	if err := r.need(n * stride * 8); err != nil {
		return nil, err
	}
	out := make([]float64, n*stride)
	for i := range out {
		out[i] = math.Float64frombits(r.order.Uint64(r.b[r.off:]))
		r.off += 8
	}
	return out, nil
}

// geom reads one geometry; want is the kind a Multi* requires (0: any)
// and dims are the parent's dimensions, which members must share.
func (r *wkbReader) geom(depth int, want GeomKind, inherit, wantZ, wantM bool) (Geom, error) {
	if depth > maxGeomDepth {
		return Geom{}, r.fail("collections nested deeper than %d", maxGeomDepth)
	}
	if err := r.need(5); err != nil {
		return Geom{}, err
	}
	switch r.b[r.off] {
	case 0:
		r.order = binary.BigEndian
	case 1:
		r.order = binary.LittleEndian
	default:
		return Geom{}, r.fail("byte order %d is neither 0 nor 1", r.b[r.off])
	}
	r.off++
	code, _ := r.u32()
	var g Geom
	if code&0x80000000 != 0 {
		g.HasZ = true
	}
	if code&0x40000000 != 0 {
		g.HasM = true
	}
	if code&0x20000000 != 0 {
		if _, err := r.u32(); err != nil { // EWKB SRID: the column's CRS governs
			return Geom{}, err
		}
	}
	base := code & 0x0fffffff
	switch base / 1000 {
	case 1:
		g.HasZ = true
	case 2:
		g.HasM = true
	case 3:
		g.HasZ, g.HasM = true, true
	}
	g.Kind = GeomKind(base % 1000)
	if base >= 4000 || g.Kind < GeomPoint || g.Kind > GeomGeometryCollection {
		return Geom{}, r.fail("unknown geometry type code %d", code)
	}
	if want != 0 && g.Kind != want {
		return Geom{}, r.fail("%s inside a collection of %s", g.Kind, want)
	}
	if inherit && (g.HasZ != wantZ || g.HasM != wantM) {
		return Geom{}, r.fail("member %s has other dimensions than its collection", g.Kind)
	}
	s := g.Stride()
	var err error
	switch g.Kind {
	case GeomPoint:
		if g.Coords, err = r.coords(1, s); err != nil {
			return Geom{}, err
		}
		if allNaN(g.Coords) {
			g.Coords = nil // an empty point
		}
	case GeomLineString:
		n, err := r.count(8 * s)
		if err != nil {
			return Geom{}, err
		}
		if g.Coords, err = r.coords(n, s); err != nil {
			return Geom{}, err
		}
	case GeomPolygon:
		n, err := r.count(4)
		if err != nil {
			return Geom{}, err
		}
		g.Rings = make([][]float64, n)
		for i := range g.Rings {
			m, err := r.count(8 * s)
			if err != nil {
				return Geom{}, err
			}
			if g.Rings[i], err = r.coords(m, s); err != nil {
				return Geom{}, err
			}
		}
	default:
		n, err := r.count(5)
		if err != nil {
			return Geom{}, err
		}
		g.Parts = make([]Geom, n)
		order := r.order
		for i := range g.Parts {
			if g.Parts[i], err = r.geom(depth+1, g.Kind.partKind(), true, g.HasZ, g.HasM); err != nil {
				return Geom{}, err
			}
			r.order = order
		}
	}
	return g, nil
}

func allNaN(v []float64) bool {
	for _, x := range v {
		if !math.IsNaN(x) {
			return false
		}
	}
	return true
}

// WKB encodes g as little-endian ISO WKB; an empty point has NaN
// coordinates.
func (g *Geom) WKB() []byte { return g.appendWKB(nil) }

// quietNaN is the NaN of an empty point's coordinates as GEOS, JTS and
// the other writers put it (Go's math.NaN() carries a payload bit).
const quietNaN = 0x7ff8000000000000

func (g *Geom) appendWKB(dst []byte) []byte {
	code := uint32(g.Kind)
	switch {
	case g.HasZ && g.HasM:
		code += 3000
	case g.HasZ:
		code += 1000
	case g.HasM:
		code += 2000
	}
	dst = append(dst, 1)
	dst = binary.LittleEndian.AppendUint32(dst, code)
	s := g.Stride()
	put := func(cs []float64) {
		for _, c := range cs {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(c))
		}
	}
	switch g.Kind {
	case GeomPoint:
		if len(g.Coords) == 0 {
			for i := 0; i < s; i++ {
				dst = binary.LittleEndian.AppendUint64(dst, quietNaN)
			}
		} else {
			put(g.Coords[:s])
		}
	case GeomLineString:
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(g.Coords)/s))
		put(g.Coords)
	case GeomPolygon:
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(g.Rings)))
		for _, ring := range g.Rings {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(ring)/s))
			put(ring)
		}
	default:
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(g.Parts)))
		for i := range g.Parts {
			dst = g.Parts[i].appendWKB(dst)
		}
	}
	return dst
}
