package parquetfile

import (
	"testing"

	"github.com/icesql/icesql/iceberg"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
)

// sparkInt96 splits microseconds since the epoch into an INT96 as Spark
// does (DateTimeUtils.toJulianDay: Julian microseconds, wrapping in
// int64, then day and nanoseconds of day).
func sparkInt96(micros int64) deprecated.Int96 {
	const perDay = 86400_000_000
	julianUs := micros + 2440588*perDay
	days, nanos := julianUs/perDay, (julianUs%perDay)*1000
	return deprecated.Int96{uint32(nanos), uint32(uint64(nanos) >> 32), uint32(int32(days))}
}

// Spark's INT96 instants read back as written, also those whose Julian
// microseconds overflowed when Spark split them (int96_from_spark's year
// 290000 and 9999-12-31 read as year -226413 before).
func TestInt96MicrosAsSpark(t *testing.T) {
	for _, us := range []int64{0, -1, 1704141296123456, 253402225200000000, 9089380393200000000, -62135596800000000} {
		if got := int96Micros(sparkInt96(us)); got != us {
			t.Errorf("%d: read %d", us, got)
		}
	}
}

// INT96 is an instant (Spark's TimestampType): Java's MessageTypeToType
// reads it as timestamptz.
func TestInt96IsTimestamptz(t *testing.T) {
	got, err := primitiveFromParquet(pq.Int96Type)
	if err != nil || got != (iceberg.TimestampTzType{}) {
		t.Fatalf("INT96 is %v (%v), want timestamptz", got, err)
	}
}
