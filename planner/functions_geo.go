package planner

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/sqlexec/exec"
)

// Functions over Iceberg's geometry and geography (WKB values), with the
// OGC/PostGIS names: ST_GeomFromText, ST_GeomFromWKB, ST_GeogFromText,
// ST_GeogFromWKB (an optional second argument is the CRS: a string such as
// 'srid:3857' or an integer SRID), ST_AsText, ST_AsBinary, ST_X and ST_Y.
// Constructors store ISO little-endian WKB whatever the input's order or
// EWKB flags.
func init() {
	for name, f := range map[string]funcBinder{
		"st_geomfromtext": bindGeoFrom(false, false),
		"st_geogfromtext": bindGeoFrom(true, false),
		"st_geomfromwkb":  bindGeoFrom(false, true),
		"st_geogfromwkb":  bindGeoFrom(true, true),
		"st_astext":       bindGeoAs(true),
		"st_asbinary":     bindGeoAs(false),
		"st_x":            bindGeoCoord(0),
		"st_y":            bindGeoCoord(1),
	} {
		functions[name] = f
	}
}

func geoArg(name string, i int, e Expr) error {
	if !arrowschema.IsGeo(e.DataType()) && e.DataType().ID() != arrow.NULL {
		return argMismatch(name, i, "a GEOMETRY or GEOGRAPHY", e)
	}
	return nil
}

// geoCRSArg reads the optional CRS argument, which must be a constant.
func geoCRSArg(name string, e Expr) (string, error) {
	l, ok := e.(*Literal)
	if !ok || l.Value == nil {
		return "", invalid("%s: the CRS (argument 2) must be a constant string or SRID", name)
	}
	switch v := l.Value.(type) {
	case string:
		return v, nil
	case int32, int64:
		return fmt.Sprintf("srid:%d", v), nil
	}
	return "", argMismatch(name, 2, "a CRS string or an integer SRID", e)
}

func bindGeoFrom(geography, wkb bool) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if err := argCount(name, args, 1, 2); err != nil {
			return nil, err
		}
		crs := ""
		if len(args) == 2 {
			var err error
			if crs, err = geoCRSArg(name, args[1]); err != nil {
				return nil, err
			}
		}
		var it iceberg.Type
		var err error
		if geography {
			it, err = iceberg.NewGeographyType(crs, "")
		} else {
			it, err = iceberg.NewGeometryType(crs)
		}
		if err != nil {
			return nil, invalid("%s: %v", name, err)
		}
		in := typeString
		if wkb {
			in = typeBinary
		}
		arg := args[0]
		if l, ok := arg.(*Literal); ok && wkb && l.Type.ID() == arrow.STRING {
			// X'..' literals come typed as strings
			if arg, err = castTo(l, typeBinary); err != nil {
				return nil, err
			}
		}
		if t := arg.DataType().ID(); t != arrow.NULL && t != in.ID() {
			return nil, argMismatch(name, 1, map[bool]string{true: "BINARY (WKB)", false: "a STRING (WKT)"}[wkb], arg)
		}
		out := arrowschema.NewGeoType(it)
		return batchCall(name, []Expr{arg}, out, func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error) {
			if arrs[0].DataType().ID() == arrow.NULL {
				return array.MakeArrayOfNull(ec.Mem, out, n), nil
			}
			b := array.NewBuilder(ec.Mem, out)
			defer b.Release()
			bb := arrowschema.StorageBuilder(b).(*array.BinaryBuilder)
			for i := range n {
				if arrs[0].IsNull(i) {
					b.AppendNull()
					continue
				}
				var g iceberg.Geom
				var err error
				switch a := arrs[0].(type) {
				case *array.String:
					g, err = iceberg.ParseWKT(a.Value(i))
				case *array.Binary:
					g, err = iceberg.ParseWKB(a.Value(i))
				default:
					return nil, fmt.Errorf("%s: argument of type %s", name, a.DataType())
				}
				if err != nil {
					return nil, invalid("%s: %v", name, err)
				}
				bb.Append(g.WKB())
			}
			return b.NewArray(), nil
		}), nil
	}
}

// geoValues calls fn with each non-null WKB of a geo (or null) array.
func geoValues(a arrow.Array, n int, null func(), fn func(wkb []byte) error) error {
	bin, ok := arrowschema.Storage(a).(*array.Binary)
	for i := range n {
		// an Arrow null array has no validity bitmap: ok is false for it
		if !ok || bin.IsNull(i) {
			null()
			continue
		}
		if err := fn(bin.Value(i)); err != nil {
			return err
		}
	}
	return nil
}

func bindGeoAs(text bool) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if err := argCount(name, args, 1, 1); err != nil {
			return nil, err
		}
		if err := geoArg(name, 1, args[0]); err != nil {
			return nil, err
		}
		if !text {
			return batchCall(name, args, typeBinary, func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error) {
				b := array.NewBinaryBuilder(ec.Mem, arrow.BinaryTypes.Binary)
				defer b.Release()
				err := geoValues(arrs[0], n, b.AppendNull, func(w []byte) error { b.Append(w); return nil })
				return b.NewArray(), err
			}), nil
		}
		return batchCall(name, args, typeString, func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error) {
			return GeoToWKT(ec, arrs[0])
		}), nil
	}
}

// GeoToWKT renders a geometry or geography array as WKT strings.
func GeoToWKT(ec *exec.EvalContext, a arrow.Array) (arrow.Array, error) {
	b := array.NewStringBuilder(ec.Mem)
	defer b.Release()
	err := geoValues(a, a.Len(), b.AppendNull, func(w []byte) error {
		s, err := WKBToWKT(w)
		if err != nil {
			return err
		}
		b.Append(s)
		return nil
	})
	return b.NewArray(), err
}

// WKBToWKT is the WKT of a stored WKB value; stored values that do not
// decode are reported as such.
func WKBToWKT(w []byte) (string, error) {
	g, err := iceberg.ParseWKB(w)
	if err != nil {
		return "", fmt.Errorf("stored geometry: %w", err)
	}
	return g.WKT(), nil
}

func bindGeoCoord(dim int) funcBinder {
	return func(name string, args []Expr) (Expr, error) {
		if err := argCount(name, args, 1, 1); err != nil {
			return nil, err
		}
		if err := geoArg(name, 1, args[0]); err != nil {
			return nil, err
		}
		return batchCall(name, args, typeDouble, func(ec *exec.EvalContext, arrs []arrow.Array, n int) (arrow.Array, error) {
			b := array.NewFloat64Builder(ec.Mem)
			defer b.Release()
			err := geoValues(arrs[0], n, b.AppendNull, func(w []byte) error {
				g, err := iceberg.ParseWKB(w)
				if err != nil {
					return fmt.Errorf("%s: stored geometry: %w", name, err)
				}
				if g.Kind != iceberg.GeomPoint {
					return invalid("%s needs a POINT, got a %s", name, strings.ToUpper(g.Kind.String()))
				}
				if len(g.Coords) == 0 || math.IsNaN(g.Coords[dim]) {
					b.AppendNull() // an empty point
					return nil
				}
				b.Append(g.Coords[dim])
				return nil
			})
			return b.NewArray(), err
		}), nil
	}
}
