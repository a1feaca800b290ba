package iceberg

import (
	"fmt"
	"strings"
)

// Geospatial types of format version 3. Values are WKB (ISO, as the spec
// requires) held as []byte. Like variant they are neither primitive in
// this engine's sense (no order, no identity or other transform, no
// defaults but null) nor nested.

// DefaultGeoCRS is the CRS of geometry and geography when none is given.
const DefaultGeoCRS = "OGC:CRS84"

// DefaultGeoAlgorithm is the edge interpolation of geography when none is
// given.
const DefaultGeoAlgorithm = "spherical"

// geoAlgorithms are the spec's edge-interpolation algorithms.
var geoAlgorithms = []string{"spherical", "vincenty", "thomas", "andoyer", "karney"}

type (
	// GeometryType is geometry(C): planar-edge geometries in CRS C. An
	// empty CRS means DefaultGeoCRS.
	GeometryType struct{ CRS string }
	// GeographyType is geography(C, A): geometries whose edges follow
	// algorithm A on the ellipsoid of CRS C. Empty fields mean the
	// defaults.
	GeographyType struct {
		CRS       string
		Algorithm string
	}
)

// NewGeometryType returns geometry(crs) with the default CRS normalised
// to the empty string, so that equal types compare equal.
func NewGeometryType(crs string) (GeometryType, error) {
	c, err := normaliseCRS(crs)
	return GeometryType{CRS: c}, err
}

// NewGeographyType returns geography(crs, algorithm), defaults
// normalised to empty strings. algorithm "" means spherical.
func NewGeographyType(crs, algorithm string) (GeographyType, error) {
	c, err := normaliseCRS(crs)
	if err != nil {
		return GeographyType{}, err
	}
	a := strings.ToLower(strings.TrimSpace(algorithm))
	if a == DefaultGeoAlgorithm {
		a = ""
	}
	if a != "" && !isGeoAlgorithm(a) {
		return GeographyType{}, metaErrorf(ErrInvalidSchema, "geography edge algorithm %q is not one of %s", algorithm, strings.Join(geoAlgorithms, ", "))
	}
	return GeographyType{CRS: c, Algorithm: a}, nil
}

func normaliseCRS(crs string) (string, error) {
	c := strings.TrimSpace(crs)
	if strings.ContainsAny(c, "(),\"") {
		return "", metaErrorf(ErrInvalidSchema, "CRS %q may not contain parentheses, commas or quotes", crs)
	}
	if strings.EqualFold(c, DefaultGeoCRS) {
		return "", nil
	}
	return c, nil
}

func isGeoAlgorithm(a string) bool {
	for _, x := range geoAlgorithms {
		if a == x {
			return true
		}
	}
	return false
}

// CRSName is the CRS with the default spelled out.
func (t GeometryType) CRSName() string { return orDefault(t.CRS, DefaultGeoCRS) }

// CRSName is the CRS with the default spelled out.
func (t GeographyType) CRSName() string { return orDefault(t.CRS, DefaultGeoCRS) }

// AlgorithmName is the edge algorithm with the default spelled out.
func (t GeographyType) AlgorithmName() string { return orDefault(t.Algorithm, DefaultGeoAlgorithm) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (t GeometryType) String() string {
	if t.CRS == "" {
		return "geometry"
	}
	return fmt.Sprintf("geometry(%s)", t.CRS)
}

func (t GeographyType) String() string {
	switch {
	case t.CRS == "" && t.Algorithm == "":
		return "geography"
	case t.Algorithm == "":
		return fmt.Sprintf("geography(%s)", t.CRS)
	}
	return fmt.Sprintf("geography(%s, %s)", t.CRSName(), t.Algorithm)
}

// GeoTypeSQL spells a geometry or geography type as SQL DDL writes it
// (GEOMETRY, GEOMETRY('crs'), GEOGRAPHY('crs'[, 'algorithm'])), quoting
// parameters with quote; "" for other types.
func GeoTypeSQL(t Type, quote func(string) string) string {
	switch g := t.(type) {
	case GeometryType:
		if g.CRS == "" {
			return "GEOMETRY"
		}
		return "GEOMETRY(" + quote(g.CRS) + ")"
	case GeographyType:
		switch {
		case g.CRS == "" && g.Algorithm == "":
			return "GEOGRAPHY"
		case g.Algorithm == "":
			return "GEOGRAPHY(" + quote(g.CRS) + ")"
		}
		return "GEOGRAPHY(" + quote(g.CRSName()) + ", " + quote(g.Algorithm) + ")"
	}
	return ""
}

func (GeometryType) isType()  {}
func (GeographyType) isType() {}

// IsGeo reports geometry or geography.
func IsGeo(t Type) bool {
	switch t.(type) {
	case GeometryType, GeographyType:
		return true
	}
	return false
}

// ParseGeoType parses "geometry", "geometry(C)", "geography",
// "geography(C)" and "geography(C, A)" (case-insensitive keywords; the CRS
// keeps its case). ok is false when name is neither.
func ParseGeoType(name string) (t Type, ok bool, err error) {
	s := strings.TrimSpace(name)
	lower := strings.ToLower(s)
	var kw string
	switch {
	case strings.HasPrefix(lower, "geometry"):
		kw = "geometry"
	case strings.HasPrefix(lower, "geography"):
		kw = "geography"
	default:
		return nil, false, nil
	}
	rest := strings.TrimSpace(s[len(kw):])
	var args []string
	if rest != "" {
		body, ok1 := strings.CutPrefix(rest, "(")
		body, ok2 := strings.CutSuffix(body, ")")
		if !ok1 || !ok2 {
			return nil, true, metaErrorf(ErrInvalidSchema, "malformed %s type %q", kw, name)
		}
		args = strings.Split(body, ",")
		for i := range args {
			args[i] = strings.TrimSpace(args[i])
			if args[i] == "" {
				return nil, true, metaErrorf(ErrInvalidSchema, "empty argument in %s type %q", kw, name)
			}
		}
	}
	if kw == "geometry" {
		if len(args) > 1 {
			return nil, true, metaErrorf(ErrInvalidSchema, "geometry type %q takes one argument (the CRS)", name)
		}
		crs := ""
		if len(args) == 1 {
			crs = args[0]
		}
		g, err := NewGeometryType(crs)
		return g, true, err
	}
	if len(args) > 2 {
		return nil, true, metaErrorf(ErrInvalidSchema, "geography type %q takes at most two arguments (CRS, algorithm)", name)
	}
	crs, algo := "", ""
	if len(args) > 0 {
		crs = args[0]
	}
	if len(args) > 1 {
		algo = args[1]
	}
	g, err := NewGeographyType(crs, algo)
	return g, true, err
}
