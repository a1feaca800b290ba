package load

import (
	"fmt"
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// parseGeoType reads geometry[(crs)] and geography[(crs[, algorithm])]
// as DESCRIBE prints them: Iceberg's type strings with quoted arguments.
func parseGeoType(t string) (iceberg.Type, bool, error) {
	g, ok, err := iceberg.ParseGeoType(strings.ReplaceAll(t, "'", ""))
	if ok && err != nil {
		err = fmt.Errorf("%w: %q: %w", ErrUnsupportedType, t, err)
	}
	return g, ok, err
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
