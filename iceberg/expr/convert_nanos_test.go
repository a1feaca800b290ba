package expr

import (
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
)

func TestConvertToNanoTimestamps(t *testing.T) {
	const v = iceberg.TimestampNano(1767225600123456789) // 2026-01-01T00:00:00.123456789Z
	cases := []struct {
		name string
		typ  iceberg.PrimitiveType
		in   any
		want any
		fit  fit
	}{
		{"string keeps nanoseconds", iceberg.TimestampNsType{}, "2026-01-01 00:00:00.123456789", v, fitExact},
		{"zoned string", iceberg.TimestampTzNsType{}, "2026-01-01T01:00:00.123456789+01:00", v, fitExact},
		{"time.Time", iceberg.TimestampTzNsType{}, time.Unix(0, int64(v)), v, fitExact},
		{"micros widen", iceberg.TimestampNsType{}, iceberg.Timestamp(1767225600123456), iceberg.TimestampNano(1767225600123456000), fitExact},
		{"date", iceberg.TimestampNsType{}, iceberg.Date(1), iceberg.TimestampNano(86_400_000_000_000), fitExact},
		{"nanos floor to micros", iceberg.TimestampType{}, v, iceberg.Timestamp(1767225600123456), fitFloor},
		{"exact micros", iceberg.TimestampTzType{}, iceberg.TimestampNano(-5000), iceberg.Timestamp(-5), fitExact},
		{"pre-epoch floors", iceberg.TimestampType{}, iceberg.TimestampNano(-1), iceberg.Timestamp(-1), fitFloor},
		{"beyond 2262", iceberg.TimestampNsType{}, "2300-01-01 00:00:00", nil, fitAboveMax},
		{"micros beyond range", iceberg.TimestampNsType{}, iceberg.Timestamp(1 << 62), nil, fitAboveMax},
		{"integer", iceberg.TimestampNsType{}, int64(7), iceberg.TimestampNano(7), fitExact},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, f, err := convertLiteral(c.typ, c.in)
			if err != nil || got != c.want || f != c.fit {
				t.Fatalf("got %v (%T) fit %d err %v; want %v fit %d", got, got, f, err, c.want, c.fit)
			}
		})
	}
	if _, _, err := convertLiteral(iceberg.TimestampNsType{}, "yesterday"); err == nil {
		t.Fatal("malformed timestamp accepted")
	}
}

// Bounds of nanosecond columns prune files at nanosecond resolution.
func TestInclusiveMetricsNanoTimestamps(t *testing.T) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "ts", Type: iceberg.TimestampNsType{}})
	file := fileOf(t, 1, iceberg.TimestampNsType{}, iceberg.TimestampNano(1000), iceberg.TimestampNano(1005))
	cases := []struct {
		e    Expr
		want bool
	}{
		{Gt("ts", iceberg.TimestampNano(1005)), false},
		{GtEq("ts", iceberg.TimestampNano(1005)), true},
		{Lt("ts", iceberg.TimestampNano(1000)), false},
		{Eq("ts", iceberg.TimestampNano(1003)), true},
		{Eq("ts", iceberg.TimestampNano(1006)), false},
		{Lt("ts", "1970-01-01 00:00:00.000001"), false}, // 1000ns: strict
		{LtEq("ts", "1970-01-01 00:00:00.000001"), true},
	}
	for _, c := range cases {
		t.Run(c.e.String(), func(t *testing.T) {
			b, err := Bind(schema, c.e, true)
			if err != nil {
				t.Fatal(err)
			}
			got, err := NewInclusiveMetricsEvaluator(b).Eval(file)
			if err != nil || got != c.want {
				t.Fatalf("got %v, %v; want %v", got, err, c.want)
			}
		})
	}
}
