package iceberg

import (
	"fmt"
	"strings"
	"testing"
)

// benchPolygonWKT is a 1,000-vertex ring: the per-value cost of decoding
// and of the bounds the writer computes for every geometry.
func benchPolygonWKT() string {
	var sb strings.Builder
	sb.WriteString("POLYGON ((")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&sb, "%d %d, ", i, i%37)
	}
	sb.WriteString("0 0))")
	return sb.String()
}

func BenchmarkParseWKB(b *testing.B) {
	g, err := ParseWKT(benchPolygonWKT())
	if err != nil {
		b.Fatal(err)
	}
	wkb := g.WKB()
	b.SetBytes(int64(len(wkb)))
	for b.Loop() {
		if _, err := ParseWKB(wkb); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGeoBoundsAddWKB(b *testing.B) {
	g, _ := ParseWKT(benchPolygonWKT())
	wkb := g.WKB()
	b.SetBytes(int64(len(wkb)))
	var gb GeoBounds
	for b.Loop() {
		if err := gb.AddWKB(wkb); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseWKT(b *testing.B) {
	text := benchPolygonWKT()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := ParseWKT(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWKT(b *testing.B) {
	g, _ := ParseWKT(benchPolygonWKT())
	for b.Loop() {
		_ = g.WKT()
	}
}
