package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg/arrowschema"
)

// Geometries have no order, and WKB equality is not spatial equality (one
// shape has many encodings), so comparisons, ORDER BY, GROUP BY, DISTINCT,
// set operations other than UNION ALL and join keys over them are refused,
// as for variants; ST_AsText or ST_X/ST_Y give comparable values.

func geoRefused(what string, t arrow.DataType) error {
	return invalid("%s a %s is not supported: geospatial values have no order or equality (compare ST_AsText(g) or ST_X(g), ST_Y(g) instead)", what, typeName(t))
}

// CheckGeoUse walks a bound plan for geometries or geographies used where
// values must compare, or cast to other types (the engine would cast the
// WKB storage bytes).
func CheckGeoUse(p Plan) error {
	return uncomparable{
		is:     arrowschema.IsGeo,
		refuse: geoRefused,
		cast: func(c *Cast) error {
			if arrowschema.IsGeo(c.E.DataType()) && !arrowschema.IsGeo(c.To) {
				return invalid("CAST of a %s to %s is not supported: use ST_AsText(g) or ST_AsBinary(g)", typeName(c.E.DataType()), typeName(c.To))
			}
			return nil
		},
	}.check(p)
}
