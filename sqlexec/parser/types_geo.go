package parser

import (
	"strconv"

	"github.com/icesql/icesql/iceberg"
)

// geoType reads the arguments of GEOMETRY [( crs )] or GEOGRAPHY
// [( crs [, algorithm] )]. A CRS is a string ('srid:3857', 'OGC:CRS84')
// or an integer SRID; the algorithm is a string or a word (spherical,
// vincenty, thomas, andoyer, karney).
func (p *cursor) geoType(name string) (iceberg.Type, error) {
	at := p.pos()
	var crs, algo string
	if p.acceptOp("(") {
		var err error
		if crs, err = p.geoArg("a CRS"); err != nil {
			return nil, err
		}
		if name == "GEOGRAPHY" && p.acceptOp(",") {
			if algo, err = p.geoArg("an edge algorithm"); err != nil {
				return nil, err
			}
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	var t iceberg.Type
	var err error
	if name == "GEOMETRY" {
		t, err = iceberg.NewGeometryType(crs)
	} else {
		t, err = iceberg.NewGeographyType(crs, algo)
	}
	if err != nil {
		return nil, newParseError(p.c.src, at, err.Error())
	}
	return t, nil
}

func (p *cursor) geoArg(what string) (string, error) {
	t := p.peek()
	switch t.kind {
	case tkString:
		p.i++
		return t.val, nil
	case tkNumber:
		p.i++
		if _, err := strconv.Atoi(t.val); err != nil {
			return "", p.errorf("expected %s, found %s", what, t.val)
		}
		return "srid:" + t.val, nil
	case tkIdent:
		p.i++
		return t.val, nil
	}
	return "", p.errorf("expected %s (a quoted string), found %s", what, p.describe())
}

// geoTypeSQL prints a geometry or geography type as geoType reads it.
func geoTypeSQL(t iceberg.Type) string { return iceberg.GeoTypeSQL(t, QuoteString) }
