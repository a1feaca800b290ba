package planner

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/variant"
)

func TestParseVariantPath(t *testing.T) {
	doc, err := variant.ParseJSON(`{"a": {"b c": [10, 20, {"d": "x"}]}, "e": true}`, false)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path  string
		want  string // JSON of the value found; "" when absent
		error bool
	}{
		{"$", `{"a":{"b c":[10,20,{"d":"x"}]},"e":true}`, false},
		{"$.e", "true", false},
		{"$.a['b c'][1]", "20", false},
		{`$.a["b c"][2].d`, `"x"`, false},
		{"$.a['b c'][9]", "", false},
		{"$.missing.deeper", "", false},
		{"$.e.f", "", false}, // a field of a non-object is absent
		{"a.b", "", true},
		{"$.", "", true},
		{"$[", "", true},
		{"$[-1]", "", true},
		{"$x", "", true},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			p, err := parseVariantPath(c.path)
			if c.error {
				if err == nil {
					t.Fatalf("accepted")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			leaf, found, err := doc.GetByPath(p)
			got := ""
			if err == nil && found {
				b, _ := leaf.MarshalJSON()
				got = string(b)
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestVariantTargetType(t *testing.T) {
	cases := []struct {
		name string
		want arrow.DataType
	}{
		{"INT", typeInt},
		{"bigint", typeLong},
		{"string", typeString},
		{"decimal(10, 2)", &arrow.Decimal128Type{Precision: 10, Scale: 2}},
		{"variant", typeVariant},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := variantTargetType(c.name)
			if err != nil || !arrow.TypeEqual(got, c.want) {
				t.Fatalf("got %v, %v", got, err)
			}
		})
	}
	for _, bad := range []string{"map<int,int>", "decimal(40,2)", ""} {
		if _, err := variantTargetType(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParseVariantPath(f *testing.F) {
	for _, s := range []string{"$", "$.a[0]", "$['x'].y", "$[", "$.a..b"} {
		f.Add(s)
	}
	doc, _ := variant.ParseJSON(`{"a": [1, {"b": 2}]}`, false)
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseVariantPath(s)
		if err != nil {
			return
		}
		_, _, _ = doc.GetByPath(p) // must not panic
	})
}
