package iceberg

import (
	"encoding/json"
	"testing"
)

func BenchmarkParseMetadata(b *testing.B) {
	data := readMetadataFixture(b, "v2-java.metadata.json")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseMetadata(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalMetadata(b *testing.B) {
	m := mustParseFixture(b, "v2-java.metadata.json")
	for b.Loop() {
		if _, err := json.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}
