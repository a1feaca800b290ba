package iceberg

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// Appendix D examples, plus the forms Java writes.
func TestValueJSONRoundTrip(t *testing.T) {
	ts := mustTS(t, "2017-11-16T22:31:08.123456Z")
	cases := []struct {
		name string
		t    Type
		v    any
		json string
	}{
		{"boolean", BooleanType{}, true, `true`},
		{"int", IntType{}, int32(34), `34`},
		{"long", LongType{}, int64(-9007199254740993), `-9007199254740993`},
		{"float", FloatType{}, float32(1.5), `1.5`},
		{"double", DoubleType{}, 0.1, `0.1`},
		{"decimal", DecimalType{Precision: 9, Scale: 2}, dec(1420, 2), `"14.20"`},
		{"decimal small negative", DecimalType{Precision: 9, Scale: 2}, dec(-5, 2), `"-0.05"`},
		{"decimal negative scale", DecimalType{Precision: 9, Scale: -20}, dec(2, -20), `"2E+20"`},
		{"date", DateType{}, mustDate(t, "2017-11-16"), `"2017-11-16"`},
		{"date pre-epoch", DateType{}, mustDate(t, "1969-12-31"), `"1969-12-31"`},
		{"time", TimeType{}, Time((22*3600+31*60+8)*1_000_000 + 123456), `"22:31:08.123456"`},
		{"time whole", TimeType{}, Time(0), `"00:00:00"`},
		{"timestamp", TimestampType{}, ts, `"2017-11-16T22:31:08.123456"`},
		{"timestamptz", TimestampTzType{}, ts, `"2017-11-16T22:31:08.123456+00:00"`},
		{"timestamp pre-epoch", TimestampType{}, Timestamp(-1), `"1969-12-31T23:59:59.999999"`},
		{"string", StringType{}, "iceberg", `"iceberg"`},
		{"uuid", UUIDType{}, testUUID(), `"f79c3e09-677c-4bbd-a479-3f349cb785e7"`},
		{"fixed", FixedType{Length: 4}, []byte{0, 1, 2, 0xff}, `"000102ff"`},
		{"binary", BinaryType{}, []byte{0, 1, 2, 0xff}, `"000102ff"`},
		{"null", IntType{}, nil, `null`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ValueToJSON(c.t, c.v)
			if err != nil || string(got) != c.json {
				t.Fatalf("ValueToJSON = %s, %v; want %s", got, err, c.json)
			}
			back, err := ValueFromJSON(c.t, json.RawMessage(c.json))
			if err != nil || !reflect.DeepEqual(back, c.v) {
				t.Fatalf("ValueFromJSON = %#v, %v; want %#v", back, err, c.v)
			}
		})
	}
}

func TestValueFromJSONLenientForms(t *testing.T) {
	cases := []struct {
		name string
		t    Type
		json string
		want any
	}{
		{"timestamptz other offset", TimestampTzType{}, `"2017-11-16T14:31:08-08:00"`, mustTS(t, "2017-11-16T22:31:08Z")},
		{"timestamptz Z", TimestampTzType{}, `"2017-11-16T22:31:08Z"`, mustTS(t, "2017-11-16T22:31:08Z")},
		{"timestamp no seconds", TimestampType{}, `"2017-11-16T22:31"`, mustTS(t, "2017-11-16T22:31:00Z")},
		{"time nanos zero", TimeType{}, `"00:00:01.000001000"`, Time(1_000_001)},
		{"uppercase uuid", UUIDType{}, `"F79C3E09-677C-4BBD-A479-3F349CB785E7"`, testUUID()},
		{"uppercase hex", BinaryType{}, `"00FF"`, []byte{0, 0xff}},
		{"double integer", DoubleType{}, `1`, 1.0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ValueFromJSON(c.t, json.RawMessage(c.json))
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, %v; want %#v", got, err, c.want)
			}
		})
	}
}

func TestValueFromJSONRejects(t *testing.T) {
	cases := []struct {
		name string
		t    Type
		json string
	}{
		{"string for int", IntType{}, `"34"`},
		{"int overflow", IntType{}, `2147483648`},
		{"fraction for long", LongType{}, `1.5`},
		{"decimal wrong scale", DecimalType{Precision: 9, Scale: 2}, `"14.2"`},
		{"decimal garbage", DecimalType{Precision: 9, Scale: 2}, `"1x.20"`},
		{"decimal too precise", DecimalType{Precision: 3, Scale: 2}, `"14.20"`},
		{"bad date", DateType{}, `"2017-02-30"`},
		{"bad time", TimeType{}, `"24:00:00"`},
		{"nanos time", TimeType{}, `"00:00:00.000000001"`},
		{"timestamp with zone", TimestampType{}, `"2017-11-16T22:31:08+00:00"`},
		{"timestamptz without zone", TimestampTzType{}, `"2017-11-16T22:31:08"`},
		{"bad uuid", UUIDType{}, `"f79c3e09677c4bbda4793f349cb785e7"`},
		{"bad hex", BinaryType{}, `"0g"`},
		{"fixed length", FixedType{Length: 3}, `"00"`},
		{"empty", IntType{}, ``},
		{"bool for string", StringType{}, `true`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ValueFromJSON(c.t, json.RawMessage(c.json)); !errors.Is(err, ErrTypeMismatch) {
				t.Fatalf("error = %v, want ErrTypeMismatch", err)
			}
		})
	}
}

func FuzzValueFromJSON(f *testing.F) {
	f.Add(uint8(7), `"2017-11-16"`)
	f.Add(uint8(8), `"22:31:08.123456"`)
	f.Add(uint8(9), `"2017-11-16T22:31:08.123456+00:00"`)
	f.Add(uint8(13), `"14.20"`)
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		typ := fuzzTypes[int(which)%len(fuzzTypes)]
		v, err := ValueFromJSON(typ, json.RawMessage(s))
		if err != nil || v == nil {
			return
		}
		if _, err := ValueToJSON(typ, v); err != nil {
			t.Fatalf("%s: decoded %#v from %q but cannot encode it: %v", typ, v, s, err)
		}
	})
}

func TestHumanString(t *testing.T) {
	ts := mustTS(t, "2026-09-01T13:05:00Z")
	cases := []struct {
		name string
		tr   Transform
		src  Type
		v    any
		want string
	}{
		{"null", IdentityTransform{}, IntType{}, nil, "null"},
		{"year", YearTransform{}, TimestampType{}, YearTransform{}.Apply(ts), "2026"},
		{"month", MonthTransform{}, TimestampType{}, MonthTransform{}.Apply(ts), "2026-09"},
		{"month pre-epoch", MonthTransform{}, DateType{}, int32(-1), "1969-12"},
		{"day", DayTransform{}, TimestampType{}, DayTransform{}.Apply(ts), "2026-09-01"},
		{"hour", HourTransform{}, TimestampType{}, HourTransform{}.Apply(ts), "2026-09-01-13"},
		{"hour pre-epoch", HourTransform{}, TimestampType{}, int32(-1), "1969-12-31-23"},
		{"bucket", BucketTransform{N: 16}, StringType{}, int32(3), "3"},
		{"identity date", IdentityTransform{}, DateType{}, Date(0), "1970-01-01"},
		{"identity timestamp", IdentityTransform{}, TimestampType{}, ts, "2026-09-01T13:05"},
		{"identity timestamptz", IdentityTransform{}, TimestampTzType{}, mustTS(t, "2026-09-01T13:05:01.5Z"), "2026-09-01T13:05:01.500Z"},
		{"identity time", IdentityTransform{}, TimeType{}, Time(1), "00:00:00.000001"},
		{"identity binary", IdentityTransform{}, BinaryType{}, []byte("abc"), "YWJj"},
		{"identity decimal", IdentityTransform{}, DecimalType{Precision: 9, Scale: 2}, dec(1420, 2), "14.20"},
		{"decimal tiny", IdentityTransform{}, DecimalType{Precision: 9, Scale: 9}, dec(1, 9), "1E-9"},
		{"identity double", IdentityTransform{}, DoubleType{}, 1.0, "1.0"},
		{"identity big double", IdentityTransform{}, DoubleType{}, 1e10, "1.0E10"},
		{"identity uuid", IdentityTransform{}, UUIDType{}, testUUID(), "f79c3e09-677c-4bbd-a479-3f349cb785e7"},
		{"truncate string", TruncateTransform{W: 2}, StringType{}, "ab", "ab"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := HumanString(c.tr, c.src, c.v); got != c.want {
				t.Fatalf("HumanString = %q, want %q", got, c.want)
			}
		})
	}
}
