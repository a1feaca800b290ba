package parser

import (
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func TestGeoColumnTypes(t *testing.T) {
	cases := []struct {
		sql  string
		want iceberg.Type
		back string
	}{
		{"GEOMETRY", iceberg.GeometryType{}, "GEOMETRY"},
		{"geometry('OGC:CRS84')", iceberg.GeometryType{}, "GEOMETRY"},
		{"GEOMETRY('srid:3857')", iceberg.GeometryType{CRS: "srid:3857"}, "GEOMETRY('srid:3857')"},
		{"GEOMETRY(4326)", iceberg.GeometryType{CRS: "srid:4326"}, "GEOMETRY('srid:4326')"},
		{"GEOGRAPHY", iceberg.GeographyType{}, "GEOGRAPHY"},
		{"GEOGRAPHY('srid:4269')", iceberg.GeographyType{CRS: "srid:4269"}, "GEOGRAPHY('srid:4269')"},
		{"GEOGRAPHY('OGC:CRS84', 'karney')", iceberg.GeographyType{Algorithm: "karney"}, "GEOGRAPHY('OGC:CRS84', 'karney')"},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			st, err := ParseOne("CREATE TABLE t (g " + c.sql + ")")
			if err != nil {
				t.Fatal(err)
			}
			got := st.(*CreateTableStmt).Columns[0].Type
			if got != c.want {
				t.Fatalf("type %#v, want %#v", got, c.want)
			}
			if s := TypeSQL(got); s != c.back {
				t.Fatalf("TypeSQL = %s, want %s", s, c.back)
			}
		})
	}
	for _, bad := range []string{"GEOMETRY('a', 'b')", "GEOGRAPHY('x', 'flat')", "GEOMETRY(", "GEOMETRY('a,b')"} {
		if _, err := ParseOne("CREATE TABLE t (g " + bad + ")"); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
