package iceberg

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParseType(t *testing.T) {
	cases := []struct {
		in   string
		want Type
		err  error
	}{
		{"long", LongType{}, nil},
		{"TimestampTZ", TimestampTzType{}, nil},
		{"decimal(9,2)", DecimalType{Precision: 9, Scale: 2}, nil},
		{"decimal(38, 10)", DecimalType{Precision: 38, Scale: 10}, nil},
		{"fixed[16]", FixedType{Length: 16}, nil},
		{"decimal(39,2)", nil, ErrInvalidSchema},
		{"decimal(5,6)", nil, ErrInvalidSchema},
		{"decimal(5)", nil, ErrInvalidSchema},
		{"fixed[0]", nil, ErrInvalidSchema},
		{"fixed[x]", nil, ErrInvalidSchema},
		{"varchar", nil, ErrInvalidSchema},
		{"timestamp_ns", TimestampNsType{}, nil},
		{"TIMESTAMPTZ_NS", TimestampTzNsType{}, nil},
		{"variant", nil, ErrInvalidSchema},             // not primitive: TypeFromJSON reads it
		{"geometry(srid:4326)", nil, ErrInvalidSchema}, // not primitive: TypeFromJSON reads it
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseType(c.in)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("want %v, got %v", c.err, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %v, %v", got, err)
			}
		})
	}
}

func TestSchemaJSONRoundTrip(t *testing.T) {
	s, err := NewSchema(3, []NestedField{
		{ID: 1, Name: "id", Type: LongType{}, Required: true},
		{ID: 2, Name: "loc", Type: &StructType{FieldList: []NestedField{
			{ID: 3, Name: "lat", Type: DoubleType{}, Doc: "degrees"},
			{ID: 4, Name: "lon", Type: DoubleType{}},
		}}},
		{ID: 5, Name: "pts", Type: &ListType{ElementID: 6, Element: DecimalType{Precision: 10, Scale: 2}, ElementRequired: true}},
		{ID: 7, Name: "m", Type: &MapType{KeyID: 8, Key: StringType{}, ValueID: 9, Value: FixedType{Length: 4}}},
		{ID: 10, Name: "n", Type: IntType{}, WriteDefault: int32(5)},
	}, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Schema
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if back.ID != 3 || !back.Equals(s) {
		t.Fatalf("round trip changed schema:\n%s\n%s", s, &back)
	}
	if f, _ := back.FindFieldByID(3); f.Doc != "degrees" {
		t.Fatal("doc lost")
	}
	if f, _ := back.FindFieldByID(10); f.WriteDefault != int32(5) {
		t.Fatalf("write-default lost: %#v", f.WriteDefault)
	}
}

func TestSchemaJSONErrors(t *testing.T) {
	cases := map[string]string{
		"not object":        `[1]`,
		"no fields":         `{"type":"struct","schema-id":0}`,
		"wrong type":        `{"type":"list","fields":[]}`,
		"field without id":  `{"type":"struct","fields":[{"name":"a","required":true,"type":"int"}]}`,
		"duplicate id":      `{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"},{"id":1,"name":"b","required":true,"type":"int"}]}`,
		"list missing id":   `{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":{"type":"list","element":"int","element-required":true}}]}`,
		"map missing value": `{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":{"type":"map","key-id":2,"key":"int","value-id":3,"value-required":true}}]}`,
		"type number":       `{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":5}]}`,
		"nested unknown":    `{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":{"type":"tuple"}}]}`,
		"bad default":       `{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int","write-default":"x"}]}`,
		"bad identifier":    `{"type":"struct","identifier-field-ids":[9],"fields":[{"id":1,"name":"a","required":true,"type":"int"}]}`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseSchemaJSON([]byte(in)); !errors.Is(err, ErrInvalidSchema) {
				t.Fatalf("want ErrInvalidSchema, got %v", err)
			}
		})
	}
}
