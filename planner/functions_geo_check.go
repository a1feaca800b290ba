package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// Geometries have no order, and WKB equality is not spatial equality (one
// shape has many encodings), so comparisons, ORDER BY, GROUP BY, DISTINCT
// and join keys over them are refused, as for variants; ST_AsText or
// ST_X/ST_Y give comparable values.

func geoRefused(what string, t arrow.DataType) error {
	return invalid("%s a %s is not supported: geospatial values have no order or equality (compare ST_AsText(g) or ST_X(g), ST_Y(g) instead)", what, typeName(t))
}

// geoTypeName is the SQL spelling of a geometry or geography type.
func geoTypeName(t iceberg.Type) string {
	switch g := t.(type) {
	case iceberg.GeometryType:
		if g.CRS != "" {
			return "GEOMETRY('" + g.CRS + "')"
		}
		return "GEOMETRY"
	case iceberg.GeographyType:
		if g.CRS != "" || g.Algorithm != "" {
			return "GEOGRAPHY('" + g.CRSName() + "', '" + g.AlgorithmName() + "')"
		}
		return "GEOGRAPHY"
	}
	return t.String()
}

// CheckGeoUse walks a bound plan for geometries or geographies used where
// values must compare.
func CheckGeoUse(p Plan) error {
	var err error
	anyGeo := func(what string, es ...Expr) {
		for _, e := range es {
			if err == nil && e != nil && arrowschema.IsGeo(e.DataType()) {
				err = geoRefused(what, e.DataType())
			}
		}
	}
	exprs := func(es ...Expr) {
		for _, e := range es {
			if e == nil || err != nil {
				continue
			}
			walkExpr(e, func(x Expr) {
				switch c := x.(type) {
				case *Compare:
					anyGeo("comparing", c.L, c.R)
				case *InList:
					anyGeo("IN over", c.E)
				case *Cast:
					// the engine would cast the WKB storage bytes
					if err == nil && arrowschema.IsGeo(c.E.DataType()) && !arrowschema.IsGeo(c.To) {
						err = invalid("CAST of a %s to %s is not supported: use ST_AsText(g) or ST_AsBinary(g)", typeName(c.E.DataType()), typeName(c.To))
					}
				}
			})
		}
	}
	var walk func(p Plan)
	walk = func(p Plan) {
		switch n := p.(type) {
		case *Filter:
			exprs(n.Pred)
		case *Project:
			exprs(n.Exprs...)
		case *Sort:
			for _, k := range n.Keys {
				anyGeo("ORDER BY", k.Expr)
			}
		case *Aggregate:
			anyGeo("GROUP BY", n.Groups...)
		case *Distinct:
			for _, c := range n.Input.Columns() {
				if err == nil && arrowschema.IsGeo(c.Type) {
					err = geoRefused("DISTINCT over", c.Type)
				}
			}
		case *Join:
			anyGeo("joining on", n.LeftKeys...)
			anyGeo("joining on", n.RightKeys...)
			exprs(n.Residual)
		}
		for _, c := range p.Children() {
			if err == nil {
				walk(c)
			}
		}
	}
	walk(p)
	return err
}
