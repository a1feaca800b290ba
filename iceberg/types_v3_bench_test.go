package iceberg

import "testing"

func BenchmarkBucketNanoTimestamp(b *testing.B) {
	tr := BucketTransform{N: 16}
	for b.Loop() {
		_ = tr.Apply(TimestampNano(1_767_225_600_123_456_789))
	}
}

func BenchmarkHourNanoTimestamp(b *testing.B) {
	tr := HourTransform{}
	for b.Loop() {
		_ = tr.Apply(TimestampNano(1_767_225_600_123_456_789))
	}
}

func BenchmarkParseNanoTimestampJSON(b *testing.B) {
	raw := []byte(`"2026-01-01T00:00:00.123456789+01:00"`)
	for b.Loop() {
		_, _ = ValueFromJSON(TimestampTzNsType{}, raw)
	}
}
