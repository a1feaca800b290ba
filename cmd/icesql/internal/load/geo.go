package load

import (
	"fmt"
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// parseGeoType reads geometry[(crs)] and geography[(crs[, algorithm])]
// as DESCRIBE prints them (arguments quoted or not).
func parseGeoType(t string) (iceberg.Type, bool, error) {
	var name string
	switch {
	case strings.HasPrefix(t, "geometry"):
		name = "geometry"
	case strings.HasPrefix(t, "geography"):
		name = "geography"
	default:
		return nil, false, nil
	}
	var args []string
	if t != name {
		var ok bool
		if args, ok = cutCall(t, name); !ok || len(args) > 2 || (name == "geometry" && len(args) > 1) {
			return nil, true, fmt.Errorf("%w: %q", ErrUnsupportedType, t)
		}
		for i, a := range args {
			args[i] = strings.Trim(a, `'"`)
		}
	}
	args = append(args, "", "")
	if name == "geometry" {
		g, err := iceberg.NewGeometryType(args[0])
		return g, true, err
	}
	g, err := iceberg.NewGeographyType(args[0], args[1])
	return g, true, err
}

// geoValue turns WKT text, \x-prefixed hex WKB or WKB bytes into the
// ISO little-endian WKB that geo columns hold, refusing what is neither.
func geoValue(v any) ([]byte, error) {
	var g iceberg.Geom
	var err error
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, `\x`) {
			b, herr := parseBinary(x)
			if herr != nil {
				return nil, herr
			}
			g, err = iceberg.ParseWKB(b)
		} else {
			g, err = iceberg.ParseWKT(strings.TrimSpace(x))
		}
	case []byte:
		g, err = iceberg.ParseWKB(x)
	default:
		return nil, fmt.Errorf("a %T value does not convert to a geometry", v)
	}
	if err != nil {
		return nil, err
	}
	return g.WKB(), nil
}

func isGeo(t iceberg.Type) bool {
	switch t.(type) {
	case iceberg.GeometryType, iceberg.GeographyType:
		return true
	}
	return false
}
