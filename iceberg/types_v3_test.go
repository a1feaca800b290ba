package iceberg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"time"
)

func nanoTS(t *testing.T, s string) TimestampNano {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return TimestampNano(tm.UnixNano())
}

// The spec's Appendix B vectors: nanosecond timestamps hash as their
// microseconds, so .000001001 shares .000001's hash.
func TestHashNanoTimestamps(t *testing.T) {
	cases := []struct {
		in   string
		want int32
	}{
		{"2017-11-16T22:31:08Z", -2047944441},
		{"2017-11-16T22:31:08.000001001Z", -1207196810},
		{"2017-11-16T14:31:08.000001001-08:00", -1207196810},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			h, ok := HashValue(nanoTS(t, c.in))
			if !ok || h != c.want {
				t.Fatalf("hash = %d, %v; want %d", h, ok, c.want)
			}
		})
	}
}

func TestNanoTimestampTransforms(t *testing.T) {
	pre := nanoTS(t, "1969-12-31T23:59:59.999999999Z")
	v := nanoTS(t, "2026-03-04T05:06:07.123456789Z")
	cases := []struct {
		name string
		tr   Transform
		in   any
		want any
	}{
		{"year", YearTransform{}, v, int32(56)},
		{"month", MonthTransform{}, v, int32(56*12 + 2)},
		{"day", DayTransform{}, v, Date(nanoTS(t, "2026-03-04T00:00:00Z") / nanosPerDay)},
		{"hour", HourTransform{}, v, int32(int64(nanoTS(t, "2026-03-04T05:00:00Z")) / nanosPerHour)},
		{"day before epoch floors", DayTransform{}, pre, Date(-1)},
		{"hour before epoch floors", HourTransform{}, pre, int32(-1)},
		{"year before epoch floors", YearTransform{}, pre, int32(-1)},
		{"bucket matches micros", BucketTransform{N: 16}, v, BucketTransform{N: 16}.Apply(v.Micros())},
		{"identity", IdentityTransform{}, v, v},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.tr.Apply(c.in); got != c.want {
				t.Fatalf("got %v (%T), want %v (%T)", got, got, c.want, c.want)
			}
		})
	}
	for _, typ := range []Type{TimestampNsType{}, TimestampTzNsType{}} {
		for _, tr := range []Transform{YearTransform{}, MonthTransform{}, DayTransform{}, HourTransform{}, BucketTransform{N: 4}, IdentityTransform{}} {
			if !tr.CanTransform(typ) {
				t.Errorf("%s cannot transform %s", tr, typ)
			}
		}
	}
}

func TestNanoTimestampSerialisation(t *testing.T) {
	v := nanoTS(t, "2026-01-01T00:00:00.123456789Z")
	for _, typ := range []Type{TimestampNsType{}, TimestampTzNsType{}} {
		t.Run(typ.String(), func(t *testing.T) {
			b, err := SerializeValue(typ, v)
			if err != nil {
				t.Fatal(err)
			}
			if want := binary.LittleEndian.AppendUint64(nil, uint64(v)); !bytes.Equal(b, want) {
				t.Fatalf("bytes %x, want %x", b, want)
			}
			back, err := DeserializeValue(typ, b)
			if err != nil || back != v {
				t.Fatalf("round trip %v, %v", back, err)
			}
			// a bound written while the column was a date
			back, err = DeserializeValue(typ, binary.LittleEndian.AppendUint32(nil, 2))
			if err != nil || back != TimestampNano(2*nanosPerDay) {
				t.Fatalf("promoted date bound %v, %v", back, err)
			}
			if _, err := SerializeValue(typ, Timestamp(1)); !errors.Is(err, ErrTypeMismatch) {
				t.Fatalf("micro value accepted: %v", err)
			}
		})
	}
}

func TestNanoTimestampJSON(t *testing.T) {
	cases := []struct {
		typ  Type
		text string
		want TimestampNano
		err  bool
	}{
		{TimestampNsType{}, `"2026-01-01T00:00:00.123456789"`, 1767225600123456789, false},
		{TimestampNsType{}, `"1969-12-31T23:59:59.999999999"`, -1, false},
		{TimestampTzNsType{}, `"2026-01-01T00:00:00.000000001+00:00"`, 1767225600000000001, false},
		{TimestampTzNsType{}, `"2026-01-01T01:00:00.5+01:00"`, 1767225600500000000, false},
		{TimestampNsType{}, `"2026-01-01T00:00:00.123456789+00:00"`, 0, true},
		{TimestampTzNsType{}, `"2026-01-01T00:00:00"`, 0, true},
		{TimestampNsType{}, `"2300-01-01T00:00:00"`, 0, true},
		{TimestampNsType{}, `"2026-01-01T00:00:00.1234567891"`, 0, true},
	}
	for _, c := range cases {
		t.Run(c.typ.String()+c.text, func(t *testing.T) {
			v, err := ValueFromJSON(c.typ, []byte(c.text))
			if c.err {
				if err == nil {
					t.Fatalf("accepted as %v", v)
				}
				return
			}
			if err != nil || v != c.want {
				t.Fatalf("got %v, %v; want %d", v, err, c.want)
			}
			out, err := ValueToJSON(c.typ, v)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ValueFromJSON(c.typ, out)
			if err != nil || back != v {
				t.Fatalf("%s does not round trip: %v, %v", out, back, err)
			}
		})
	}
	// micro timestamps still refuse nanoseconds
	if _, err := ValueFromJSON(TimestampType{}, []byte(`"2026-01-01T00:00:00.123456789"`)); err == nil {
		t.Fatal("timestamp accepted nanoseconds")
	}
}

func TestNanoTimestampHumanString(t *testing.T) {
	v := nanoTS(t, "2026-01-01T00:00:00.123456789Z")
	if got := HumanString(IdentityTransform{}, TimestampTzNsType{}, v); got != "2026-01-01T00:00:00.123456789Z" {
		t.Fatalf("got %q", got)
	}
	if got := HumanString(IdentityTransform{}, TimestampNsType{}, nanoTS(t, "2026-01-01T10:00:00Z")); got != "2026-01-01T10:00" {
		t.Fatalf("got %q", got)
	}
}

func TestMinFormatVersion(t *testing.T) {
	cases := []struct {
		typ  Type
		want int
	}{
		{LongType{}, 1},
		{TimestampNsType{}, 3},
		{&ListType{ElementID: 2, Element: TimestampTzNsType{}}, 3},
		{&StructType{FieldList: []NestedField{{ID: 1, Name: "a", Type: IntType{}}}}, 1},
	}
	for _, c := range cases {
		t.Run(c.typ.String(), func(t *testing.T) {
			if got := MinFormatVersion(c.typ); got != c.want {
				t.Fatalf("got %d, want %d", got, c.want)
			}
		})
	}
}

func TestNanoTimestampNeedsV3(t *testing.T) {
	schema := MustSchema(0, NestedField{ID: 1, Name: "ts", Type: TimestampNsType{}})
	for _, c := range []struct {
		version string
		ok      bool
	}{{"1", false}, {"2", false}, {"3", true}} {
		t.Run("v"+c.version, func(t *testing.T) {
			_, err := NewTableMetadata(schema, nil, nil, "file:///t", map[string]string{PropFormatVersion: c.version})
			if c.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var tv *TypeVersionError
			if !errors.As(err, &tv) || !errors.Is(err, ErrInvalidSchema) || tv.Column != "ts" || tv.MinVersion != 3 {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func TestUnknownType(t *testing.T) {
	typ, err := ParseType("unknown")
	if err != nil || typ != (UnknownType{}) {
		t.Fatalf("ParseType: %v, %v", typ, err)
	}
	if err := ValidateValue(UnknownType{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := ValidateValue(UnknownType{}, int32(1)); !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("non-null value accepted: %v", err)
	}
	if v, err := ValueFromJSON(UnknownType{}, []byte("null")); v != nil || err != nil {
		t.Fatalf("null: %v, %v", v, err)
	}
	if _, err := ValueFromJSON(UnknownType{}, []byte("1")); !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("non-null JSON accepted: %v", err)
	}
	for _, to := range []Type{LongType{}, StringType{}, TimestampNsType{}, &ListType{ElementID: 9, Element: IntType{}}} {
		if !CanPromote(UnknownType{}, to) {
			t.Errorf("unknown cannot be promoted to %s", to)
		}
	}
	if CanPromote(LongType{}, UnknownType{}) {
		t.Error("long promoted to unknown")
	}
	for _, tr := range []Transform{IdentityTransform{}, BucketTransform{N: 2}, DayTransform{}, TruncateTransform{W: 2}} {
		if tr.CanTransform(UnknownType{}) {
			t.Errorf("%s transforms unknown", tr)
		}
	}
}

func TestUnknownColumnRules(t *testing.T) {
	cases := []struct {
		name    string
		field   NestedField
		version string
		wantErr bool
	}{
		{"optional in v3", NestedField{ID: 1, Name: "u", Type: UnknownType{}}, "3", false},
		{"in v2", NestedField{ID: 1, Name: "u", Type: UnknownType{}}, "2", true},
		{"required", NestedField{ID: 1, Name: "u", Type: UnknownType{}, Required: true}, "3", true},
		{"list element required", NestedField{ID: 1, Name: "l", Type: &ListType{ElementID: 2, Element: UnknownType{}, ElementRequired: true}}, "3", true},
		{"list element optional", NestedField{ID: 1, Name: "l", Type: &ListType{ElementID: 2, Element: UnknownType{}}}, "3", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewTableMetadata(MustSchema(0, c.field), nil, nil, "file:///t", map[string]string{PropFormatVersion: c.version})
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if err != nil && !errors.Is(err, ErrInvalidSchema) {
				t.Fatalf("error %v does not wrap ErrInvalidSchema", err)
			}
		})
	}
}

func TestVariantType(t *testing.T) {
	typ, err := TypeFromJSON([]byte(`"variant"`))
	if err != nil || typ != (VariantType{}) {
		t.Fatalf("TypeFromJSON: %v, %v", typ, err)
	}
	out, err := TypeToJSON(VariantType{})
	if err != nil || string(out) != `"variant"` {
		t.Fatalf("TypeToJSON: %s, %v", out, err)
	}
	for _, tr := range []Transform{IdentityTransform{}, BucketTransform{N: 2}, DayTransform{}, TruncateTransform{W: 2}} {
		if tr.CanTransform(VariantType{}) {
			t.Errorf("%s transforms variant", tr)
		}
	}
	if MinFormatVersion(VariantType{}) != 3 {
		t.Error("variant allowed before v3")
	}
	if _, err := SerializeValue(VariantType{}, []byte{1}); err == nil {
		t.Error("variant has a single-value serialisation")
	}
	_, err = NewTableMetadata(MustSchema(0, NestedField{ID: 1, Name: "v", Type: VariantType{}}), nil, nil, "file:///t", map[string]string{PropFormatVersion: "2"})
	var tv *TypeVersionError
	if !errors.As(err, &tv) {
		t.Fatalf("variant in v2: %v", err)
	}
}

// Every v3 type survives table metadata JSON.
func TestV3TypesMetadataRoundTrip(t *testing.T) {
	schema := MustSchema(0,
		NestedField{ID: 1, Name: "ts", Type: TimestampNsType{}, Required: true},
		NestedField{ID: 2, Name: "tz", Type: TimestampTzNsType{}},
		NestedField{ID: 3, Name: "u", Type: UnknownType{}},
		NestedField{ID: 4, Name: "v", Type: VariantType{}},
		NestedField{ID: 5, Name: "l", Type: &ListType{ElementID: 6, Element: VariantType{}}},
	)
	m, err := NewTableMetadata(schema, nil, nil, "file:///t", map[string]string{PropFormatVersion: "3"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	got := back.CurrentSchema()
	for _, f := range m.CurrentSchema().Fields() {
		g, ok := got.FindFieldByID(f.ID)
		if !ok || !TypesEqual(g.Type, f.Type) || g.Required != f.Required {
			t.Fatalf("field %d: %v, want %v", f.ID, g, f)
		}
	}
}
