package iceberg

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func TestCompareValues(t *testing.T) {
	negZero := math.Copysign(0, -1)
	decimal := func(unscaled int64, scale int) Decimal {
		return Decimal{Unscaled: decimal128.FromI64(unscaled), Scale: scale}
	}
	tests := []struct {
		name   string
		a, b   any
		want   int
		wantOK bool
	}{
		{"bools", false, true, -1, true},
		{"equal bools", true, true, 0, true},
		{"ints", int32(2), int32(1), 1, true},
		{"int against long", int32(2), int64(3), -1, true},
		{"date against int", Date(5), int32(5), 0, true},
		{"timestamps", Timestamp(-1), Timestamp(1), -1, true},
		{"float32 against float64", float32(1.5), 1.5, 0, true},
		{"negative zero first", negZero, 0.0, -1, true},
		{"NaN after infinity", math.NaN(), math.Inf(1), 1, true},
		{"infinity before NaN", math.Inf(1), math.NaN(), -1, true},
		{"two NaNs", math.NaN(), float32(math.NaN()), 0, true},
		{"strings", "b", "a", 1, true},
		{"bytes", []byte{1}, []byte{1, 0}, -1, true},
		{"uuids", UUID{1}, UUID{2}, -1, true},
		{"decimals of one scale", decimal(150, 2), decimal(149, 2), 1, true},
		{"decimals of two scales", decimal(15, 1), decimal(150, 2), 0, true},
		{"decimal scale does not decide", decimal(2, 0), decimal(150, 2), 1, true},
		{"int against string", int32(1), "1", 0, false},
		{"string against bytes", "a", []byte("a"), 0, false},
		{"float against int", 1.0, int32(1), 0, false},
		{"nil", nil, int32(1), 0, false},
		{"type outside the value form", uint8(1), uint8(2), 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := CompareValues(tt.a, tt.b)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("CompareValues(%v, %v) = %d, %v; want %d, %v", tt.a, tt.b, got, ok, tt.want, tt.wantOK)
			}
			if !ok {
				return
			}
			// The order must be antisymmetric.
			if back, _ := CompareValues(tt.b, tt.a); back != -got {
				t.Errorf("CompareValues(%v, %v) = %d, want %d", tt.b, tt.a, back, -got)
			}
		})
	}
}

func TestIsNaN(t *testing.T) {
	tests := []struct {
		v    any
		want bool
	}{
		{math.NaN(), true},
		{float32(math.NaN()), true},
		{1.0, false},
		{int32(0), false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := IsNaN(tt.v); got != tt.want {
			t.Errorf("IsNaN(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

func TestPartitionKey(t *testing.T) {
	tests := []struct {
		name         string
		specA, specB int
		a, b         []any
		same         bool
	}{
		{"equal tuples", 0, 0, []any{int32(1), "x"}, []any{int32(1), "x"}, true},
		{"other spec", 0, 1, []any{int32(1)}, []any{int32(1)}, false},
		{"null against empty string", 0, 0, []any{nil}, []any{""}, false},
		{"separator inside a string", 0, 0, []any{"a|s\"b"}, []any{"a", "b"}, false},
		{"string against bytes", 0, 0, []any{"a"}, []any{[]byte("a")}, false},
		{"int against long", 0, 0, []any{int32(1)}, []any{int64(1)}, false},
		{"equal bytes", 0, 0, []any{[]byte{1, 2}}, []any{[]byte{1, 2}}, true},
		{"negative zero", 0, 0, []any{math.Copysign(0, -1)}, []any{0.0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ka, kb := PartitionKey(tt.specA, tt.a), PartitionKey(tt.specB, tt.b)
			if (ka == kb) != tt.same {
				t.Errorf("keys %q and %q: same = %v, want %v", ka, kb, ka == kb, tt.same)
			}
		})
	}
}
