package iceberg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseWKT parses OGC Well-Known Text: POINT, LINESTRING, POLYGON,
// MULTIPOINT (with or without parentheses around points), MULTILINESTRING,
// MULTIPOLYGON and GEOMETRYCOLLECTION, each optionally tagged Z, M or ZM
// (an untagged coordinate of 3 or 4 numbers means Z or ZM), or EMPTY.
func ParseWKT(s string) (Geom, error) {
	p := wktParser{s: s}
	g, err := p.geom(0, 0, false, false, false)
	if err != nil {
		return Geom{}, err
	}
	p.space()
	if p.off != len(s) {
		return Geom{}, p.fail("unexpected %q after the geometry", p.rest())
	}
	return g, nil
}

type wktParser struct {
	s   string
	off int
}

func (p *wktParser) fail(format string, args ...any) error {
	return &GeometryError{Format: "WKT", Offset: p.off, Reason: fmt.Sprintf(format, args...)}
}

func (p *wktParser) rest() string {
	r := p.s[p.off:]
	if len(r) > 20 {
		r = r[:20] + "..."
	}
	return r
}

func (p *wktParser) space() {
	for p.off < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.off]) >= 0 {
		p.off++
	}
}

func (p *wktParser) word() string {
	p.space()
	start := p.off
	for p.off < len(p.s) && (p.s[p.off]|0x20 >= 'a' && p.s[p.off]|0x20 <= 'z') {
		p.off++
	}
	return strings.ToUpper(p.s[start:p.off])
}

// peek reports whether the next token is the byte c, consuming it if so.
func (p *wktParser) eat(c byte) bool {
	p.space()
	if p.off < len(p.s) && p.s[p.off] == c {
		p.off++
		return true
	}
	return false
}

func (p *wktParser) expect(c byte) error {
	if !p.eat(c) {
		if p.off >= len(p.s) {
			return p.fail("expected %q, found the end", c)
		}
		return p.fail("expected %q, found %q", c, p.rest())
	}
	return nil
}

func (p *wktParser) number() (float64, bool, error) {
	p.space()
	start := p.off
	for p.off < len(p.s) && strings.IndexByte("0123456789+-.eE", p.s[p.off]) >= 0 {
		p.off++
	}
	if start == p.off {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(p.s[start:p.off], 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		p.off = start
		return 0, false, p.fail("bad number %q", p.s[start:min(len(p.s), start+30)])
	}
	return f, true, nil
}

var wktKinds = map[string]GeomKind{
	"POINT": GeomPoint, "LINESTRING": GeomLineString, "POLYGON": GeomPolygon,
	"MULTIPOINT": GeomMultiPoint, "MULTILINESTRING": GeomMultiLineString,
	"MULTIPOLYGON": GeomMultiPolygon, "GEOMETRYCOLLECTION": GeomGeometryCollection,
}

// geom parses a tagged geometry; inherit carries a collection's dimensions.
func (p *wktParser) geom(depth int, want GeomKind, inherit, z, m bool) (Geom, error) {
	if depth > maxGeomDepth {
		return Geom{}, p.fail("collections nested deeper than %d", maxGeomDepth)
	}
	at := p.off
	name := p.word()
	kind, ok := wktKinds[name]
	if !ok {
		p.off = at
		p.space()
		if p.off >= len(p.s) {
			return Geom{}, p.fail("expected a geometry type, found the end")
		}
		return Geom{}, p.fail("unknown geometry type %q", p.rest())
	}
	if want != 0 && kind != want {
		return Geom{}, p.fail("%s inside a collection of %s", kind, want)
	}
	g := Geom{Kind: kind}
	tagged := false
	save := p.off
	switch p.word() {
	case "Z":
		g.HasZ, tagged = true, true
	case "M":
		g.HasM, tagged = true, true
	case "ZM":
		g.HasZ, g.HasM, tagged = true, true, true
	case "EMPTY":
		p.off = save
	case "":
	default:
		p.off = save
		return Geom{}, p.fail("unexpected %q after %s", p.rest(), kind)
	}
	if inherit {
		if tagged && (g.HasZ != z || g.HasM != m) {
			return Geom{}, p.fail("member %s has other dimensions than its collection", kind)
		}
		g.HasZ, g.HasM, tagged = z, m, true
	}
	save = p.off
	if p.word() == "EMPTY" {
		if !tagged {
			g.HasZ, g.HasM = false, false
		}
		return g, nil
	}
	p.off = save
	d := &wktDims{z: g.HasZ, m: g.HasM, fixed: tagged}
	if err := p.expect('('); err != nil {
		return Geom{}, err
	}
	var err error
	switch kind {
	case GeomPoint:
		g.Coords, err = p.coord(d, nil)
	case GeomLineString:
		g.Coords, err = p.coordList(d, false)
	case GeomPolygon:
		g.Rings, err = p.rings(d)
	case GeomMultiPoint:
		for {
			var pt Geom
			pt.Kind = GeomPoint
			if p.eat('(') {
				if pt.Coords, err = p.coord(d, nil); err == nil {
					err = p.expect(')')
				}
			} else if save := p.off; p.word() == "EMPTY" {
				_ = save
			} else {
				p.off = save
				pt.Coords, err = p.coord(d, nil)
			}
			if err != nil {
				return Geom{}, err
			}
			g.Parts = append(g.Parts, pt)
			if !p.eat(',') {
				break
			}
		}
	case GeomMultiLineString, GeomMultiPolygon:
		for {
			part := Geom{Kind: kind.partKind()}
			if save := p.off; p.word() != "EMPTY" {
				p.off = save
				if err := p.expect('('); err != nil {
					return Geom{}, err
				}
				if kind == GeomMultiLineString {
					part.Coords, err = p.coordList(d, true)
				} else {
					if part.Rings, err = p.rings(d); err == nil {
						err = p.expect(')')
					}
				}
				if err != nil {
					return Geom{}, err
				}
			}
			g.Parts = append(g.Parts, part)
			if !p.eat(',') {
				break
			}
		}
	case GeomGeometryCollection:
		// members must carry the collection's dimensions: resolve them from
		// the tag, or from the first member when untagged
		for {
			part, err := p.geom(depth+1, 0, d.fixed, d.z, d.m)
			if err != nil {
				return Geom{}, err
			}
			if !d.fixed {
				d.z, d.m, d.fixed = part.HasZ, part.HasM, true
			}
			g.Parts = append(g.Parts, part)
			if !p.eat(',') {
				break
			}
		}
	}
	if err != nil {
		return Geom{}, err
	}
	if err := p.expect(')'); err != nil {
		return Geom{}, err
	}
	g.HasZ, g.HasM = d.z, d.m
	for i := range g.Parts {
		g.Parts[i].HasZ, g.Parts[i].HasM = d.z, d.m
	}
	return g, nil
}

// wktDims are the dimensions of a geometry's coordinates: fixed once a
// tag or the first coordinate decides them.
type wktDims struct{ z, m, fixed bool }

func (d *wktDims) stride() int {
	n := 2
	if d.z {
		n++
	}
	if d.m {
		n++
	}
	return n
}

// coord parses one coordinate (2 to 4 numbers) and appends it to dst.
func (p *wktParser) coord(d *wktDims, dst []float64) ([]float64, error) {
	var vals [4]float64
	n := 0
	for {
		f, ok, err := p.number()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if n == 4 {
			return nil, p.fail("a coordinate has more than 4 numbers")
		}
		vals[n] = f
		n++
	}
	if !d.fixed {
		switch n {
		case 2:
		case 3:
			d.z = true
		case 4:
			d.z, d.m = true, true
		default:
			return nil, p.fail("a coordinate needs 2 to 4 numbers, found %d", n)
		}
		d.fixed = true
	}
	if n != d.stride() {
		return nil, p.fail("a coordinate has %d numbers where %d are needed", n, d.stride())
	}
	return append(dst, vals[:n]...), nil
}

// coordList parses coordinates up to and including the closing ')'; the
// opening '(' was consumed. closing says whether to consume the ')'.
func (p *wktParser) coordList(d *wktDims, closing bool) ([]float64, error) {
	var out []float64
	for {
		var err error
		if out, err = p.coord(d, out); err != nil {
			return nil, err
		}
		if !p.eat(',') {
			break
		}
	}
	if closing {
		if err := p.expect(')'); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rings parses "(ring), (ring)..." after a polygon's '(' up to but not
// including its ')'.
func (p *wktParser) rings(d *wktDims) ([][]float64, error) {
	var out [][]float64
	for {
		if err := p.expect('('); err != nil {
			return nil, err
		}
		r, err := p.coordList(d, true)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
		if !p.eat(',') {
			return out, nil
		}
	}
}

// WKT renders g as Well-Known Text, e.g. "POINT (1 2)", "POINT Z (1 2 3)",
// "MULTIPOINT ((1 2), (3 4))", "LINESTRING EMPTY".
func (g *Geom) WKT() string {
	var sb strings.Builder
	g.appendWKT(&sb, true)
	return sb.String()
}

func (g *Geom) appendWKT(sb *strings.Builder, tag bool) {
	sb.WriteString(g.Kind.String())
	if tag {
		switch {
		case g.HasZ && g.HasM:
			sb.WriteString(" ZM")
		case g.HasZ:
			sb.WriteString(" Z")
		case g.HasM:
			sb.WriteString(" M")
		}
	}
	if g.isEmpty() {
		sb.WriteString(" EMPTY")
		return
	}
	sb.WriteString(" ")
	g.appendWKTBody(sb)
}

func (g *Geom) isEmpty() bool {
	switch g.Kind {
	case GeomPoint, GeomLineString:
		return len(g.Coords) == 0
	case GeomPolygon:
		return len(g.Rings) == 0
	}
	return len(g.Parts) == 0
}

func (g *Geom) appendWKTBody(sb *strings.Builder) {
	s := g.Stride()
	coords := func(cs []float64) {
		sb.WriteByte('(')
		for i, c := range cs {
			switch {
			case i == 0:
			case i%s == 0:
				sb.WriteString(", ")
			default:
				sb.WriteByte(' ')
			}
			sb.WriteString(formatCoord(c))
		}
		sb.WriteByte(')')
	}
	switch g.Kind {
	case GeomPoint, GeomLineString:
		coords(g.Coords)
		return
	case GeomPolygon:
		sb.WriteByte('(')
		for i, r := range g.Rings {
			if i > 0 {
				sb.WriteString(", ")
			}
			coords(r)
		}
		sb.WriteByte(')')
		return
	}
	sb.WriteByte('(')
	for i := range g.Parts {
		if i > 0 {
			sb.WriteString(", ")
		}
		part := &g.Parts[i]
		switch {
		case g.Kind == GeomGeometryCollection:
			part.appendWKT(sb, true)
		case part.isEmpty():
			sb.WriteString("EMPTY")
		default:
			part.appendWKTBody(sb)
		}
	}
	sb.WriteByte(')')
}

func formatCoord(f float64) string {
	if math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
