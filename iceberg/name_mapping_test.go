package iceberg

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestNameMapping(t *testing.T) {
	m, err := ParseNameMapping([]byte(`[
		{"field-id": 1, "names": ["id", "record_id"]},
		{"field-id": 2, "names": ["data"]},
		{"field-id": 3, "names": ["location"], "fields": [
			{"field-id": 4, "names": ["latitude", "lat"]},
			{"names": ["ignored"]}
		]}]`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path []string
		want int
		ok   bool
	}{
		{[]string{"record_id"}, 1, true},
		{[]string{"location", "lat"}, 4, true},
		{[]string{"location", "ignored"}, 0, false},
		{[]string{"location", "lon"}, 0, false},
		{[]string{"missing"}, 0, false},
		{nil, 0, false},
	}
	for _, c := range cases {
		id, ok := m.FindFieldID(c.path...)
		if id != c.want || ok != c.ok {
			t.Errorf("FindFieldID(%v) = %d, %v", c.path, id, ok)
		}
	}
	if _, err := ParseNameMapping([]byte(`[{"field-id":1,"names":["a"]},{"field-id":2,"names":["a"]}]`)); !errors.Is(err, ErrInvalidSchema) {
		t.Fatalf("duplicate names: %v", err)
	}
	if _, err := ParseNameMapping([]byte(`{`)); !errors.Is(err, ErrInvalidSchema) {
		t.Fatalf("bad json: %v", err)
	}
}

func TestMappingFromSchema(t *testing.T) {
	s := MustSchema(0,
		NestedField{ID: 1, Name: "a", Type: IntType{}},
		NestedField{ID: 2, Name: "l", Type: &ListType{ElementID: 3, Element: &StructType{FieldList: []NestedField{{ID: 4, Name: "x", Type: IntType{}}}}}},
	)
	m := MappingFromSchema(s)
	if id, ok := m.FindFieldID("l", "element", "x"); !ok || id != 4 {
		t.Fatalf("nested lookup %d %v", id, ok)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseNameMapping(b)
	if err != nil {
		t.Fatal(err)
	}
	if id, ok := back.FindFieldID("a"); !ok || id != 1 {
		t.Fatalf("round trip %s", b)
	}
}
