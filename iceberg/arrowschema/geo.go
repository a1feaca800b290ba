package arrowschema

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/iceberg"
)

// Iceberg's geometry and geography are WKB values. In memory they are the
// GeoArrow geoarrow.wkb extension type over Binary (as iceberg-go maps
// them), carrying the Iceberg type so that SQL keeps them apart from
// binary and from each other. The metadata follows GeoArrow: "crs" and,
// for geography, "edges". The type is not registered globally: icesql
// never reads it back from IPC, and other libraries may register the name.

// GeoExtensionName is the GeoArrow extension name of WKB arrays.
const GeoExtensionName = "geoarrow.wkb"

// GeoType is the Arrow type of a geometry or geography column.
type GeoType struct {
	arrow.ExtensionBase
	// Iceberg is iceberg.GeometryType or iceberg.GeographyType.
	Iceberg iceberg.Type
}

// NewGeoType returns the Arrow type of t (geometry or geography).
func NewGeoType(t iceberg.Type) *GeoType {
	return &GeoType{ExtensionBase: arrow.ExtensionBase{Storage: arrow.BinaryTypes.Binary}, Iceberg: t}
}

// IsGeo reports whether dt is a geometry or geography type.
func IsGeo(dt arrow.DataType) bool {
	_, ok := dt.(*GeoType)
	return ok
}

// GeoArray is an array of WKB values.
type GeoArray struct {
	array.ExtensionArrayBase
}

// Value is the WKB of element i (not copied).
func (a *GeoArray) Value(i int) []byte { return a.Storage().(*array.Binary).Value(i) }

func (t *GeoType) ArrayType() reflect.Type { return reflect.TypeOf(GeoArray{}) }
func (t *GeoType) ExtensionName() string   { return GeoExtensionName }
func (t *GeoType) String() string {
	return "extension<" + GeoExtensionName + "[" + t.Iceberg.String() + "]>"
}

func (t *GeoType) ExtensionEquals(o arrow.ExtensionType) bool {
	ot, ok := o.(*GeoType)
	return ok && iceberg.TypesEqual(t.Iceberg, ot.Iceberg)
}

type geoMetadata struct {
	CRS   string `json:"crs,omitempty"`
	Edges string `json:"edges,omitempty"`
}

func (t *GeoType) Serialize() string {
	var m geoMetadata
	switch g := t.Iceberg.(type) {
	case iceberg.GeometryType:
		m.CRS = g.CRSName()
	case iceberg.GeographyType:
		m.CRS, m.Edges = g.CRSName(), g.AlgorithmName()
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func (t *GeoType) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	if storage.ID() != arrow.BINARY {
		return nil, fmt.Errorf("%w: geoarrow.wkb over %s (want binary)", ErrUnsupportedType, storage)
	}
	var m geoMetadata
	if data != "" {
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			return nil, fmt.Errorf("%w: geoarrow.wkb metadata: %v", ErrUnsupportedType, err)
		}
	}
	var it iceberg.Type
	var err error
	if m.Edges == "" || m.Edges == "planar" {
		it, err = iceberg.NewGeometryType(m.CRS)
	} else {
		it, err = iceberg.NewGeographyType(m.CRS, m.Edges)
	}
	if err != nil {
		return nil, err
	}
	return NewGeoType(it), nil
}
