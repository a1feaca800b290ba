package parquetfile

import (
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// Geometry and geography columns are BYTE_ARRAY leaves of WKB with the
// Parquet GEOMETRY / GEOGRAPHY logical types. Iceberg bounds of a
// geometry column are the bounding box of every coordinate (computed here
// from the WKB, not from byte order); geography columns get none, since a
// box over the vertices does not bound geodesic edges. The chunk footer
// carries no min/max for them (the Parquet spec leaves their order
// undefined).

func geoLeafType(t iceberg.Type) (parquet.Type, error) {
	switch t := t.(type) {
	case iceberg.GeometryType:
		return parquet.Geometry(t.CRS).Type(), nil
	case iceberg.GeographyType:
		var algo format.EdgeInterpolationAlgorithm
		if err := algo.FromString(t.AlgorithmName()); err != nil {
			return nil, fmt.Errorf("%w: %v", iceberg.ErrInvalidSchema, err)
		}
		return parquet.Geography(t.CRS, algo).Type(), nil
	}
	return nil, fmt.Errorf("%w: type %v in parquet", iceberg.ErrUnsupported, t)
}

// geoFromLogical maps the Parquet geospatial logical types to Iceberg's.
func geoFromLogical(lt any) (iceberg.Type, bool, error) {
	switch l := lt.(type) {
	case *format.GeometryType:
		if inlineCRS(l.CRS) {
			return nil, true, &InlineCRSError{Kind: "geometry"}
		}
		t, err := iceberg.NewGeometryType(l.CRS)
		if err != nil {
			return nil, true, corrupt("GEOMETRY column: %v", err)
		}
		return t, true, nil
	case *format.GeographyType:
		if inlineCRS(l.CRS) {
			return nil, true, &InlineCRSError{Kind: "geography"}
		}
		t, err := iceberg.NewGeographyType(l.CRS, strings.ToLower(l.Algorithm.String()))
		if err != nil {
			return nil, true, corrupt("GEOGRAPHY column: %v", err)
		}
		return t, true, nil
	}
	return nil, false, nil
}

// inlineCRS reports a CRS given as a PROJJSON document rather than an
// identifier: a JSON object, as the Parquet spec's crs field allows.
func inlineCRS(crs string) bool {
	return strings.HasPrefix(strings.TrimSpace(crs), "{")
}

// namedCRSError names the column of an InlineCRSError err (the logical
// type alone does not know it).
func namedCRSError(err error, path []string) error {
	var e *InlineCRSError
	if errors.As(err, &e) && e.Column == "" {
		e.Column = strings.Join(path, ".")
	}
	return err
}

// observeGeo extends a geometry column's bounding box by the WKB values
// bin[off[i]:off[i+1]] (a malformed value is kept and reported by
// bounds). It reports whether the column is geospatial, whose values have
// no byte-order bounds.
func (s *boundStats) observeGeo(bin []byte, off []uint32) bool {
	switch s.typ.(type) {
	case iceberg.GeographyType:
		return true
	case iceberg.GeometryType:
	default:
		return false
	}
	if s.geo == nil {
		s.geo = &iceberg.GeoBounds{}
	}
	for i := 0; i+1 < len(off); i++ {
		if s.geo.AddWKB(bin[off[i]:off[i+1]]) != nil {
			break
		}
	}
	return true
}

// mergeGeo folds a chunk's bounding box into the file's.
func (s *boundStats) mergeGeo(c *boundStats) {
	if c.geo == nil || s.noBounds {
		return
	}
	if s.geo == nil {
		s.geo = &iceberg.GeoBounds{}
	}
	s.geo.Merge(c.geo)
}

// geoBounds are the serialised corners of the box (nil when none, or
// when the metrics mode keeps no bounds: truncate < 0). Points are never
// truncated.
func (s *boundStats) geoBounds(truncate int) (lower, upper []byte, err error) {
	if s.geo == nil || s.noBounds || truncate < 0 {
		return nil, nil, nil
	}
	if err := s.geo.Err(); err != nil {
		return nil, nil, err
	}
	lo, hi, ok := s.geo.Points()
	if !ok {
		return nil, nil, nil
	}
	if lower, err = iceberg.SerializeValue(s.typ, lo); err != nil {
		return nil, nil, err
	}
	upper, err = iceberg.SerializeValue(s.typ, hi)
	return lower, upper, err
}

// geoReadableAs accepts WKB stored as plain binary (writers without the
// Parquet geospatial types) or under the same geospatial kind: the table's
// CRS governs, as files may spell it differently.
func geoReadableAs(file, table iceberg.Type) bool {
	switch file.(type) {
	case iceberg.BinaryType:
		return true
	case iceberg.GeometryType:
		_, ok := table.(iceberg.GeometryType)
		return ok
	case iceberg.GeographyType:
		_, ok := table.(iceberg.GeographyType)
		return ok
	}
	return false
}

// arrowSchemaKey is the footer key under which Arrow writers store the
// Arrow schema of the file (base64 of its IPC form).
const arrowSchemaKey = "ARROW:schema"

// withGeoArrowSchema adds the file's Arrow schema to the footer metadata
// when the schema has a geospatial column. Arrow-based readers (iceberg-go
// through pqarrow) map a GEOMETRY/GEOGRAPHY column to binary unless the
// stored Arrow schema names its geoarrow.wkb type. Schemas with unknown
// columns, which the file does not store, keep the footer as it is.
func withGeoArrowSchema(s *iceberg.Schema, kv map[string]string) map[string]string {
	if _, set := kv[arrowSchemaKey]; set || !hasGeo(s.AsStruct()) || hasUnknown(s.AsStruct()) {
		return kv
	}
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		return kv
	}
	out := maps.Clone(kv)
	if out == nil {
		out = map[string]string{}
	}
	out[arrowSchemaKey] = base64.StdEncoding.EncodeToString(flight.SerializeSchema(as, memory.DefaultAllocator))
	return out
}

func hasGeo(t iceberg.Type) bool {
	if iceberg.IsGeo(t) {
		return true
	}
	if n, ok := t.(iceberg.NestedType); ok {
		for _, f := range n.Fields() {
			if hasGeo(f.Type) {
				return true
			}
		}
	}
	return false
}

func hasUnknown(t iceberg.Type) bool {
	if omitted(t) {
		return true
	}
	if n, ok := t.(iceberg.NestedType); ok {
		for _, f := range n.Fields() {
			if hasUnknown(f.Type) {
				return true
			}
		}
	}
	return false
}
