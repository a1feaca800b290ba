package iceberg

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"testing"
)

func TestGeoTypeJSON(t *testing.T) {
	cases := []struct {
		in, out string
		want    Type
	}{
		{`"geometry"`, `"geometry"`, GeometryType{}},
		{`"geometry(OGC:CRS84)"`, `"geometry"`, GeometryType{}},
		{`"GEOMETRY(srid:3857)"`, `"geometry(srid:3857)"`, GeometryType{CRS: "srid:3857"}},
		{`"geography"`, `"geography"`, GeographyType{}},
		{`"geography(OGC:CRS84, spherical)"`, `"geography"`, GeographyType{}},
		{`"geography(srid:4269)"`, `"geography(srid:4269)"`, GeographyType{CRS: "srid:4269"}},
		{`"geography(OGC:CRS84, karney)"`, `"geography(OGC:CRS84, karney)"`, GeographyType{Algorithm: "karney"}},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := TypeFromJSON([]byte(c.in))
			if err != nil || got != c.want {
				t.Fatalf("TypeFromJSON = %#v, %v; want %#v", got, err, c.want)
			}
			out, err := TypeToJSON(got)
			if err != nil || string(out) != c.out {
				t.Fatalf("TypeToJSON = %s, %v; want %s", out, err, c.out)
			}
			if MinFormatVersion(got) != 3 {
				t.Error("geo type allowed before v3")
			}
		})
	}
	for _, bad := range []string{`"geometry(a, b)"`, `"geography(a, b, c)"`, `"geography(x, flat)"`, `"geometry("`, `"geometry()"`} {
		if _, err := TypeFromJSON([]byte(bad)); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("%s: %v, want ErrInvalidSchema", bad, err)
		}
	}
}

func TestGeoTypeRules(t *testing.T) {
	for _, typ := range []Type{GeometryType{}, GeographyType{}} {
		for _, tr := range []Transform{IdentityTransform{}, BucketTransform{N: 2}, TruncateTransform{W: 2}, DayTransform{}} {
			if tr.CanTransform(typ) {
				t.Errorf("%s transforms %s", tr, typ)
			}
		}
		_, err := NewTableMetadata(MustSchema(0, NestedField{ID: 1, Name: "g", Type: typ}), nil, nil, "file:///t", map[string]string{PropFormatVersion: "2"})
		var tv *TypeVersionError
		if !errors.As(err, &tv) {
			t.Errorf("%s in v2: %v", typ, err)
		}
	}
}

func TestWKTRoundTrip(t *testing.T) {
	cases := []struct{ in, out string }{
		{"POINT (1 2)", "POINT (1 2)"},
		{"point(1.5 -2e3)", "POINT (1.5 -2000)"},
		{"POINT Z (1 2 3)", "POINT Z (1 2 3)"},
		{"POINT (1 2 3)", "POINT Z (1 2 3)"},
		{"POINT M (1 2 4)", "POINT M (1 2 4)"},
		{"POINT ZM (1 2 3 4)", "POINT ZM (1 2 3 4)"},
		{"POINT EMPTY", "POINT EMPTY"},
		{"LINESTRING (0 0, 1 1, 2 0)", "LINESTRING (0 0, 1 1, 2 0)"},
		{"POLYGON ((0 0, 4 0, 4 4, 0 0), (1 1, 2 1, 1 2, 1 1))", "POLYGON ((0 0, 4 0, 4 4, 0 0), (1 1, 2 1, 1 2, 1 1))"},
		{"MULTIPOINT (1 2, 3 4)", "MULTIPOINT ((1 2), (3 4))"},
		{"MULTIPOINT ((1 2), (3 4))", "MULTIPOINT ((1 2), (3 4))"},
		{"MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))", "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))"},
		{"MULTIPOLYGON (((0 0, 1 0, 0 1, 0 0)), ((5 5, 6 5, 5 6, 5 5)))", "MULTIPOLYGON (((0 0, 1 0, 0 1, 0 0)), ((5 5, 6 5, 5 6, 5 5)))"},
		{"GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1))", "GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1))"},
		{"GEOMETRYCOLLECTION Z (POINT Z (1 2 3))", "GEOMETRYCOLLECTION Z (POINT Z (1 2 3))"},
		{"GEOMETRYCOLLECTION EMPTY", "GEOMETRYCOLLECTION EMPTY"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			g, err := ParseWKT(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.WKT(); got != c.out {
				t.Fatalf("WKT = %q, want %q", got, c.out)
			}
			back, err := ParseWKB(g.WKB())
			if err != nil {
				t.Fatalf("ParseWKB(WKB()): %v", err)
			}
			if got := back.WKT(); got != c.out {
				t.Fatalf("through WKB = %q, want %q", got, c.out)
			}
		})
	}
}

func TestWKTErrors(t *testing.T) {
	for _, in := range []string{"", "POINT", "POINT (1)", "POINT (1 2", "POINT (1 2) x", "CIRCLE (1 2)",
		"LINESTRING (0 0, 1 1 1)", "POINT Z (1 2)", "MULTIPOINT (LINESTRING (0 0))", "POINT (1 2 3 4 5)",
		"GEOMETRYCOLLECTION (POINT (1 2), POINT Z (1 2 3))", "POINT (1e999 2)"} {
		t.Run(in, func(t *testing.T) {
			_, err := ParseWKT(in)
			var ge *GeometryError
			if !errors.As(err, &ge) || !errors.Is(err, ErrInvalidGeometry) || ge.Format != "WKT" {
				t.Fatalf("ParseWKT(%q) = %v, want a WKT GeometryError", in, err)
			}
		})
	}
}

func TestWKBDecoding(t *testing.T) {
	cases := []struct{ name, hex, wkt string }{
		{"little-endian point", "0101000000000000000000f03f0000000000000040", "POINT (1 2)"},
		{"big-endian point", "00000000013ff00000000000004000000000000000", "POINT (1 2)"},
		{"ISO point z", "01e9030000000000000000f03f00000000000000400000000000000840", "POINT Z (1 2 3)"},
		{"EWKB point z with srid", "01010000a0e6100000000000000000f03f00000000000000400000000000000840", "POINT Z (1 2 3)"},
		{"empty point", "0101000000000000000000f87f000000000000f87f", "POINT EMPTY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, _ := hex.DecodeString(c.hex)
			g, err := ParseWKB(b)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.WKT(); got != c.wkt {
				t.Fatalf("WKT = %q, want %q", got, c.wkt)
			}
		})
	}
	bad := map[string]string{
		"empty":          "",
		"bad order":      "0201000000",
		"unknown type":   "0109000000",
		"truncated":      "0101000000000000000000f03f",
		"trailing bytes": "0101000000000000000000f03f000000000000004000",
		"huge count":     "0102000000ffffffff",
		"wrong member":   "010400000001000000010200000000000000",
	}
	for name, h := range bad {
		t.Run(name, func(t *testing.T) {
			b, _ := hex.DecodeString(h)
			if _, err := ParseWKB(b); !errors.Is(err, ErrInvalidGeometry) {
				t.Fatalf("ParseWKB(%s) = %v, want ErrInvalidGeometry", h, err)
			}
		})
	}
}

func TestGeoBounds(t *testing.T) {
	wkb := func(s string) []byte {
		g, err := ParseWKT(s)
		if err != nil {
			t.Fatal(err)
		}
		return g.WKB()
	}
	var b GeoBounds
	for _, s := range []string{"POINT (1 2)", "LINESTRING (-3 5, 10 -7)", "GEOMETRYCOLLECTION (POINT (0 100))", "POINT EMPTY"} {
		if err := b.AddWKB(wkb(s)); err != nil {
			t.Fatal(err)
		}
	}
	lo, hi, ok := b.Points()
	if !ok || lo != (GeoPoint{X: -3, Y: -7}) || hi != (GeoPoint{X: 10, Y: 100}) {
		t.Fatalf("bounds %+v %+v %v", lo, hi, ok)
	}
	lb, err := SerializeValue(GeometryType{}, lo)
	if err != nil || len(lb) != 16 || math.Float64frombits(leU64(lb)) != -3 {
		t.Fatalf("serialised lower %x, %v", lb, err)
	}
	back, err := DeserializeValue(GeometryType{}, lb)
	if err != nil || back != lo {
		t.Fatalf("DeserializeValue = %v, %v", back, err)
	}

	// z only when every geometry has it; m written after a NaN z
	var zb GeoBounds
	_ = zb.AddWKB(wkb("POINT Z (1 2 3)"))
	_ = zb.AddWKB(wkb("POINT (5 6)"))
	if lo, _, _ := zb.Points(); lo.HasZ {
		t.Error("z bound claimed though one geometry has no z")
	}
	var mb GeoBounds
	_ = mb.AddWKB(wkb("POINT M (1 2 9)"))
	lo, _, _ = mb.Points()
	enc, _ := SerializeValue(GeometryType{}, lo)
	if len(enc) != 32 || !math.IsNaN(math.Float64frombits(leU64(enc[16:]))) || math.Float64frombits(leU64(enc[24:])) != 9 {
		t.Fatalf("x:y:m bound %x", enc)
	}
	if dec, _ := DeserializeValue(GeometryType{}, enc); dec != lo {
		t.Fatalf("x:y:m decoded %+v, want %+v", dec, lo)
	}
	if _, err := DeserializeValue(GeographyType{}, []byte{1, 2, 3}); !errors.Is(err, ErrTypeMismatch) {
		t.Errorf("3-byte geo bound: %v", err)
	}
	var bad GeoBounds
	if err := bad.AddWKB([]byte{9}); err == nil || !errors.Is(bad.Err(), ErrInvalidGeometry) {
		t.Errorf("malformed WKB kept no error: %v", err)
	}
}

func leU64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func FuzzWKB(f *testing.F) {
	for _, s := range []string{"POINT (1 2)", "POLYGON ((0 0, 1 0, 0 1, 0 0))", "GEOMETRYCOLLECTION (MULTIPOINT ((1 2)), LINESTRING Z (0 0 0, 1 1 1))"} {
		g, _ := ParseWKT(s)
		f.Add(g.WKB())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := ParseWKB(b)
		if err != nil {
			if !errors.Is(err, ErrInvalidGeometry) {
				t.Fatalf("error does not wrap ErrInvalidGeometry: %v", err)
			}
			return
		}
		enc := g.WKB()
		again, err := ParseWKB(enc)
		if err != nil {
			t.Fatalf("re-encoded WKB does not parse: %v", err)
		}
		if !bytes.Equal(again.WKB(), enc) {
			t.Fatal("WKB not stable through a round trip")
		}
		_ = g.WKT()
	})
}

func FuzzWKT(f *testing.F) {
	for _, s := range []string{"POINT (1 2)", "MULTIPOINT (1 2, 3 4)", "POLYGON Z ((0 0 0, 1 0 0, 0 1 0, 0 0 0))", "GEOMETRYCOLLECTION (POINT EMPTY)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseWKT(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidGeometry) {
				t.Fatalf("error does not wrap ErrInvalidGeometry: %v", err)
			}
			return
		}
		text := g.WKT()
		again, err := ParseWKT(text)
		if err != nil {
			t.Fatalf("%q rendered as %q, which does not parse: %v", s, text, err)
		}
		if again.WKT() != text {
			t.Fatalf("WKT not stable: %q then %q", text, again.WKT())
		}
	})
}
