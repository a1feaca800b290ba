package iceberg

import "testing"

func BenchmarkParseViewMetadata(b *testing.B) {
	data := readViewGolden(b, "spec-example-v2.metadata.json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseViewMetadata(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeViewMetadata(b *testing.B) {
	m, err := ParseViewMetadata(readViewGolden(b, "spec-example-v2.metadata.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeViewMetadata(m); err != nil {
			b.Fatal(err)
		}
	}
}
