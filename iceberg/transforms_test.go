package iceberg

import (
	"errors"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func dec(unscaled int64, scale int) Decimal {
	return Decimal{Unscaled: decimal128.FromI64(unscaled), Scale: scale}
}

func mustDate(t testing.TB, s string) Date {
	t.Helper()
	tm, err := time.Parse("2006-01-02", s)
	if err != nil {
		t.Fatal(err)
	}
	return Date(tm.Unix() / 86400)
}

func mustTS(t testing.TB, s string) Timestamp {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return Timestamp(tm.UnixMicro())
}

func testUUID() UUID {
	return UUID{0xF7, 0x9C, 0x3E, 0x09, 0x67, 0x7C, 0x4B, 0xBD, 0xA4, 0x79, 0x3F, 0x34, 0x9C, 0xB7, 0x85, 0xE7}
}

// Appendix B of the spec.
func TestHashSpecVectors(t *testing.T) {
	cases := []struct {
		name string
		v    any
		want int32
	}{
		{"int", int32(34), 2017239379},
		{"long", int64(34), 2017239379},
		{"decimal", dec(1420, 2), -500754589},
		{"date", mustDate(t, "2017-11-16"), -653330422},
		{"time", Time((22*3600 + 31*60 + 8) * 1_000_000), -662762989},
		{"timestamp", mustTS(t, "2017-11-16T22:31:08Z"), -2047944441},
		{"timestamp+1us", mustTS(t, "2017-11-16T22:31:08.000001Z"), -1207196810},
		{"timestamptz", mustTS(t, "2017-11-16T14:31:08-08:00"), -2047944441},
		{"timestamptz+1us", mustTS(t, "2017-11-16T14:31:08.000001-08:00"), -1207196810},
		{"string", "iceberg", 1210000089},
		{"uuid", testUUID(), 1488055340},
		{"binary", []byte{0, 1, 2, 3}, -188683207},
		{"boolean", true, 1392991556},
		{"float", float32(1.0), -142385009},
		{"double", 1.0, -142385009},
		{"float zero", float32(0), 1669671676},
		{"double negative zero", math.Copysign(0, -1), 1669671676},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := HashValue(c.v)
			if !ok || got != c.want {
				t.Fatalf("HashValue(%v) = %d, %v; want %d", c.v, got, ok, c.want)
			}
		})
	}
}

func TestBucketApply(t *testing.T) {
	cases := []struct {
		name string
		n    int
		v    any
		want any
	}{
		{"int", 16, int32(34), int32(2017239379 % 16)},
		{"long equals int", 100, int64(34), int32(2017239379 % 100)},
		{"negative hash drops sign bit", 16, "iceberg", int32(1210000089 % 16)},
		{"negative hash", 1000, []byte{0, 1, 2, 3}, int32((-188683207 & math.MaxInt32) % 1000)},
		{"null", 16, nil, nil},
		{"float not bucketable", 16, float32(1), nil},
		{"bool not bucketable", 16, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := (BucketTransform{N: c.n}).Apply(c.v); got != c.want {
				t.Fatalf("bucket[%d](%v) = %v, want %v", c.n, c.v, got, c.want)
			}
		})
	}
}

func TestTruncateApply(t *testing.T) {
	cases := []struct {
		name string
		w    int
		v    any
		want any
	}{
		{"int positive", 10, int32(1), int32(0)},
		{"int negative floors", 10, int32(-1), int32(-10)},
		{"int exact", 10, int32(-10), int32(-10)},
		{"long", 10, int64(-1), int64(-10)},
		{"long big", 100, int64(12345), int64(12300)},
		{"decimal", 50, dec(1065, 2), dec(1050, 2)},
		{"decimal negative", 50, dec(-1065, 2), dec(-1100, 2)},
		{"string", 3, "iceberg", "ice"},
		{"string code points", 2, "éèx", "éè"},
		{"string short", 10, "ab", "ab"},
		{"null", 3, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := (TruncateTransform{W: c.w}).Apply(c.v); got != c.want {
				t.Fatalf("truncate[%d](%v) = %v, want %v", c.w, c.v, got, c.want)
			}
		})
	}
	t.Run("binary", func(t *testing.T) {
		got := TruncateTransform{W: 3}.Apply([]byte{1, 2, 3, 4, 5}).([]byte)
		if string(got) != "\x01\x02\x03" {
			t.Fatalf("got %x", got)
		}
	})
}

func TestTimeTransforms(t *testing.T) {
	ts := mustTS(t, "2017-11-16T22:31:08Z")
	pre := mustTS(t, "1969-12-31T23:59:59.999999Z")
	cases := []struct {
		name string
		tr   Transform
		v    any
		want any
	}{
		{"year ts", YearTransform{}, ts, int32(47)},
		{"month ts", MonthTransform{}, ts, int32(47*12 + 10)},
		{"day ts", DayTransform{}, ts, mustDate(t, "2017-11-16")},
		{"hour ts", HourTransform{}, ts, int32(17486*24 + 22)},
		{"year date", YearTransform{}, mustDate(t, "2017-11-16"), int32(47)},
		{"month date", MonthTransform{}, mustDate(t, "1970-01-31"), int32(0)},
		{"day date", DayTransform{}, mustDate(t, "2017-11-16"), mustDate(t, "2017-11-16")},
		{"year pre-epoch", YearTransform{}, pre, int32(-1)},
		{"month pre-epoch", MonthTransform{}, pre, int32(-1)},
		{"day pre-epoch", DayTransform{}, pre, Date(-1)},
		{"hour pre-epoch", HourTransform{}, pre, int32(-1)},
		{"month pre-epoch date", MonthTransform{}, mustDate(t, "1969-01-01"), int32(-12)},
		{"hour on date is nil", HourTransform{}, mustDate(t, "2017-11-16"), nil},
		{"null", DayTransform{}, nil, nil},
		{"void", VoidTransform{}, int32(3), nil},
		{"identity", IdentityTransform{}, "x", "x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.tr.Apply(c.v); got != c.want {
				t.Fatalf("%s(%v) = %v (%T), want %v (%T)", c.tr, c.v, got, got, c.want, c.want)
			}
		})
	}
}

func TestParseTransform(t *testing.T) {
	good := map[string]Transform{
		"identity": IdentityTransform{}, "bucket[16]": BucketTransform{N: 16}, "truncate[4]": TruncateTransform{W: 4},
		"year": YearTransform{}, "month": MonthTransform{}, "day": DayTransform{}, "hour": HourTransform{},
		"void": VoidTransform{}, "Bucket[3]": BucketTransform{N: 3},
	}
	for s, want := range good {
		t.Run(s, func(t *testing.T) {
			got, err := ParseTransform(s)
			if err != nil || got != want {
				t.Fatalf("ParseTransform(%q) = %v, %v; want %v", s, got, err, want)
			}
			again, err := ParseTransform(got.String())
			if err != nil || again != got {
				t.Fatalf("round trip of %q failed: %v, %v", got, again, err)
			}
		})
	}
	for _, s := range []string{"", "bucket", "bucket[]", "bucket[0]", "bucket[-1]", "bucket[16", "truncate[x]",
		"bucket[+3]", "bucket[99999999999]", "zorder", "days", "bucket[16]x"} {
		t.Run("bad "+s, func(t *testing.T) {
			if _, err := ParseTransform(s); !errors.Is(err, ErrInvalidTransform) {
				t.Fatalf("ParseTransform(%q) error = %v, want ErrInvalidTransform", s, err)
			}
		})
	}
}

func TestTransformTypes(t *testing.T) {
	cases := []struct {
		tr     Transform
		src    Type
		can    bool
		result Type
	}{
		{BucketTransform{N: 4}, StringType{}, true, IntType{}},
		{BucketTransform{N: 4}, FloatType{}, false, nil},
		{BucketTransform{N: 4}, BooleanType{}, false, nil},
		{TruncateTransform{W: 4}, DecimalType{Precision: 9, Scale: 2}, true, DecimalType{Precision: 9, Scale: 2}},
		{TruncateTransform{W: 4}, DateType{}, false, nil},
		{TruncateTransform{W: 4}, FixedType{Length: 3}, false, nil},
		{DayTransform{}, TimestampTzType{}, true, DateType{}},
		{MonthTransform{}, DateType{}, true, IntType{}},
		{HourTransform{}, DateType{}, false, nil},
		{YearTransform{}, StringType{}, false, nil},
		{IdentityTransform{}, UUIDType{}, true, UUIDType{}},
		{IdentityTransform{}, &ListType{ElementID: 2, Element: IntType{}}, false, nil},
		{VoidTransform{}, LongType{}, true, LongType{}},
		{UnknownTransform{Name: "zorder"}, LongType{}, false, nil},
	}
	for _, c := range cases {
		t.Run(c.tr.String()+"/"+c.src.String(), func(t *testing.T) {
			if got := c.tr.CanTransform(c.src); got != c.can {
				t.Fatalf("CanTransform = %v, want %v", got, c.can)
			}
			if c.can && !TypesEqual(c.tr.ResultType(c.src), c.result) {
				t.Fatalf("ResultType = %v, want %v", c.tr.ResultType(c.src), c.result)
			}
		})
	}
}

func TestApplyTransformValidates(t *testing.T) {
	if _, err := ApplyTransform(DayTransform{}, TimestampType{}, int64(5)); !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("want ErrTypeMismatch, got %v", err)
	}
	if _, err := ApplyTransform(HourTransform{}, DateType{}, Date(1)); !errors.Is(err, ErrInvalidTransform) {
		t.Fatalf("want ErrInvalidTransform, got %v", err)
	}
	got, err := ApplyTransform(BucketTransform{N: 16}, IntType{}, int32(34))
	if err != nil || got != int32(2017239379%16) {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestDecimalMinBytes(t *testing.T) {
	huge, _ := new(big.Int).SetString("-99999999999999999999999999999999999999", 10)
	cases := []struct {
		d    Decimal
		want string
	}{
		{dec(0, 0), "\x00"},
		{dec(1420, 2), "\x05\x8c"},
		{dec(-1, 0), "\xff"},
		{dec(127, 0), "\x7f"},
		{dec(128, 0), "\x00\x80"},
		{dec(-128, 0), "\x80"},
		{dec(-129, 0), "\xff\x7f"},
		{Decimal{Unscaled: decimal128.FromBigInt(huge)}, string(huge.Bytes())}, // checked by round trip below
	}
	for _, c := range cases {
		t.Run(c.d.String(), func(t *testing.T) {
			got := decimalMinBytes(c.d)
			if c.d.Unscaled.Sign() >= 0 || len(c.want) <= 2 {
				if string(got) != c.want {
					t.Fatalf("got %x want %x", got, c.want)
				}
			}
			back, err := decimalFromBytes(got)
			if err != nil || back != c.d.Unscaled {
				t.Fatalf("round trip: %v %v", back, err)
			}
		})
	}
}
