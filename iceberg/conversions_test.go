package iceberg

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"testing"
)

func TestSerializeValueVectors(t *testing.T) {
	cases := []struct {
		name string
		t    Type
		v    any
		want []byte
	}{
		{"false", BooleanType{}, false, []byte{0}},
		{"true", BooleanType{}, true, []byte{1}},
		{"int", IntType{}, int32(34), []byte{34, 0, 0, 0}},
		{"int negative", IntType{}, int32(-1), []byte{0xff, 0xff, 0xff, 0xff}},
		{"long", LongType{}, int64(34), []byte{34, 0, 0, 0, 0, 0, 0, 0}},
		{"float", FloatType{}, float32(1), []byte{0, 0, 0x80, 0x3f}},
		{"double", DoubleType{}, 1.0, []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}},
		{"date", DateType{}, Date(17486), []byte{0x4e, 0x44, 0, 0}},
		{"time", TimeType{}, Time(1), []byte{1, 0, 0, 0, 0, 0, 0, 0}},
		{"timestamp", TimestampType{}, Timestamp(-1), bytes.Repeat([]byte{0xff}, 8)},
		{"timestamptz", TimestampTzType{}, Timestamp(256), []byte{0, 1, 0, 0, 0, 0, 0, 0}},
		{"string", StringType{}, "iceberg", []byte("iceberg")},
		{"uuid big-endian", UUIDType{}, testUUID(), []byte{0xF7, 0x9C, 0x3E, 0x09, 0x67, 0x7C, 0x4B, 0xBD, 0xA4, 0x79, 0x3F, 0x34, 0x9C, 0xB7, 0x85, 0xE7}},
		{"fixed", FixedType{Length: 4}, []byte{0, 1, 2, 3}, []byte{0, 1, 2, 3}},
		{"binary", BinaryType{}, []byte{}, []byte{}},
		{"decimal", DecimalType{Precision: 9, Scale: 2}, dec(1420, 2), []byte{0x05, 0x8c}},
		{"decimal negative", DecimalType{Precision: 9, Scale: 2}, dec(-1420, 2), []byte{0xfa, 0x74}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := SerializeValue(c.t, c.v)
			if err != nil || !bytes.Equal(got, c.want) {
				t.Fatalf("SerializeValue = %x, %v; want %x", got, err, c.want)
			}
			back, err := DeserializeValue(c.t, got)
			if err != nil || !reflect.DeepEqual(back, c.v) {
				t.Fatalf("DeserializeValue = %#v, %v; want %#v", back, err, c.v)
			}
		})
	}
}

func TestDeserializePromotedBounds(t *testing.T) {
	cases := []struct {
		name string
		t    Type
		b    []byte
		want any
	}{
		{"int bound on long", LongType{}, []byte{0xfe, 0xff, 0xff, 0xff}, int64(-2)},
		{"float bound on double", DoubleType{}, []byte{0, 0, 0xc0, 0x3f}, 1.5},
		{"date bound on timestamp", TimestampType{}, []byte{1, 0, 0, 0}, Timestamp(microsPerDay)},
		{"date bound on timestamptz", TimestampTzType{}, []byte{0xff, 0xff, 0xff, 0xff}, Timestamp(-microsPerDay)},
		{"wider decimal", DecimalType{Precision: 20, Scale: 2}, []byte{0x05, 0x8c}, dec(1420, 2)},
		{"truncated fixed bound", FixedType{Length: 8}, []byte{1, 2}, []byte{1, 2}},
		{"decimal with redundant sign bytes", DecimalType{Precision: 38}, append(bytes.Repeat([]byte{0xff}, 17), 0x80), dec(-128, 0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DeserializeValue(c.t, c.b)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, %v; want %#v", got, err, c.want)
			}
		})
	}
}

func TestDeserializeRejects(t *testing.T) {
	cases := []struct {
		name string
		t    Type
		b    []byte
		want error
	}{
		{"short int", IntType{}, []byte{1, 2}, ErrTypeMismatch},
		{"long of 5", LongType{}, make([]byte, 5), ErrTypeMismatch},
		{"boolean of 2", BooleanType{}, []byte{1, 1}, ErrTypeMismatch},
		{"uuid of 15", UUIDType{}, make([]byte, 15), ErrTypeMismatch},
		{"fixed too long", FixedType{Length: 2}, make([]byte, 3), ErrTypeMismatch},
		{"bad utf8", StringType{}, []byte{0xff, 0xfe}, ErrTypeMismatch},
		{"empty decimal", DecimalType{Precision: 9}, nil, ErrTypeMismatch},
		{"decimal overflow", DecimalType{Precision: 38}, append([]byte{1}, make([]byte, 16)...), ErrTypeMismatch},
		{"struct", &StructType{}, nil, ErrUnsupported},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := DeserializeValue(c.t, c.b); !errors.Is(err, c.want) {
				t.Fatalf("error = %v, want %v", err, c.want)
			}
		})
	}
}

func TestSerializeRejectsWrongGoType(t *testing.T) {
	cases := []struct {
		name string
		t    Type
		v    any
	}{
		{"int64 for int", IntType{}, int64(1)},
		{"int32 for date", DateType{}, int32(1)},
		{"null", IntType{}, nil},
		{"wrong scale", DecimalType{Precision: 9, Scale: 2}, dec(1, 3)},
		{"too many digits", DecimalType{Precision: 2, Scale: 0}, dec(100, 0)},
		{"fixed length", FixedType{Length: 2}, []byte{1}},
		{"invalid utf8", StringType{}, "\xff"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := SerializeValue(c.t, c.v); !errors.Is(err, ErrTypeMismatch) {
				t.Fatalf("error = %v, want ErrTypeMismatch", err)
			}
		})
	}
}

func TestTruncateBounds(t *testing.T) {
	maxRune := string(rune(0x10FFFF))
	cases := []struct {
		name   string
		v      any
		n      int
		lower  any
		upper  any
		hasMax bool
	}{
		{"short string kept", "abc", 16, "abc", "abc", true},
		{"string", "abcdef", 3, "abc", "abd", true},
		{"code points", "ééé", 2, "éé", "éê", true},
		{"max code point carries", "a" + maxRune + "z", 2, "a" + maxRune, "b", true},
		{"all max", maxRune + maxRune + "z", 2, maxRune + maxRune, nil, false},
		{"surrogate gap", "a\uD7FFz", 2, "a\uD7FF", "a\uE000", true},
		{"binary", []byte{1, 0xff, 3}, 2, []byte{1, 0xff}, []byte{2}, true},
		{"binary all ff", []byte{0xff, 0xff, 3}, 2, []byte{0xff, 0xff}, nil, false},
		{"binary short", []byte{1}, 2, []byte{1}, []byte{1}, true},
		{"other types unchanged", int32(5), 1, int32(5), int32(5), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := TruncateLowerBound(c.v, c.n); !reflect.DeepEqual(got, c.lower) {
				t.Fatalf("lower = %#v, want %#v", got, c.lower)
			}
			got, ok := TruncateUpperBound(c.v, c.n)
			if ok != c.hasMax || (ok && !reflect.DeepEqual(got, c.upper)) {
				t.Fatalf("upper = %#v, %v; want %#v, %v", got, ok, c.upper, c.hasMax)
			}
		})
	}
}

func TestNaNSerialises(t *testing.T) {
	b, err := SerializeValue(DoubleType{}, math.NaN())
	if err != nil || len(b) != 8 {
		t.Fatalf("got %x, %v", b, err)
	}
}
