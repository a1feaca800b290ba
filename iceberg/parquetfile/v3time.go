package parquetfile

import (
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icesql/icesql/iceberg"
)

// timeUnitTo returns the factor that turns the column's time or timestamp
// values into the unit of the table type: nanoseconds for timestamp_ns and
// timestamptz_ns, microseconds otherwise (negative for a divisor).
func timeUnitTo(col parquet.Type, table iceberg.Type) int64 {
	if !iceberg.IsNanoTimestamp(table) {
		return timeUnit(col)
	}
	lt := col.LogicalType()
	if lt == nil {
		return 1
	}
	l, ok := lt.Value.(*format.TimestampType)
	if !ok {
		return 1
	}
	switch l.Unit.Value.(type) {
	case *format.MilliSeconds:
		return 1_000_000
	case *format.MicroSeconds:
		return 1_000
	}
	return 1
}
