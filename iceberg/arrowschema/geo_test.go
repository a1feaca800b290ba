package arrowschema

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg"
)

func TestGeoArrowType(t *testing.T) {
	for _, typ := range []iceberg.Type{iceberg.GeometryType{}, iceberg.GeometryType{CRS: "srid:3857"}, iceberg.GeographyType{}, iceberg.GeographyType{Algorithm: "karney"}} {
		t.Run(typ.String(), func(t *testing.T) {
			at, err := TypeToArrow(typ)
			if err != nil {
				t.Fatal(err)
			}
			gt, ok := at.(*GeoType)
			if !ok || gt.ExtensionName() != "geoarrow.wkb" || gt.StorageType().ID() != arrow.BINARY {
				t.Fatalf("TypeToArrow = %v", at)
			}
			back, err := TypeFromArrow(at)
			if err != nil || back != typ {
				t.Fatalf("TypeFromArrow = %v, %v", back, err)
			}
			again, err := gt.Deserialize(arrow.BinaryTypes.Binary, gt.Serialize())
			if err != nil || !again.(*GeoType).ExtensionEquals(gt) {
				t.Fatalf("Deserialize(Serialize()) = %v, %v", again, err)
			}
			b := array.NewBuilder(memory.DefaultAllocator, at)
			defer b.Release()
			if err := AppendValue(b, []byte{1, 2}); err != nil {
				t.Fatal(err)
			}
			b.AppendNull()
			arr := b.NewArray()
			defer arr.Release()
			ga, ok := arr.(*GeoArray)
			if !ok || !bytes.Equal(ga.Value(0), []byte{1, 2}) || !ga.IsNull(1) {
				t.Fatalf("array %T %v", arr, arr)
			}
		})
	}
	if IsGeo(arrow.BinaryTypes.Binary) || NewGeoType(iceberg.GeometryType{}).ExtensionEquals(NewGeoType(iceberg.GeographyType{})) {
		t.Error("geometry confused with binary or geography")
	}
	if _, err := NewGeoType(iceberg.GeometryType{}).Deserialize(arrow.BinaryTypes.String, ""); err == nil {
		t.Error("geoarrow.wkb over string accepted")
	}
}
