package iceberg

import "testing"

func BenchmarkBucketString(b *testing.B) {
	tr := BucketTransform{N: 16}
	for b.Loop() {
		_ = tr.Apply("some-customer-identifier")
	}
}

func BenchmarkBucketLong(b *testing.B) {
	tr := BucketTransform{N: 16}
	for b.Loop() {
		_ = tr.Apply(int64(123456789))
	}
}

func BenchmarkSerializeDecimal(b *testing.B) {
	t, v := DecimalType{Precision: 18, Scale: 2}, dec(123456789, 2)
	for b.Loop() {
		_, _ = SerializeValue(t, v)
	}
}

func BenchmarkPartitionRow(b *testing.B) {
	schema := testPartitionSchema()
	spec, err := NewPartitionSpecBuilder(schema).Day("ts").Bucket("id", 16).Build()
	if err != nil {
		b.Fatal(err)
	}
	row := map[int]any{1: int64(34), 3: Timestamp(1_700_000_000_000_000)}
	get := func(id int) any { return row[id] }
	for b.Loop() {
		_, _ = spec.Partition(schema, get)
	}
}
