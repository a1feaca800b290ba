package iceberg

// Geom is a decoded geometry: the shapes of the OGC simple features model
// that WKB and WKT describe. Coordinates are flat, Stride() values each.
type Geom struct {
	Kind GeomKind
	HasZ bool
	HasM bool
	// Coords holds a Point's single coordinate (none when empty) or a
	// LineString's vertices.
	Coords []float64
	// Rings are a Polygon's rings, each flat like Coords.
	Rings [][]float64
	// Parts are the members of a Multi* or GeometryCollection.
	Parts []Geom
}

// GeomKind is the WKB base type code.
type GeomKind uint32

const (
	GeomPoint              GeomKind = 1
	GeomLineString         GeomKind = 2
	GeomPolygon            GeomKind = 3
	GeomMultiPoint         GeomKind = 4
	GeomMultiLineString    GeomKind = 5
	GeomMultiPolygon       GeomKind = 6
	GeomGeometryCollection GeomKind = 7
)

var geomKindNames = [...]string{"", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"}

func (k GeomKind) String() string {
	if k >= 1 && int(k) < len(geomKindNames) {
		return geomKindNames[k]
	}
	return "GEOMETRY?"
}

// maxGeomDepth bounds collection nesting so hostile input cannot exhaust
// the stack.
const maxGeomDepth = 64

// Stride is the number of values per coordinate: 2, 3 or 4.
func (g *Geom) Stride() int {
	n := 2
	if g.HasZ {
		n++
	}
	if g.HasM {
		n++
	}
	return n
}

// partKind is the kind every member of a Multi* must have (0: any).
func (k GeomKind) partKind() GeomKind {
	switch k {
	case GeomMultiPoint:
		return GeomPoint
	case GeomMultiLineString:
		return GeomLineString
	case GeomMultiPolygon:
		return GeomPolygon
	}
	return 0
}

// forEachCoord calls fn with every coordinate of g (stride values).
func (g *Geom) forEachCoord(fn func(c []float64, hasZ, hasM bool)) {
	s := g.Stride()
	flat := func(cs []float64) {
		for i := 0; i+s <= len(cs); i += s {
			fn(cs[i:i+s], g.HasZ, g.HasM)
		}
	}
	flat(g.Coords)
	for _, r := range g.Rings {
		flat(r)
	}
	for i := range g.Parts {
		g.Parts[i].forEachCoord(fn)
	}
}
