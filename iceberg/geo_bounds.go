package iceberg

import (
	"encoding/binary"
	"fmt"
	"math"
)

// GeoPoint is the Go value form of a geometry or geography bound: a point
// whose binary form (spec Appendix D) is little-endian float64 x, y and,
// when present, z and m. An x:y:m point is written x:y:NaN:m.
type GeoPoint struct {
	X, Y, Z, M float64
	HasZ, HasM bool
}

func (p GeoPoint) bytes() []byte {
	vals := []float64{p.X, p.Y}
	switch {
	case p.HasZ && p.HasM:
		vals = append(vals, p.Z, p.M)
	case p.HasZ:
		vals = append(vals, p.Z)
	case p.HasM:
		vals = append(vals, math.NaN(), p.M)
	}
	out := make([]byte, 0, 8*len(vals))
	for _, v := range vals {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
	}
	return out
}

func geoPointFromBytes(t Type, b []byte) (GeoPoint, error) {
	if len(b) != 16 && len(b) != 24 && len(b) != 32 {
		return GeoPoint{}, fmt.Errorf("%w: %d-byte value for %s (want 16, 24 or 32)", ErrTypeMismatch, len(b), t)
	}
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])) }
	p := GeoPoint{X: f(0), Y: f(1)}
	if len(b) >= 24 {
		p.Z, p.HasZ = f(2), true
	}
	if len(b) == 32 {
		p.M, p.HasM = f(3), true
		if math.IsNaN(p.Z) {
			p.Z, p.HasZ = 0, false
		}
	}
	return p, nil
}

// GeoBounds accumulates the bounding box of WKB values: per dimension the
// minimum and maximum over every coordinate, NaNs skipped. Z or M enter
// the bounds only when every geometry seen has them, so the box never
// claims a range for values that lack the dimension.
type GeoBounds struct {
	min, max     [4]float64
	has          [4]bool
	geoms        int
	zGeoms       int
	mGeoms       int
	invalid      error
	lastZ, lastM bool
}

// AddWKB extends the box by a WKB value. A malformed value is an error,
// which is also kept so that Bounds' caller can report it.
func (b *GeoBounds) AddWKB(wkb []byte) error {
	g, err := ParseWKB(wkb)
	if err != nil {
		if b.invalid == nil {
			b.invalid = err
		}
		return err
	}
	b.AddGeom(&g)
	return nil
}

// AddGeom extends the box by a decoded geometry.
func (b *GeoBounds) AddGeom(g *Geom) {
	if g.Kind == GeomGeometryCollection {
		for i := range g.Parts {
			b.AddGeom(&g.Parts[i])
		}
		return
	}
	seen := false
	g.forEachCoord(func(c []float64, hasZ, hasM bool) {
		seen = true
		b.add(0, c[0])
		b.add(1, c[1])
		i := 2
		if hasZ {
			b.add(2, c[i])
			i++
		}
		if hasM {
			b.add(3, c[i])
		}
	})
	if seen {
		b.geoms++
		if g.HasZ {
			b.zGeoms++
		}
		if g.HasM {
			b.mGeoms++
		}
	}
}

func (b *GeoBounds) add(dim int, v float64) {
	if math.IsNaN(v) {
		return
	}
	if !b.has[dim] {
		b.min[dim], b.max[dim], b.has[dim] = v, v, true
		return
	}
	b.min[dim] = math.Min(b.min[dim], v)
	b.max[dim] = math.Max(b.max[dim], v)
}

// Merge folds another box into b.
func (b *GeoBounds) Merge(o *GeoBounds) {
	if o == nil {
		return
	}
	for d := 0; d < 4; d++ {
		if o.has[d] {
			b.add(d, o.min[d])
			b.add(d, o.max[d])
		}
	}
	b.geoms += o.geoms
	b.zGeoms += o.zGeoms
	b.mGeoms += o.mGeoms
	if b.invalid == nil {
		b.invalid = o.invalid
	}
}

// Err is the first malformed value seen, if any.
func (b *GeoBounds) Err() error { return b.invalid }

// Points returns the lower and upper corner; ok is false when no x and y
// were seen.
func (b *GeoBounds) Points() (lower, upper GeoPoint, ok bool) {
	if !b.has[0] || !b.has[1] {
		return GeoPoint{}, GeoPoint{}, false
	}
	hasZ := b.has[2] && b.zGeoms == b.geoms
	hasM := b.has[3] && b.mGeoms == b.geoms
	lower = GeoPoint{X: b.min[0], Y: b.min[1], HasZ: hasZ, HasM: hasM}
	upper = GeoPoint{X: b.max[0], Y: b.max[1], HasZ: hasZ, HasM: hasM}
	if hasZ {
		lower.Z, upper.Z = b.min[2], b.max[2]
	}
	if hasM {
		lower.M, upper.M = b.min[3], b.max[3]
	}
	return lower, upper, true
}
